"""Monorepo mode (docs/monorepo.md): a repository whose root does not configure pytest, with projects
below it that do. Discovery and `impact projects`, the decision per project (changed, depends on a
changed project, outside every project, skipped), and running each project as its own pytest."""
import json

import pytest

from harness import make_repo, selected_ids

PYTEST = json.dumps(["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider"])

# libs/a: a library; libs/b declares libs-a; services/api imports libb without declaring it (its
# pytest finds it through pythonpath); libs/c stands alone. Each uses another kind of pytest file.
FILES = {
    "README.md": "# a monorepo\n",
    "libs/a/pyproject.toml": (
        '[project]\nname = "libs-a"\nversion = "1"\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n'),
    "libs/a/src/liba/__init__.py": "",
    "libs/a/src/liba/core.py": "def add(a, b):\n    return a + b\n",
    "libs/a/tests/test_core.py": "from liba.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    "libs/b/pyproject.toml": (
        '[project]\nname = "libs_b"\nversion = "1"\ndependencies = ["libs-a>=1"]\n\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src", "../a/src"]\n'),
    "libs/b/src/libb/__init__.py": "",
    "libs/b/src/libb/calc.py": "from liba.core import add\n\n\ndef double(x):\n    return add(x, x)\n",
    "libs/b/tests/test_calc.py": "from libb.calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n",
    "libs/c/pytest.ini": "[pytest]\ntestpaths = tests\n",
    "libs/c/tests/test_alone.py": "def test_alone():\n    assert True\n",
    "services/api/setup.cfg": "[metadata]\nname = api\n\n[tool:pytest]\npythonpath = . ../../libs/b/src ../../libs/a/src\n",
    "services/api/api/__init__.py": "",
    "services/api/api/handlers.py": "from libb.calc import double\n\n\ndef handle(x):\n    return double(x)\n",
    "services/api/tests/test_handlers.py": "from api.handlers import handle\n\n\ndef test_handle():\n    assert handle(3) == 6\n",
    "tools/tox/tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\naddopts = -q\n",
    "tools/tox/tests/test_tox.py": "def test_tox():\n    assert True\n",
}

PROJECTS = ["libs/a", "libs/b", "libs/c", "services/api", "tools/tox"]


@pytest.fixture
def mono(tmp_path):
    return make_repo(tmp_path, files=FILES)


def by_path(doc):
    return {p["path"]: p for p in doc["projects"]}


def test_projects_lists_every_project_and_where_it_was_found(mono):
    doc = mono.impact("projects", "--format", "json").json
    assert (doc["schema"], doc["version"], doc["monorepo"]) == ("impact.projects", 1, True)
    assert [p["path"] for p in doc["projects"]] == PROJECTS
    assert [p["config"] for p in doc["projects"]] == [
        "libs/a/pyproject.toml", "libs/b/pyproject.toml", "libs/c/pytest.ini", "services/api/setup.cfg",
        "tools/tox/tox.ini"]
    assert {p["found_by"] for p in doc["projects"]} == {"discovered"}
    text = mono.impact("projects")
    assert text.returncode == 0, text.stderr
    assert "5 of 5 project(s)" in text.stdout
    assert "services/api  services/api/setup.cfg" in text.stdout


def test_projects_says_when_the_root_configures_pytest(tmp_path):
    repo = make_repo(tmp_path, files={"pytest.ini": "[pytest]\n", "sub/pytest.ini": "[pytest]\n"})
    doc = repo.impact("projects", "--format", "json").json
    assert doc["monorepo"] is False and doc["root_config"] == "pytest.ini" and doc["projects"] == []
    assert "not a monorepo: pytest.ini configures pytest" in repo.impact("projects").stdout


# A library that keeps its tests at the root, with no pytest configuration there, and a benchmarks
# folder whose pytest.ini collects bench_*.py (python-pathspec's layout): `pytest` at the root runs
# tests/, so the root is a project. Before, benchmarks/ was taken for the only project of a monorepo,
# and a change in pkg/ ran the benchmarks and never tests/test_calc.py.
ROOT_TESTS = {
    "pyproject.toml": '[project]\nname = "calc"\nversion = "1"\n',
    "calc/__init__.py": "",
    "calc/ops.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    "tests/test_other.py": "def test_other():\n    assert True\n",
    "benchmarks/pytest.ini": "[pytest]\npython_files = bench_*.py\npython_functions = bench_*\n",
    "benchmarks/bench_ops.py": "from calc.ops import add\n\n\ndef bench_add():\n    assert add(1, 1) == 2\n",
}


def test_tests_at_the_root_outside_every_project_make_the_root_one_project(tmp_path):
    repo = make_repo(tmp_path, files=ROOT_TESTS)
    doc = repo.impact("projects", "--format", "json").json
    assert doc["monorepo"] is False and doc["projects"] == [] and doc["root_test"] == "tests/test_calc.py"
    assert "tests/test_calc.py, a test file outside every project folder" in repo.impact("projects").stdout
    repo.replace("calc/ops.py", "return a + b", "return a - b")
    decision = repo.decide("--changed")
    assert decision["decision"] == "selected", decision
    assert selected_ids(decision) == ["tests/test_calc.py::test_add"]
    run = repo.impact("--changed", "--pytest-command", PYTEST)
    assert run.returncode == 1 and "tests/test_calc.py::test_add" in run.stdout, run.stdout + run.stderr
    # A projects list in [tool.impact] keeps monorepo mode: the user said where the projects are.
    repo.write("pyproject.toml", '[project]\nname = "calc"\nversion = "1"\n\n[tool.impact]\nprojects = ["benchmarks"]\n')
    pinned = repo.impact("projects", "--format", "json").json
    assert pinned["monorepo"] is True and [p["path"] for p in pinned["projects"]] == ["benchmarks"]


def test_projects_globs_pin_the_set(mono):
    mono.write("pyproject.toml", '[tool.impact]\nprojects = ["libs/*", "nowhere/*"]\n')
    run = mono.impact("projects", "--format", "json")
    assert [p["path"] for p in run.json["projects"]] == ["libs/a", "libs/b", "libs/c"]
    assert {p["found_by"] for p in run.json["projects"]} == {"projects in pyproject.toml"}
    assert "projects glob 'nowhere/*'" in run.stderr


def test_project_flag_and_C_restrict_one_run(mono):
    doc = mono.impact("projects", "--project", "libs/c", "--project", "tools/tox", "--format", "json").json
    assert [(p["path"], p["found_by"]) for p in doc["projects"]] == [("libs/c", "--project"), ("tools/tox", "--project")]
    doc = mono.impact("projects", "-C", "libs/b/src", "--format", "json").json
    assert [(p["path"], p["found_by"]) for p in doc["projects"]] == [("libs/b", "-C")]
    doc = mono.impact("projects", "--format", "json", cwd=mono.path / "libs").json
    assert [p["path"] for p in doc["projects"]] == ["libs/a", "libs/b", "libs/c"]
    bad = mono.impact("projects", "--project", "libs")
    assert bad.returncode == 2 and "--project libs: not a project" in bad.stderr


def test_a_change_runs_its_project_selection_and_its_dependents_whole(mono):
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    run = mono.impact("--dry-run", "--format", "json")
    assert run.returncode == 0, run.stderr
    doc = run.json
    assert (doc["schema"], doc["version"]) == ("impact.monorepo", 1)
    projects = by_path(doc)
    assert (projects["libs/a"]["run"], projects["libs/a"]["why"]) == ("selection", "changed")
    assert projects["libs/a"]["selected"] == ["libs/a/tests/test_core.py::test_add"]
    assert projects["libs/a"]["decision"]["selected"][0]["node_id"] == "tests/test_core.py::test_add"
    assert projects["libs/a"]["argv"][-1] == "tests/test_core.py::test_add"
    assert (projects["libs/b"]["run"], projects["libs/b"]["why"]) == ("all", "depends_on_changed")
    assert "declares libs-a" in projects["libs/b"]["detail"]
    # services/api imports libb without declaring it: seen in imports, said, and run whole
    assert (projects["services/api"]["run"], projects["services/api"]["why"]) == ("all", "depends_on_changed")
    assert "services/api -> libs/b -> libs/a" in projects["services/api"]["detail"]
    assert any("services/api imports libs/b but does not declare it" in w for w in doc["warnings"])
    assert "services/api imports libs/b but does not declare it" in run.stderr
    for skipped in ("libs/c", "tools/tox"):
        assert (projects[skipped]["run"], projects[skipped]["why"]) == ("none", "unchanged")
        assert projects[skipped]["argv"] is None


def test_a_comment_in_a_library_reaches_no_dependent(mono):
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return a + b  # sum")
    projects = by_path(mono.impact("--dry-run", "--format", "json").json)
    assert {p: projects[p]["run"] for p in PROJECTS} == {p: "none" for p in PROJECTS}
    assert projects["libs/a"]["why"] == "changed"


def test_a_change_outside_every_project(mono):
    mono.replace("README.md", "a monorepo", "our monorepo")
    doc = mono.impact("--dry-run", "--format", "json").json
    assert doc["outside"] == ["README.md"] and doc["outside_effect"].startswith("cannot affect a test")
    assert {p["run"] for p in doc["projects"]} == {"none"}
    mono.write("scripts/release.py", "print('release')\n")
    doc = mono.impact("--dry-run", "--format", "json").json
    assert doc["decision"] == "run_all"
    assert {(p["run"], p["why"]) for p in doc["projects"]} == {("all", "outside_change")}
    assert "scripts/release.py" in doc["outside_effect"]


def test_dry_run_text_names_every_project(mono):
    mono.replace("libs/c/tests/test_alone.py", "assert True", "assert 1")
    run = mono.impact("--dry-run")
    assert run.returncode == 0, run.stderr
    assert "libs/c: selection (1 test(s)) [changed]" in run.stdout
    assert "libs/c/tests/test_alone.py::test_alone" in run.stdout
    assert "libs/a: skipped [unchanged]" in run.stdout
    assert "argv (in libs/c):" in run.stdout


def test_each_project_runs_as_its_own_pytest_and_the_codes_merge(mono):
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    run = mono.impact("--pytest-command", PYTEST, "--jobs-projects", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    for project in ("libs/a", "libs/b", "services/api"):
        assert f"==== {project} (" in run.stdout
    assert "libs/c" not in run.stdout
    assert "3 project(s) ran (3 passed, 0 failed, 0 interrupted), 2 skipped" in run.stderr
    # a failure in one project: the merged exit is 1, and the others still ran
    mono.replace("services/api/api/handlers.py", "return double(x)", "return double(x) + 1")
    run = mono.impact("--pytest-command", PYTEST)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "==== services/api (all depends_on_changed): failed" in run.stdout
    assert "==== libs/b (all depends_on_changed): passed" in run.stdout


def test_one_project_to_run_is_execd_as_today(mono):
    mono.replace("libs/c/tests/test_alone.py", "assert True", "assert False")
    run = mono.impact("--pytest-command", PYTEST)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "==== libs/c (" not in run.stdout  # pytest's own output, no header of impact's
    assert "1 failed" in run.stdout
    run = mono.impact("--pytest-command", PYTEST, "-C", "libs/c")
    assert run.returncode == 1 and "tests/test_alone.py::test_alone" in run.stdout


# Each project's conftest counts the pytest sessions running at once in one file shared by all of
# them (under a lock), and keeps the highest count: the children themselves say how many ran together.
COUNTER_CONFTEST = '''
import fcntl, os, time

COUNTER = os.environ["IMPACT_TEST_COUNTER"]


def _bump(delta):
    with open(COUNTER, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        now, high = (int(x) for x in (f.read().split() or ["0", "0"]))
        now += delta
        high = max(high, now)
        f.seek(0)
        f.truncate()
        f.write(f"{now} {high}")


def pytest_sessionstart(session):
    _bump(1)
    time.sleep(0.6)  # long enough for the others allowed to start meanwhile


def pytest_sessionfinish(session, exitstatus):
    _bump(-1)
'''


def generated(tmp_path, count):
    files = {"README.md": "generated\n"}
    for i in range(count):
        files[f"projects/p{i}/pytest.ini"] = "[pytest]\n"
        files[f"projects/p{i}/conftest.py"] = COUNTER_CONFTEST
        files[f"projects/p{i}/tests/test_p.py"] = f"def test_p():\n    assert {i} == {i}\n"
    return make_repo(tmp_path, files=files)


@pytest.mark.parametrize("jobs,expect", [(1, {1}), (3, {2, 3})])
def test_at_most_jobs_projects_pytest_children_run_at_once(tmp_path, jobs, expect):
    repo = generated(tmp_path, 6)
    for i in range(6):  # every project changed: each runs its selection
        repo.replace(f"projects/p{i}/tests/test_p.py", f"== {i}", f"== {i} + 0")
    counter = tmp_path / "counter"
    run = repo.impact("--pytest-command", PYTEST, "--jobs-projects", str(jobs),
                      env={"IMPACT_TEST_COUNTER": str(counter)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "6 project(s) ran (6 passed" in run.stderr
    now, high = (int(x) for x in counter.read_text().split())
    assert now == 0 and high in expect


def test_a_uv_workspace(tmp_path):
    repo = make_repo(tmp_path, files={
        "pyproject.toml": '[project]\nname = "root"\nversion = "0"\n\n[tool.uv.workspace]\nmembers = ["packages/*"]\n',
        "packages/core/pyproject.toml": (
            '[project]\nname = "core"\nversion = "1"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n'),
        "packages/core/src/core/__init__.py": "VALUE = 1\n",
        "packages/core/tests/test_core.py": "from core import VALUE\n\n\ndef test_value():\n    assert VALUE == 1\n",
        "packages/app/pyproject.toml": (
            '[project]\nname = "app"\nversion = "1"\ndependencies = ["core"]\n\n'
            '[tool.uv.sources]\ncore = { workspace = true }\n\n'
            '[tool.pytest.ini_options]\npythonpath = ["src", "../core/src"]\n'),
        "packages/app/src/app/__init__.py": "from core import VALUE\n\nDOUBLE = VALUE * 2\n",
        "packages/app/tests/test_app.py": "from app import DOUBLE\n\n\ndef test_double():\n    assert DOUBLE == 2\n",
        "packages/docs/pyproject.toml": '[project]\nname = "docs"\nversion = "1"\n\n[tool.pytest.ini_options]\n',
        "packages/docs/tests/test_docs.py": "def test_docs():\n    assert True\n",
    })
    assert [p["path"] for p in repo.impact("projects", "--format", "json").json["projects"]] == [
        "packages/app", "packages/core", "packages/docs"]
    repo.replace("packages/core/src/core/__init__.py", "VALUE = 1", "VALUE = 1 * 1")
    projects = by_path(repo.impact("--dry-run", "--format", "json").json)
    assert {p: (v["run"], v["why"]) for p, v in projects.items()} == {
        "packages/app": ("all", "depends_on_changed"),
        "packages/core": ("selection", "changed"),
        "packages/docs": ("none", "unchanged")}
    run = repo.impact("--pytest-command", PYTEST)
    assert run.returncode == 0, run.stdout + run.stderr
    # the workspace root's pyproject.toml configures every member's environment: everything runs
    repo.git("checkout", "--", ".")
    repo.replace("pyproject.toml", 'version = "0"', 'version = "0"\nrequires-python = ">=3.9"')
    doc = repo.impact("--dry-run", "--format", "json").json
    assert doc["outside"] == ["pyproject.toml"]
    assert {(p["run"], p["why"]) for p in doc["projects"]} == {("all", "outside_change")}


def test_libs_and_services(tmp_path):
    files = {}
    for lib in ("auth", "db"):
        files[f"libs/{lib}/pyproject.toml"] = (
            f'[project]\nname = "acme-{lib}"\nversion = "1"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n')
        files[f"libs/{lib}/src/acme_{lib}/__init__.py"] = "def ok():\n    return True\n"
        files[f"libs/{lib}/tests/test_{lib}.py"] = f"from acme_{lib} import ok\n\n\ndef test_ok():\n    assert ok()\n"
    for svc, deps in (("web", ["acme-auth", "acme-db"]), ("worker", ["acme-db"]), ("cron", [])):
        files[f"services/{svc}/pyproject.toml"] = (
            f'[project]\nname = "{svc}"\nversion = "1"\ndependencies = {json.dumps(deps)}\n\n'
            '[tool.pytest.ini_options]\npythonpath = [".", "../../libs/auth/src", "../../libs/db/src"]\n')
        files[f"services/{svc}/tests/test_{svc}.py"] = "def test_up():\n    assert True\n"
    repo = make_repo(tmp_path, files=files)
    repo.replace("libs/db/src/acme_db/__init__.py", "return True", "return 1 == 1")
    projects = by_path(repo.impact("--dry-run", "--format", "json").json)
    assert {p: v["run"] for p, v in projects.items()} == {
        "libs/auth": "none", "libs/db": "selection", "services/cron": "none", "services/web": "all",
        "services/worker": "all"}
    doc = repo.impact("--project", "services/cron", "--project", "services/web", "--dry-run", "--format", "json").json
    assert [(p["path"], p["run"]) for p in doc["projects"]] == [("services/cron", "none"), ("services/web", "all")]


def test_junitxml_is_written_per_project_with_its_slug(mono, tmp_path):
    import xml.etree.ElementTree as ET
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    run = mono.impact("--pytest-command", PYTEST, "--junitxml", "reports/junit.xml")
    assert run.returncode == 0, run.stdout + run.stderr
    written = sorted(p.name for p in (mono.path / "reports").iterdir())
    assert written == ["junit.libs-a.xml", "junit.libs-b.xml", "junit.services-api.xml"]  # skipped: none
    suite = ET.parse(mono.path / "reports" / "junit.libs-a.xml").getroot().find("testsuite")
    assert suite.get("tests") == "1" and suite.get("failures") == "0"
    one = make_repo(tmp_path / "one", files={"pytest.ini": "[pytest]\n", "test_x.py": "def test_x():\n    pass\n"})
    refused = one.impact("--junitxml", "junit.xml")
    assert refused.returncode == 2 and "impact -- --junitxml=junit.xml" in refused.stderr


def test_each_project_finds_its_own_pytest(tmp_path):
    """libs/v has its own virtualenv (found first, from its folder); libs/w names its pytest-command in
    its own [tool.impact]; neither the root nor the other project's setting reaches them."""
    import os
    repo = make_repo(tmp_path, files={
        ".gitignore": "__pycache__/\n.impact_cache/\n.venv/\n",
        "libs/v/pytest.ini": "[pytest]\n",
        "libs/v/tests/test_v.py": "def test_v():\n    assert 1\n",
        "libs/w/pyproject.toml": (
            '[tool.pytest.ini_options]\n\n[tool.impact]\n'
            'pytest-command = ["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider"]\n'),
        "libs/w/tests/test_w.py": "def test_w():\n    assert 1\n",
    })
    venv = repo.path / "libs/v/.venv/bin"
    venv.mkdir(parents=True)
    (repo.path / "libs/v/.venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "pytest").write_text("#!/bin/sh\nexit 3\n")
    (venv / "python").write_text('#!/bin/sh\necho "the virtualenv of libs/v runs"\nexec /usr/bin/python3 "$@"\n')
    for tool in ("pytest", "python"):
        os.chmod(venv / tool, 0o755)
    repo.replace("libs/v/tests/test_v.py", "assert 1", "assert 2")
    repo.replace("libs/w/tests/test_w.py", "assert 1", "assert 2")
    projects = by_path(repo.impact("--dry-run", "--format", "json").json)
    assert projects["libs/v"]["argv"][:3] == [str(venv / "python"), "-m", "pytest"]
    assert projects["libs/v"]["decision"]["command"]["source"] == "the project's virtualenv .venv/"
    assert projects["libs/w"]["argv"][:2] == ["/usr/bin/python3", "-m"]
    run = repo.impact("--", "-p", "no:cacheprovider")
    assert run.returncode == 0, run.stdout + run.stderr
    block_v = run.stdout[run.stdout.index("==== libs/v"):]
    assert "the virtualenv of libs/v runs" in block_v.split("==== libs/w")[0]


def test_the_longest_project_starts_first_and_each_whole_run_is_timed(tmp_path):
    repo = generated(tmp_path, 4)
    repo.write("scripts/tool.py", "print('a shared script')\n")  # outside every project: all run whole
    cache = repo.path / ".impact_cache"
    cache.mkdir()
    (cache / "project-times.json").write_text(json.dumps(
        {"schema": "impact.project-times", "version": 1,
         "seconds": {"projects/p0": 1, "projects/p1": 2, "projects/p2": 4, "projects/p3": 3}}))
    run = repo.impact("--pytest-command", PYTEST, "--jobs-projects", "1",
                      env={"IMPACT_TEST_COUNTER": str(tmp_path / "counter")})
    assert run.returncode == 0, run.stdout + run.stderr
    order = [line.split()[1] for line in run.stdout.splitlines() if line.startswith("==== ")]
    assert order == ["projects/p2", "projects/p3", "projects/p1", "projects/p0"]
    times = json.loads((cache / "project-times.json").read_text())["seconds"]
    assert sorted(times) == ["projects/p0", "projects/p1", "projects/p2", "projects/p3"]
    assert all(0 < t < 60 for t in times.values())


def forty(tmp_path):
    """40 projects: p01 declares p00, p02 declares p01, p03 imports pkg00 without declaring it, p04
    runs its own pytest command (a wrapper in the project, as a virtualenv's would be), p05 declares
    p00 and has a failing test; the other 34 depend on nothing."""
    files = {"README.md": "forty\n"}
    deps = {1: [0], 2: [1], 3: [], 4: [0], 5: [0]}
    paths = {3: [0]}
    for i in range(40):
        d = f"projects/p{i:02}"
        declared = [f"p{j:02}" for j in deps.get(i, [])]
        roots = ["src"] + [f"../p{j:02}/src" for j in deps.get(i, []) + paths.get(i, [])]
        impact = ""
        if i == 4:
            impact = '\n[tool.impact]\npytest-command = ["bin/pytest"]\n'
            files[f"{d}/bin/pytest"] = ('#!/bin/sh\necho "p04 ran its own pytest"\n'
                                        'exec /usr/bin/python3 -m pytest -p no:cacheprovider "$@"\n')
        files[f"{d}/pyproject.toml"] = (
            f'[project]\nname = "p{i:02}"\nversion = "1"\ndependencies = {json.dumps(declared)}\n\n'
            f'[tool.pytest.ini_options]\npythonpath = {json.dumps(roots)}\n{impact}')
        files[f"{d}/conftest.py"] = COUNTER_CONFTEST
        files[f"{d}/src/pkg{i:02}/__init__.py"] = f"def value():\n    return {i}\n"
        body = f"from pkg{i:02} import value\n"
        for j in deps.get(i, []) + paths.get(i, []):
            body += f"from pkg{j:02} import value as value_{j:02}\n"
        body += f"\n\ndef test_value():\n    assert value() == {i}\n"
        if i == 5:
            body += "\n\ndef test_broken():\n    assert value_00() == 1\n"
        files[f"{d}/tests/test_p{i:02}.py"] = body
    repo = make_repo(tmp_path, files=files)
    import os
    os.chmod(repo.path / "projects/p04/bin/pytest", 0o755)
    return repo


def test_a_generated_monorepo_of_forty_projects(tmp_path):
    import time
    import xml.etree.ElementTree as ET
    repo = forty(tmp_path)
    assert len(repo.impact("projects", "--format", "json").json["projects"]) == 40
    repo.replace("projects/p00/src/pkg00/__init__.py", "return 0", "return 0 * 1")
    started = time.monotonic()
    doc = repo.impact("--dry-run", "--format", "json").json
    decided_in = time.monotonic() - started
    runs = {p["path"].split("/")[1]: (p["run"], p["why"]) for p in doc["projects"]}
    assert runs.pop("p00") == ("selection", "changed")
    for dependent in ("p01", "p02", "p03", "p04", "p05"):
        assert runs.pop(dependent) == ("all", "depends_on_changed"), dependent
    assert set(runs.values()) == {("none", "unchanged")} and len(runs) == 34
    assert any("projects/p03 imports projects/p00 but does not declare it" in w for w in doc["warnings"])
    assert decided_in < 60
    counter = tmp_path / "counter"
    # no --pytest-command (it would win over p04's own): the others run pytest on PATH
    run = repo.impact("--jobs-projects", "2", "--junitxml", "junit/junit.xml", "--", "-p", "no:cacheprovider",
                      env={"IMPACT_TEST_COUNTER": str(counter)})
    assert run.returncode == 1, run.stdout + run.stderr  # p05's failure
    assert "6 project(s) ran (5 passed, 1 failed, 0 interrupted), 34 skipped" in run.stderr
    assert "p04 ran its own pytest" in run.stdout.split("==== projects/p04")[1].split("\n==== ")[0]
    now, high = (int(x) for x in counter.read_text().split())
    assert now == 0 and high == 2  # never more than --jobs-projects, and more than one when allowed
    junit = sorted(p.name for p in (repo.path / "junit").iterdir())
    assert junit == [f"junit.projects-p{i:02}.xml" for i in range(6)]
    for name in junit:
        ET.parse(repo.path / "junit" / name)  # valid XML
    failing = ET.parse(repo.path / "junit" / "junit.projects-p05.xml").getroot().find("testsuite")
    assert failing.get("failures") == "1"


def test_project_timeout_stops_a_hung_project_which_counts_as_interrupted(mono):
    mono.replace("libs/c/tests/test_alone.py", "assert True", "import time\n    time.sleep(60)")
    mono.replace("tools/tox/tests/test_tox.py", "assert True", "assert 1")
    run = mono.impact("--pytest-command", PYTEST, "--project-timeout", "8", timeout=90)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "==== libs/c (selection changed): timed out in" in run.stdout
    assert "==== tools/tox (selection changed): passed" in run.stdout
    assert "2 project(s) ran (1 passed, 0 failed, 1 interrupted)" in run.stderr


def test_changed_strict_in_a_monorepo(mono):
    # A comment runs nothing anywhere: 0, or 5 under --changed-strict (a gate must not read it as a pass).
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return a + b  # sum")
    assert mono.impact("--pytest-command", PYTEST).returncode == 0
    strict = mono.impact("--changed-strict", "--pytest-command", PYTEST)
    assert strict.returncode == 5, strict.stdout + strict.stderr
    assert "--changed-strict: nothing ran; exit 5" in strict.stderr
    # A module of libs/c that no test of libs/c loads: libs/c runs whole under --changed-strict only.
    mono.write("libs/c/src/libc/extra.py", "X = 1\n")
    plain = by_path(mono.impact("--dry-run", "--format", "json").json)
    assert plain["libs/c"]["run"] == "none"
    strict = by_path(mono.impact("--changed-strict", "--dry-run", "--format", "json").json)
    assert strict["libs/c"]["run"] == "all"
    assert strict["libs/c"]["decision"]["reason"] == "unconnected_change"


def test_ctrl_c_stops_every_project_and_still_reports_what_finished(mono, tmp_path):
    import os
    import signal
    import subprocess
    import threading
    import time

    from harness import IMPACT, clean_env
    started = tmp_path / "hang-started"
    mono.replace("libs/c/tests/test_alone.py", "assert True",
                 f"open({str(started)!r}, 'w').close()\n    import time\n    time.sleep(120)")
    mono.replace("tools/tox/tests/test_tox.py", "assert True", "assert 1")
    proc = subprocess.Popen([IMPACT, "--pytest-command", PYTEST, "--jobs-projects", "2"], cwd=str(mono.path),
                            env=clean_env(mono.env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, tox_done = [], threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("==== tools/tox"):
                tox_done.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # Interrupt once the quick project has been reported and the other one hangs in its test.
    assert tox_done.wait(120), "".join(lines)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not started.exists():
        time.sleep(0.1)
    assert started.exists(), "the hanging test never started"
    os.kill(proc.pid, signal.SIGINT)
    proc.wait(timeout=30)
    reader.join(timeout=10)
    out, err = "".join(lines), proc.stderr.read()
    assert proc.returncode == 2, out + err
    assert "==== tools/tox (selection changed): passed" in out
    assert "==== libs/c (selection changed): interrupted in" in out
    assert "2 project(s) ran (1 passed, 0 failed, 1 interrupted)" in err


def test_output_github_annotates_each_project_with_root_relative_paths(mono):
    mono.write("libs/c/data/table.bin", "x\n")  # a data file no code reads: libs/c runs whole
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    run = mono.impact("--output", "github", "--pytest-command", PYTEST)
    notices = [line for line in run.stdout.splitlines() if line.startswith("::")]
    assert any(line.startswith("::notice title=impact (libs/a)%3A selected tests::") for line in notices), notices
    assert any(line.startswith("::notice file=libs/c/data/table.bin,title=impact (libs/c)%3A full suite::")
               for line in notices), notices
    assert "not written in monorepo mode" not in run.stderr


def test_report_json_merges_every_project_and_test(mono, tmp_path):
    mono.replace("libs/a/tests/test_core.py", "assert add(1, 2) == 3", "assert add(1, 2) == 4")  # fails
    mono.replace("tools/tox/tests/test_tox.py", "assert True", "assert 1")
    report = tmp_path / "out" / "report.json"
    run = mono.impact("--pytest-command", PYTEST, "--report-json", str(report))
    assert run.returncode == 1, run.stdout + run.stderr
    doc = json.loads(report.read_text())
    assert doc["schema"] == "impact.monorepo-report" and doc["version"] == 1 and doc["exit_code"] == 1
    projects = {p["path"]: p for p in doc["projects"]}
    assert projects["libs/a"]["status"] == "ran" and projects["libs/a"]["exit_code"] == 1
    assert projects["libs/a"]["counts"] == {"passed": 0, "failed": 1, "error": 0, "skipped": 0}
    assert projects["tools/tox"]["counts"]["passed"] == 1
    assert projects["libs/c"]["status"] == "skipped" and "exit_code" not in projects["libs/c"]
    assert doc["tests"]["libs/a/tests/test_core.py::test_add"]["outcome"] == "failed"
    assert doc["tests"]["tools/tox/tests/test_tox.py::test_tox"] == {
        "outcome": "passed", "seconds": doc["tests"]["tools/tox/tests/test_tox.py::test_tox"]["seconds"],
        "project": "tools/tox"}
    # One project to run still writes the report (it is run, not exec'd), and nothing to run too.
    mono.git("checkout", "-q", "--", ".")
    mono.replace("tools/tox/tests/test_tox.py", "assert True", "assert 1")
    assert mono.impact("--pytest-command", PYTEST, "--report-json", str(report)).returncode == 0
    assert json.loads(report.read_text())["tests"] == {"tools/tox/tests/test_tox.py::test_tox": {
        "outcome": "passed", "seconds": json.loads(report.read_text())["tests"]["tools/tox/tests/test_tox.py::test_tox"]["seconds"],
        "project": "tools/tox"}}
    mono.git("checkout", "-q", "--", ".")
    assert mono.impact("--pytest-command", PYTEST, "--report-json", str(report)).returncode == 0
    assert {p["status"] for p in json.loads(report.read_text())["projects"]} == {"skipped"}


def test_report_json_in_one_project_is_an_error(tmp_path):
    one = make_repo(tmp_path / "one", files={"pytest.ini": "[pytest]\n", "test_x.py": "def test_x():\n    pass\n"})
    run = one.impact("--report-json", "r.json")
    assert run.returncode == 2 and "impact -- --junitxml=report.xml" in run.stderr
