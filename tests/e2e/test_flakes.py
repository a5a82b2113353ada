"""Flaky passes (docs/cache.md, "Flakes"): a test that passes only on rerun (pytest-rerunfailures) in a
run impact starts is counted in the cache's flakes.json, and `impact audit` marks a miss whose test is a
known flake. Real git repositories, real pytest with pytest-rerunfailures."""
import json

import pytest

from harness import make_repo

FLAKY = "tests/test_flaky.py::test_fails_once"

# Fails the first time it runs after its marker file is removed, then passes: a flake on demand.
FILES = {
    "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\"src\"]\n",
    "src/calc.py": "def add(a, b):\n    return a + b\n",
    "README.md": "a project\n",
    "tests/test_flaky.py": (
        "import os\n\nfrom calc import add\n\n\n"
        "def test_fails_once():\n"
        "    marker = os.path.join(os.environ['FLAKE_DIR'], 'seen')\n"
        "    if not os.path.exists(marker):\n"
        "        open(marker, 'w').close()\n"
        "        assert False, 'first run'\n"
        "    assert add(1, 2) == 3\n\n\n"
        "def test_steady():\n    assert add(2, 2) == 4\n"
    ),
    "tests/test_marked.py": (
        "import os\n\nimport pytest\n\nfrom calc import add\n\n\n"
        "@pytest.mark.flaky(reruns=2)\n"
        "def test_marked():\n"
        "    marker = os.path.join(os.environ['FLAKE_DIR'], 'marked')\n"
        "    if not os.path.exists(marker):\n"
        "        open(marker, 'w').close()\n"
        "        assert False\n"
        "    assert add(1, 1) == 2\n"
    ),
}


def flakes(repo):
    path = repo.path / ".impact_cache" / "flakes.json"
    return json.loads(path.read_text())["tests"] if path.exists() else {}


@pytest.fixture
def repo(tmp_path):
    flake_dir = tmp_path / "flake"
    flake_dir.mkdir()
    repo = make_repo(tmp_path, files=FILES)
    repo.env = {"FLAKE_DIR": str(flake_dir)}
    repo.flake_dir = flake_dir
    repo.replace("src/calc.py", "return a + b", "return b + a")  # selects every test
    return repo


def test_a_pass_on_rerun_is_counted_once_per_run(repo):
    run = repo.impact("--", "--reruns", "1", "-p", "rerunfailures")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 rerun" in run.stdout
    assert repo.impact("durations").returncode == 0  # merges what the plugin recorded
    record = flakes(repo)
    assert sorted(record) == [FLAKY, "tests/test_marked.py::test_marked"]  # sparse: test_steady is not in it
    assert record[FLAKY]["passes_on_rerun"] == 1
    assert record[FLAKY]["last"].endswith("Z")
    # Passing on the first attempt counts nothing; flaking again adds one.
    assert repo.impact("--", "--reruns", "1").returncode == 0
    (repo.flake_dir / "seen").unlink()
    assert repo.impact("--", "--reruns", "1").returncode == 0
    assert repo.impact("durations").returncode == 0
    record = flakes(repo)
    assert record[FLAKY]["passes_on_rerun"] == 2
    assert record["tests/test_marked.py::test_marked"]["passes_on_rerun"] == 1


def test_a_failure_without_a_rerun_is_no_flake(repo):
    run = repo.impact("--", "-p", "no:rerunfailures", "-p", "no:xdist")
    assert run.returncode == 1, run.stdout + run.stderr
    assert repo.impact("durations").returncode == 0
    assert flakes(repo) == {}


def test_audit_marks_a_miss_that_is_a_known_flake(repo):
    assert repo.impact("--", "--reruns", "1").returncode == 0
    repo.commit("calc")
    (repo.flake_dir / "seen").unlink()
    repo.replace("README.md", "a project", "the project")  # selects nothing: every failure is a miss
    run = repo.impact("audit")
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"MISS {FLAKY} (failed, known flake: passed on rerun 1 time, last " in run.stdout
    (repo.flake_dir / "seen").unlink()
    doc = repo.impact("audit", "--format", "json")
    assert doc.returncode == 1, doc.stderr
    misses = {m["node_id"]: m for m in doc.json["misses"]}
    assert misses[FLAKY]["known_flake"]["passes_on_rerun"] == 1


def test_xdist_runs_count_through_the_controller(repo):
    run = repo.impact("--", "--reruns", "1", "-n", "2", "-p", "xdist")
    assert run.returncode == 0, run.stdout + run.stderr
    assert repo.impact("durations").returncode == 0
    assert flakes(repo)[FLAKY]["passes_on_rerun"] == 1
