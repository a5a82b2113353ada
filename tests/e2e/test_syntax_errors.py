"""A change that CPython cannot compile, hidden in a function no test calls (docs/selection.md,
syntax-error): tree-sitter parses it, and without the compile check impact ran nothing while every
test module importing the file failed to collect. Now the importers run, with real pytest, and fail."""
from harness import make_repo

PRINT_STATEMENT = ("src/meter/units.py", "    total = 0\n", "    total = 0\n    print \"scaling\"\n")


def break_units(repo):
    path, old, new = PRINT_STATEMENT
    repo.replace(path, old, new)


def test_a_broken_import_is_run_and_fails(tmp_path):
    repo = make_repo(tmp_path, "syntax")
    break_units(repo)
    full = repo.pytest("-q")
    assert full.returncode != 0 and "SyntaxError" in full.stdout, full.stdout  # what a full run shows
    run = repo.impact()
    assert run.returncode != 0, run.stdout + run.stderr  # pytest ran the importers, and they failed
    assert "tests/test_units.py" in run.stdout and "tests/test_parse.py" in run.stdout, run.stdout
    assert "SyntaxError" in run.stdout, run.stdout


def test_the_dry_run_names_the_file_and_its_first_offending_line(tmp_path):
    repo = make_repo(tmp_path, "syntax")
    break_units(repo)
    run = repo.impact("--dry-run")
    assert run.returncode == 0, run.stderr
    assert "syntax_error" in run.stdout, run.stdout
    assert "new side does not compile, line 11: print statement (Python 2)" in run.stdout, run.stdout


def test_the_json_decision_carries_the_change_kind(tmp_path):
    repo = make_repo(tmp_path, "syntax")
    break_units(repo)
    decision = repo.decide()
    [verdict] = [f for f in decision["changed_files"] if f["path"] == "src/meter/units.py"]
    assert verdict["change"] == "syntax_error", verdict


def test_the_coverage_index_does_not_narrow_a_file_that_does_not_compile(tmp_path):
    repo = make_repo(tmp_path, "syntax")
    built = repo.impact("index")
    assert built.returncode == 0, built.stdout + built.stderr
    break_units(repo)
    decision = repo.decide()
    selected = {t["node_id"].split("::")[0] for t in decision["selected"]}
    assert {"tests/test_parse.py", "tests/test_units.py"} <= selected, decision
    [verdict] = [f for f in decision["changed_files"] if f["path"] == "src/meter/units.py"]
    assert verdict["source"] == "static" and verdict["fallback"] == "syntax_error", verdict


def test_a_module_conftest_imports_that_does_not_compile_runs_everything(tmp_path):
    repo = make_repo(tmp_path, "syntax")
    repo.replace("src/meter/labels.py", "    return name.upper()\n", "    return `name`\n")
    decision = repo.decide()
    assert decision["decision"] == "run_all" and decision["reason"] == "syntax_error", decision
    assert "tests/conftest.py" in decision["detail"] and "src/meter/labels.py" in decision["detail"], decision
