"""--include-failed (docs/selection.md, `include-failed`) with the record a real pytest run writes."""
import subprocess

from harness import clean_env, make_repo, selected_ids

FILES = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "README.md": "a project\n",
    "tests/test_a.py": "def test_ok():\n    assert True\n\n\ndef test_broken():\n    assert 1 == 2\n",
    "tests/test_b.py": "def test_other():\n    assert True\n",
}


def test_the_tests_pytest_failed_last_run_again(tmp_path):
    repo = make_repo(tmp_path, files=FILES)
    # pytest's cache provider records the failure in .pytest_cache (git-ignored).
    subprocess.run(["/usr/bin/python3", "-m", "pytest", "-q"], cwd=repo.path, env=clean_env(), capture_output=True)
    repo.replace("README.md", "a project", "the project")
    assert repo.decide()["decision"] == "nothing"
    doc = repo.decide("--include-failed")
    assert selected_ids(doc) == ["tests/test_a.py::test_broken"]
    assert doc["selected"][0]["chain"][0]["relation"] == "last_failed"
    run = repo.impact("--include-failed")
    assert run.returncode == 1, run.stdout + run.stderr  # it still fails, and runs alone
    assert "1 failed" in run.stdout and "passed" not in run.stdout
    # Fixed and run: pytest forgets the failure, and nothing is added any more.
    repo.replace("tests/test_a.py", "assert 1 == 2", "assert 1 == 1")
    assert repo.impact("--include-failed").returncode == 0
    repo.commit("fixed")
    repo.replace("README.md", "the project", "a project")
    assert repo.decide("--include-failed")["decision"] == "nothing"


def test_a_record_that_is_not_pytests_is_a_warning_and_adds_nothing(tmp_path):
    repo = make_repo(tmp_path, files=FILES)
    repo.write(".pytest_cache/v/cache/lastfailed", "not json")
    repo.replace("README.md", "a project", "the project")
    run = repo.impact("--include-failed", "--dry-run")
    assert run.returncode == 0, run.stderr
    assert "lastfailed: not pytest's lastfailed record" in run.stderr
    assert "decision: nothing" in run.stdout
