"""pytest's arguments, read from every place pytest reads them, against real pytest.

A test in tests/check_c.py is collected only when `-o python_files=check_*.py` says so: the ini file
does not. Whether the override comes from PYTEST_ADDOPTS, the arguments after `--` or the configured
pytest-command, the broken test must be run (docs/configuration.md, "pytest's own configuration and
arguments"). The index reads its node ids relative to the rootdir the arguments set.
"""
import json
import sqlite3

import pytest

from harness import make_repo, selected_ids

PYTEST = json.dumps(["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider"])

FILES = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/calc/__init__.py": "",
    "src/calc/ops.py": "def double(n):\n    return n * 2\n",
    "src/calc/other.py": "def triple(n):\n    return n * 3\n",
    "tests/test_other.py": "from calc.other import triple\n\n\ndef test_triple():\n    assert triple(2) == 6\n",
    "tests/check_c.py": "from calc.ops import double\n\n\ndef test_double():\n    assert double(2) == 4\n",
}


@pytest.fixture
def broken(tmp_path):
    repo = make_repo(tmp_path, files=FILES)
    repo.replace("src/calc/ops.py", "n * 2", "n * 3")  # tests/check_c.py::test_double now fails
    return repo


@pytest.mark.parametrize("where", ["PYTEST_ADDOPTS", "after --", "pytest-command"])
def test_an_override_of_python_files_runs_the_broken_check_module(broken, where):
    override = ["-o", "python_files=check_*.py test_*.py"]
    env, args, command = {}, [], json.loads(PYTEST)
    if where == "PYTEST_ADDOPTS":
        env["PYTEST_ADDOPTS"] = "-o 'python_files=check_*.py test_*.py'"
    elif where == "after --":
        args = ["--", *override]
    else:
        command += override
    # Real pytest agrees that the override makes check_c.py a test module that fails.
    full = broken.pytest(*override)
    assert full.returncode == 1 and "check_c.py" in full.stdout, full.stdout
    run = broken.impact("--pytest-command", json.dumps(command), *args, env=env)
    assert run.returncode == 1, run.stderr + run.stdout
    assert "tests/check_c.py::test_double FAILED" in run.stdout or "1 failed" in run.stdout, run.stdout


def test_the_selection_names_the_check_module(broken):
    decision = broken.decide("--", "-o", "python_files=check_*.py")
    assert selected_ids(decision) == ["tests/check_c.py::test_double"]


def test_an_override_without_equals_stops_like_pytest(broken):
    run = broken.impact("--dry-run", env={"PYTEST_ADDOPTS": "-o python_files"})
    assert run.returncode == 2
    assert "-o/--override-ini expects option=value, got 'python_files'" in run.stderr


def test_index_reads_node_ids_relative_to_the_rootdir_the_arguments_set(tmp_path):
    files = dict(FILES)
    del files["tests/check_c.py"]
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index", "--", "-p", "no:cacheprovider", "--rootdir=tests", "tests/test_other.py")
    assert run.returncode == 0, run.stderr + run.stdout
    db = sqlite3.connect(str(repo.path / ".impact_cache" / "coverage-index.sqlite"))
    node_ids = [row[0] for row in db.execute("SELECT node_id FROM test")]
    db.close()
    assert node_ids == ["tests/test_other.py::test_triple"]
