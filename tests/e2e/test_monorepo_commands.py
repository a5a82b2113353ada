"""The subcommands in monorepo mode (docs/monorepo.md, "The subcommands"): `impact index` builds one
coverage index per project, each from its own pytest run in its own folder, and a monorepo run uses
each project's own index."""
import json
import re

from harness import make_repo, selected_ids

PYTEST = json.dumps(["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider"])

SIGNS = (
    "def classify(n):\n"
    "    if n < 0:\n"
    '        return "negative"\n'
    "    if n == 0:\n"
    '        return "zero"\n'
    '    return "positive"\n'
)

# Two projects: libs/a (a library with two tests that both call classify) and libs/b (declares libs-a).
TWO = {
    "README.md": "# two projects\n",
    "libs/a/pyproject.toml": (
        '[project]\nname = "libs-a"\nversion = "1"\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n'),
    "libs/a/src/liba/__init__.py": "",
    "libs/a/src/liba/signs.py": SIGNS,
    "libs/a/tests/test_negative.py": (
        "from liba.signs import classify\n\n\ndef test_negative():\n    assert classify(-1) == \"negative\"\n"),
    "libs/a/tests/test_zero.py": (
        "from liba.signs import classify\n\n\ndef test_zero():\n    assert classify(0) == \"zero\"\n"),
    "libs/b/pyproject.toml": (
        '[project]\nname = "libs-b"\nversion = "1"\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n'),
    "libs/b/src/libb/__init__.py": "",
    "libs/b/src/libb/twice.py": "def twice(x):\n    return 2 * x\n",
    "libs/b/tests/test_twice.py": "from libb.twice import twice\n\n\ndef test_twice():\n    assert twice(2) == 4\n",
}

NEGATIVE = ('        return "negative"\n', '        return "negative".lower()\n')


def two_projects(tmp_path):
    return make_repo(tmp_path, files=TWO)


def by_path(doc):
    return {p["path"]: p for p in doc["projects"]}


def test_index_builds_one_index_per_project_in_its_folder(tmp_path):
    repo = two_projects(tmp_path)
    run = repo.impact("index", "--pytest-command", PYTEST)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "impact: index: libs/a" in run.stderr and "impact: index: libs/b" in run.stderr
    assert "impact: indexed 2 test(s)" in run.stderr and "impact: indexed 1 test(s)" in run.stderr
    assert "impact: index: 2 project(s), 2 without error; exit 0" in run.stderr
    for project in ("libs/a", "libs/b"):
        assert (repo.path / project / ".impact_cache" / "coverage-index.sqlite").is_file()
    assert not (repo.path / ".impact_cache" / "coverage-index.sqlite").exists()
    # each project's pytest ran in its own folder, with its own configuration (pythonpath = src)
    assert "2 passed" in run.stdout and "1 passed" in run.stdout
    # the index holds the project's node ids, relative to the project
    status = repo.impact("index", "status", "--format", "json", "-C", "libs/a").json
    assert status["tests"] == 2 and status["whole_suite"] is True
    text = repo.impact("index", "status")
    assert text.returncode == 0, text.stderr
    assert "# libs/a\n" in text.stdout and "# libs/b\n" in text.stdout
    assert text.stdout.count("holds: ") == 2


def test_index_project_flag_and_C_restrict_it(tmp_path):
    repo = two_projects(tmp_path)
    run = repo.impact("index", "--pytest-command", PYTEST, "--project", "libs/b")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "impact: index: libs/b" in run.stderr and "libs/a" not in run.stderr
    assert (repo.path / "libs/b/.impact_cache/coverage-index.sqlite").is_file()
    assert not (repo.path / "libs/a/.impact_cache/coverage-index.sqlite").exists()
    run = repo.impact("index", "--pytest-command", PYTEST, "-C", "libs/a")
    assert run.returncode == 0, run.stdout + run.stderr
    assert (repo.path / "libs/a/.impact_cache/coverage-index.sqlite").is_file()
    # a project without an index is said, the others still are; the exit is 2
    (repo.path / "libs/b/.impact_cache/coverage-index.sqlite").unlink()
    status = repo.impact("index", "status")
    assert status.returncode == 2 and "libs/b" in status.stderr
    assert "# libs/a\n" in status.stdout and "holds: 2 test(s)" in status.stdout
    multi = repo.impact("index", "status", "--format", "json")
    assert multi.returncode == 2 and "--project <project>" in multi.stderr


def test_index_reports_a_failing_project_and_merges_the_codes(tmp_path):
    files = dict(TWO)
    files["libs/b/tests/test_twice.py"] = files["libs/b/tests/test_twice.py"].replace("== 4", "== 5")
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index", "--pytest-command", PYTEST)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "not clean: libs/b (exit 1); exit 1" in run.stderr
    assert (repo.path / "libs/a/.impact_cache/coverage-index.sqlite").is_file()
    assert (repo.path / "libs/b/.impact_cache/coverage-index.sqlite").is_file()  # of what ran


def test_index_from_a_coverage_file_needs_one_project(tmp_path):
    repo = two_projects(tmp_path)
    run = repo.impact("index", "--from", ".coverage")
    assert run.returncode == 2
    assert "a coverage file is one project's" in run.stderr and "-C <project>" in run.stderr


def test_a_monorepo_run_uses_each_projects_own_index(tmp_path):
    repo = two_projects(tmp_path)
    build = repo.impact("index", "--pytest-command", PYTEST, "--project", "libs/a")
    assert build.returncode == 0, build.stdout + build.stderr
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    repo.replace("libs/b/src/libb/twice.py", "2 * x", "x * 2")
    static = by_path(repo.impact("--dry-run", "--format", "json", "--no-index").json)
    assert sorted(static["libs/a"]["selected"]) == [
        "libs/a/tests/test_negative.py::test_negative", "libs/a/tests/test_zero.py::test_zero"]
    doc = repo.impact("--dry-run", "--format", "json")
    assert doc.returncode == 0, doc.stderr
    warm = by_path(doc.json)
    # libs/a's index narrows its selection to the test that ran the changed line ...
    assert warm["libs/a"]["selected"] == ["libs/a/tests/test_negative.py::test_negative"]
    assert selected_ids(warm["libs/a"]["decision"]) == ["tests/test_negative.py::test_negative"]
    entry = next(f for f in warm["libs/a"]["decision"]["changed_files"] if f["path"] == "src/liba/signs.py")
    assert entry["source"] == "coverage"
    # ... and libs/b, which has none, keeps its static answer
    assert warm["libs/b"]["selected"] == static["libs/b"]["selected"] == ["libs/b/tests/test_twice.py::test_twice"]
    run = repo.impact("--pytest-command", PYTEST)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout and "test_zero" not in run.stdout


# --- explain, changes, audit, doctor -----------------------------------------------------------------

def with_b_on_a(tmp_path):
    """TWO, with libs/b declaring libs-a."""
    files = dict(TWO)
    files["libs/b/pyproject.toml"] = files["libs/b/pyproject.toml"].replace(
        'version = "1"\n', 'version = "1"\ndependencies = ["libs-a"]\n')
    return make_repo(tmp_path, files=files)


def test_explain_at_the_root_answers_within_the_targets_project(tmp_path):
    repo = with_b_on_a(tmp_path)
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    run = repo.impact("explain", "libs/a/tests/test_negative.py::test_negative")
    assert run.returncode == 0, run.stderr
    assert "project: libs/a (selection changed)" in run.stdout
    assert "[SELECTED] tests/test_negative.py::test_negative" in run.stdout
    doc = repo.impact("explain", "libs/a/tests/test_negative.py::test_negative", "--format", "json").json
    assert doc["project"]["path"] == "libs/a" and doc["outcome"] == "selected"
    assert [t["node_id"] for t in doc["selected"]] == ["tests/test_negative.py::test_negative"]
    # a project the monorepo's rules run whole: its test is selected, and the rule is named
    run = repo.impact("explain", "libs/b/tests/test_twice.py::test_twice")
    assert run.returncode == 0, run.stderr
    assert "project: libs/b (all depends_on_changed)" in run.stdout
    assert "[SELECTED] tests/test_twice.py::test_twice" in run.stdout
    assert "libs/b -> libs/a" in run.stdout
    doc = repo.impact("explain", "libs/b/tests/test_twice.py", "--format", "json").json
    assert (doc["outcome"], doc["reason"], doc["project"]["why"]) == ("run_all", "depends_on_changed",
                                                                        "depends_on_changed")
    # -C <project>: the target as the project names it
    run = repo.impact("explain", "-C", "libs/a", "tests/test_zero.py::test_zero")
    assert run.returncode == 0, run.stderr
    assert "project: libs/a (selection changed)" in run.stdout
    assert "[SELECTED] tests/test_zero.py::test_zero" in run.stdout


def test_explain_skipped_project_and_targets_in_no_project(tmp_path):
    repo = two_projects(tmp_path)
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    run = repo.impact("explain", "libs/b/tests/test_twice.py::test_twice")
    assert run.returncode == 0, run.stderr
    assert "project: libs/b (none unchanged)" in run.stdout
    assert "[SKIPPED] tests/test_twice.py::test_twice" in run.stdout
    missing = repo.impact("explain", "libs/b/tests/test_nothing.py")
    assert missing.returncode == 2 and "does not exist in project libs/b" in missing.stderr
    outside = repo.impact("explain", "tests/test_twice.py::test_twice")
    assert outside.returncode == 2
    assert "in no project of this monorepo" in outside.stderr and "-C <project>" in outside.stderr


def test_changes_at_the_root_are_grouped_by_project(tmp_path):
    repo = two_projects(tmp_path)
    repo.replace("libs/b/src/libb/twice.py", "2 * x", "x * 2")
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    repo.replace("README.md", "two", "2")
    run = repo.impact("changes")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    heads = [line for line in lines if line.startswith("# ")]
    assert heads == ["# libs/a", "# libs/b", "# outside every project"]
    assert lines.index("# libs/a") < next(i for i, l in enumerate(lines) if "libs/a/src/liba/signs.py" in l)
    assert lines[-1].endswith("README.md -1,1 +1,1")
    doc = repo.impact("changes", "--format", "json").json
    assert {f["path"]: f["project"] for f in doc["files"]} == {
        "README.md": None, "libs/a/src/liba/signs.py": "libs/a", "libs/b/src/libb/twice.py": "libs/b"}


def test_audit_and_doctor_work_on_one_project(tmp_path):
    repo = two_projects(tmp_path)
    for command in ("audit", "doctor"):
        run = repo.impact(command, "--pytest-command", PYTEST)
        assert run.returncode == 2, run.stdout + run.stderr
        assert run.stderr.startswith(f"impact: error: {command} works on one project of a monorepo and 2 are")
        assert "-C <project>" in run.stderr and len(run.stderr.splitlines()) == 1
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    audit = repo.impact("audit", "--pytest-command", PYTEST, "-C", "libs/a")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    # libs/a's whole suite, in its folder, with its pythonpath (an import error would fail both tests)
    assert "selection: selected, 2 node id(s)" in audit.stdout
    assert re.search(r"ran \(whole suite\) +2 +0\n", audit.stdout), audit.stdout
    doctor = repo.impact("doctor", "--pytest-command", PYTEST, "--project", "libs/b", "--format", "json")
    checks = {c["id"]: c["status"] for c in doctor.json["checks"]}
    assert checks["imports"] == "ok", doctor.stdout


# --- the fallback command ----------------------------------------------------------------------------

FALLBACK = (
    "#!/usr/bin/python3\n"
    "import json, os, sys\n"
    "payload = json.load(sys.stdin)\n"
    "payload['seen_reason'] = os.environ['IMPACT_FALLBACK_REASON']\n"
    "payload['seen_cwd'] = os.getcwd()\n"
    "with open(os.environ['PAYLOAD_OUT'], 'w') as out:\n"
    "    json.dump(payload, out)\n"
    "print('fallback ran')\n"
)


def with_fallback_in_b(tmp_path):
    repo = with_b_on_a(tmp_path / "src")
    repo.write("libs/b/pyproject.toml", repo.read("libs/b/pyproject.toml")
               + '\n[tool.impact]\nfallback-command = ["./ci.py"]\n')
    repo.write("libs/b/ci.py", FALLBACK)
    (repo.path / "libs/b/ci.py").chmod(0o755)
    repo.commit("fallback")
    return repo


def test_a_whole_run_the_monorepo_decides_uses_the_projects_fallback_with_every_project_in_its_payload(tmp_path):
    repo = with_fallback_in_b(tmp_path)
    out = tmp_path / "payload.json"
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    dry = repo.impact("--dry-run", "--format", "json").json
    assert by_path(dry)["libs/b"]["argv"][0].endswith("libs/b/ci.py")
    run = repo.impact("--pytest-command", PYTEST, env={"PAYLOAD_OUT": str(out)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "==== libs/b (all depends_on_changed): passed" in run.stdout and "fallback ran" in run.stdout
    payload = json.loads(out.read_text())
    assert (payload["schema"], payload["version"]) == ("impact.fallback", 1)
    assert payload["reason"] == payload["seen_reason"] == "depends_on_changed"
    assert "libs/b -> libs/a" in payload["detail"]
    assert payload["project"] == "libs/b" and payload["seen_cwd"] == str(repo.path / "libs/b")
    assert payload["root"] == str(repo.path / "libs/b") and payload["repository_root"] == str(repo.path)
    assert payload["changed_files"] == []
    projects = {p["path"]: p for p in payload["projects"]}
    assert (projects["libs/a"]["run"], projects["libs/a"]["why"], projects["libs/a"]["fallback"]) == (
        "selection", "changed", False)
    assert sorted(projects["libs/a"]["selected"]) == [
        "libs/a/tests/test_negative.py::test_negative", "libs/a/tests/test_zero.py::test_zero"]
    assert (projects["libs/b"]["run"], projects["libs/b"]["fallback"], projects["libs/b"]["selected"]) == (
        "all", True, None)


def test_one_project_execs_its_fallback_with_the_payload(tmp_path):
    repo = with_fallback_in_b(tmp_path)
    out = tmp_path / "payload.json"
    repo.write("scripts/release.py", "print('release')\n")  # Python outside every project: all run whole
    run = repo.impact("--pytest-command", PYTEST, "--project", "libs/b", env={"PAYLOAD_OUT": str(out)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "impact: libs/b: delegating to the fallback" in run.stderr
    assert run.stdout == "fallback ran\n"  # exec'd: its output is the run's own
    payload = json.loads(out.read_text())
    assert payload["reason"] == payload["seen_reason"] == "outside_change"
    assert "scripts/release.py" in payload["detail"]
    assert [(p["path"], p["run"], p["why"]) for p in payload["projects"]] == [("libs/b", "all", "outside_change")]


# --- setup.cfg declarations --------------------------------------------------------------------------

def test_setup_cfg_install_requires_and_extras_are_declared_edges(tmp_path):
    files = dict(TWO)
    del files["libs/b/pyproject.toml"]
    files["libs/b/setup.cfg"] = (
        "[metadata]\nname = libs_b\n\n[options]\ninstall_requires =\n    requests>=2\n    Libs.A >= 1 ; python_version >= '3'\n\n"
        "[tool:pytest]\ntestpaths = tests\npythonpath = src ../a/src\n")
    files["libs/b/src/libb/twice.py"] = "from liba.signs import classify\n\n\ndef twice(x):\n    return 2 * x\n"
    files["libs/c/setup.cfg"] = (
        "[metadata]\nname = c\n\n[options.extras_require]\ntesting =\n    pytest\n    libs-b\n\n"
        "[tool:pytest]\ntestpaths = tests\n")
    files["libs/c/tests/test_c.py"] = "def test_c():\n    assert True\n"
    repo = make_repo(tmp_path, files=files)
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    run = repo.impact("--dry-run", "--format", "json")
    assert run.returncode == 0, run.stderr
    projects = by_path(run.json)
    assert (projects["libs/b"]["run"], projects["libs/b"]["why"]) == ("all", "depends_on_changed")
    assert "declares libs-a in libs/b/setup.cfg" in projects["libs/b"]["detail"]
    assert (projects["libs/c"]["run"], projects["libs/c"]["why"]) == ("all", "depends_on_changed")
    assert "libs/c -> libs/b -> libs/a" in projects["libs/c"]["detail"]
    assert "declares libs-b in libs/c/setup.cfg" in projects["libs/c"]["detail"]
    assert "does not declare" not in run.stderr  # libs/b imports liba, and declares it


def test_a_malformed_setup_cfg_names_the_file(tmp_path):
    files = dict(TWO)
    files["libs/b/setup.cfg"] = "[metadata\nname = b\n"
    repo = make_repo(tmp_path, files=files)
    repo.replace("libs/a/src/liba/signs.py", *NEGATIVE)
    run = repo.impact("--dry-run")
    assert run.returncode == 2
    assert "libs/b/setup.cfg" in run.stderr
