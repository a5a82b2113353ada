"""--output github: the decision as GitHub Actions workflow commands, printed before pytest (or the fallback)
takes over, so the outcome, its reason and counts, the files that forced the full suite and every
uncertainty show on the pull request. With --format json the annotations move to stderr and stdout stays
one JSON document."""
import re
import stat

from gitutil import ALPHA, PROJECT
from harness import selected_ids

ANNOTATION = re.compile(r"^::(notice|warning|error)( [^:]*)?::(.*)$")


def project(repo_factory, extra=None, table=None):
    files = {**PROJECT, **(extra or {})}
    if table is not None:
        files["pyproject.toml"] = PROJECT["pyproject.toml"] + "\n[tool.impact]\n" + table
    repo = repo_factory(files=files, commit=False)
    for rel in extra or {}:
        if rel.startswith("bin/"):
            (repo.path / rel).chmod((repo.path / rel).stat().st_mode | stat.S_IEXEC)
    repo.commit("base")
    return repo


def annotations(text):
    """[(level, {property: value}, message)] of the workflow command lines in `text`, unescaped."""
    out = []
    for line in text.splitlines():
        m = ANNOTATION.match(line)
        if not m:
            continue
        props = {}
        for part in filter(None, (m.group(2) or "").strip().split(",")):
            key, value = part.split("=", 1)
            props[key] = unescape(value)
        out.append((m.group(1), props, unescape(m.group(3))))
    return out


def unescape(text):
    for escaped, raw in (("%0A", "\n"), ("%0D", "\r"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, raw)
    return text


def test_selected_annotation_comes_before_pytest_and_pytest_keeps_the_exit_code(repo_factory):
    repo = project(repo_factory)
    repo.replace("src/pkg/alpha.py", "return 1", "return 2")  # test_alpha now fails
    [node] = selected_ids(repo.decide())
    assert node.startswith(ALPHA[0])
    run = repo.impact("--output", "github")
    assert run.returncode == 1, run.stdout + run.stderr
    first = run.stdout.splitlines()[0]
    assert first.startswith("::notice title=impact%3A selected tests::selected 1 node id(s) in 1 file(s) from 1 "
                            "changed file(s) in ")
    [(level, props, message)] = annotations(run.stdout)
    assert (level, props) == ("notice", {"title": "impact: selected tests"})
    assert "mode balanced" in message and message.endswith("running " + node)
    assert "1 failed" in run.stdout.split(first, 1)[1]  # pytest's output follows the annotation
    assert "impact: selected" in run.stderr  # the usual line is still there


def test_run_all_annotates_the_file_that_forced_it(repo_factory):
    repo = project(repo_factory, extra={"requirements.txt": "requests\n"})
    repo.write("requirements.txt", "requests\nflask\n")
    run = repo.impact("--output", "github", "--dry-run")
    assert run.returncode == 0, run.stderr
    found = annotations(run.stdout)
    decision = repo.decide()
    assert decision["decision"] == "run_all"
    level, props, message = found[0]
    assert (level, props["title"]) == ("notice", "impact: full suite")
    assert f"full suite: {decision['reason']}" in message
    file_notes = [a for a in found if "file" in a[1]]
    assert file_notes == [("notice", {"file": "requirements.txt", "title": "impact: full suite"},
                           f"run_all: {decision['reason']}")]
    assert "decision: run_all" in run.stdout  # the dry run's text follows


def test_nothing_to_run(repo_factory):
    repo = project(repo_factory)
    repo.write("src/pkg/unused.py", "X = 1\n")
    run = repo.impact("--output", "github")
    assert run.returncode == 0
    [(level, props, message)] = annotations(run.stdout)
    assert (level, props["title"]) == ("notice", "impact: nothing to run")
    assert message.startswith("no tests impacted, nothing to run: no_tests_reached")


def test_uncertainties_are_warnings_on_their_line(repo_factory):
    repo = project(repo_factory, extra={
        "src/pkg/loader.py": "import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n",
        "tests/test_loader.py": "from pkg.loader import load\n\n\ndef test_load():\n    assert load('json')\n",
    })
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    decision = repo.decide()
    assert decision["uncertainties"], decision
    run = repo.impact("--output", "github", "--dry-run")
    warnings = [a for a in annotations(run.stdout) if a[0] == "warning"]
    expected = [("warning", {"file": u["path"], "line": str(u["line"]), "title": "impact: uncertain"}, u["what"])
                for u in decision["uncertainties"]]
    assert warnings == expected
    notice = annotations(run.stdout)[0]
    assert f"{len(decision['uncertainties'])} uncertainty(ies)" in notice[2]
    assert all(node in notice[2] for node in selected_ids(decision))


def test_json_stays_clean_on_stdout(repo_factory):
    repo = project(repo_factory)
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    run = repo.impact("--output", "github", "--format", "json")
    assert run.returncode == 0
    assert run.json["decision"] == "selected"  # stdout parses as one document
    assert annotations(run.stdout) == []
    assert annotations(run.stderr)[0][1]["title"] == "impact: selected tests"


def test_properties_and_messages_are_escaped(repo_factory):
    name = "odd:name,100%.txt"
    repo = project(repo_factory, extra={name: "a\n"})
    repo.write(name, "b\n")
    run = repo.impact("--output", "github", "--dry-run")
    raw = [line for line in run.stdout.splitlines() if line.startswith("::notice file=")]
    assert raw == ["::notice file=odd%3Aname%2C100%25.txt,title=impact%3A full suite::run_all: non_python_changed"]
    assert annotations(run.stdout)[1][1]["file"] == name
    first = run.stdout.splitlines()[0]
    assert "100%25.txt" in first and "100%.txt" not in first


def test_fallback_delegation_is_announced(repo_factory, tmp_path):
    repo = project(repo_factory, extra={"bin/fb": "#!/bin/sh\nexit 4\n", "data.txt": "a\n"},
                   table='fallback-command = ["bin/fb"]\n')
    repo.write("data.txt", "b\n")
    run = repo.impact("--output", "github")
    assert run.returncode == 4
    message = annotations(run.stdout)[0][2]
    assert f"delegating to the fallback {repo.path / 'bin/fb'} (from fallback-command in pyproject.toml)" in message


def test_pytest_not_found_is_an_error_annotation(repo_factory, tmp_path):
    repo = project(repo_factory)
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    empty = tmp_path / "empty"
    empty.mkdir()
    run = repo.impact("--output", "github", env={"PATH": str(empty)})
    assert run.returncode == 2
    errors = [a for a in annotations(run.stdout) if a[0] == "error"]
    assert len(errors) == 1 and errors[0][1]["title"] == "impact: cannot run"
    assert errors[0][2].startswith("pytest not found")


def test_crafted_file_names_cannot_emit_workflow_commands(repo_factory, tmp_path):
    # A name holding a line break and a workflow command: printed raw, its second line would be read by
    # GitHub Actions as a command of its own. Every text rendering quotes it the way git does.
    fake = tmp_path / "fake-pytest"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    data = "data\n::error title=pwned::x.txt"
    test = "tests/test_b\n::warning title=pwned::c.py"
    for name, decision in ((test, "selected"), (data, "run_all")):
        repo = project(repo_factory)
        repo.write(name, "def test_b():\n    pass\n")
        assert repo.decide()["decision"] == decision
        outputs = []
        for args in (["--output", "github", "--dry-run"], ["--output", "github"], ["--dry-run"],
                     ["explain", name], ["changes"]):
            run = repo.impact(*args, env={"IMPACT_PYTEST": str(fake)})
            assert run.returncode == 0, (args, run.stderr)
            outputs += [run.stdout, run.stderr]
        for text in outputs:
            assert [a for a in annotations(text) if a[1].get("title") == "pwned"] == [], text
            for line in text.splitlines():
                assert not line.startswith("::") or line.startswith(("::notice ", "::warning title=impact",
                                                                     "::error title=impact")), line
        quoted = '"' + name.replace("\n", "\\n") + '"'
        assert quoted in repo.impact("--dry-run").stdout
