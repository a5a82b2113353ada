"""The run order (docs/cache.md, "Run order"): in a run impact starts, the tests pytest's last run failed
run first, then the longest by recorded durations, each test file's tests together; --no-reorder keeps
pytest's collection order. Real git repositories, real pytest (its -v lines show the order)."""
import re

import pytest

from harness import make_repo, recorded_durations

# Collected in this order (file names, then definitions); the sleeps make the recorded durations the
# reverse of it across files: slow 0.6 s > mid 0.3 s > a 0.12 s.
SLEEPS = {"tests/test_a.py": 0.1, "tests/test_mid.py": 0.25, "tests/test_slow.py": 0.5}
COLLECTED = [
    "tests/test_a.py::test_a_one", "tests/test_a.py::test_a_two",
    "tests/test_mid.py::test_mid_one", "tests/test_mid.py::test_mid_two",
    "tests/test_slow.py::test_slow_one", "tests/test_slow.py::test_slow_two",
]
LINE = re.compile(r"^(tests/\S+::\S+) (PASSED|FAILED)", re.M)


def order_repo(tmp_path):
    files = {
        "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\"src\"]\n",
        "src/calc.py": "def add(a, b):\n    return a + b\n",
    }
    for path, sleep in SLEEPS.items():
        name = path.split("/")[1][5:-3]
        # test_*_two sleeps longer than test_*_one: inside a file the longest goes first too.
        files[path] = (
            "import time\n\nfrom calc import add\n\n\n"
            f"def test_{name}_one():\n    time.sleep({sleep / 5})\n    assert add(1, 2) == 3\n\n\n"
            f"def test_{name}_two():\n    time.sleep({sleep})\n    assert add(2, 2) == 4\n"
        )
    repo = make_repo(tmp_path, files=files)
    repo.replace("src/calc.py", "return a + b", "return b + a")  # selects every test
    return repo


def ran(run):
    """The node ids in the order pytest ran them, from its -v lines."""
    return [m.group(1) for m in LINE.finditer(run.stdout)]


@pytest.fixture
def repo(tmp_path):
    repo = order_repo(tmp_path)
    first = repo.impact("--no-reorder", "--", "-v")  # records the durations
    assert first.returncode == 0, first.stdout + first.stderr
    assert ran(first) == COLLECTED
    assert recorded_durations(repo)["tests/test_slow.py::test_slow_two"]["seconds"] >= 0.5
    return repo


def test_last_failures_run_first_then_the_longest(repo):
    repo.replace("tests/test_a.py", "assert add(1, 2) == 3", "assert add(1, 2) == 4")  # test_a_one fails
    failing = repo.impact("--", "-v")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    # No failure recorded yet: longest first, by file and inside each file.
    assert ran(failing) == [
        "tests/test_slow.py::test_slow_two", "tests/test_slow.py::test_slow_one",
        "tests/test_mid.py::test_mid_two", "tests/test_mid.py::test_mid_one",
        "tests/test_a.py::test_a_two", "tests/test_a.py::test_a_one",
    ]
    again = repo.impact("--", "-v")
    assert again.returncode == 1, again.stdout + again.stderr
    # The failure first, then its file's other test (the file's tests stay together), then the
    # longest files.
    assert ran(again) == [
        "tests/test_a.py::test_a_one", "tests/test_a.py::test_a_two",
        "tests/test_slow.py::test_slow_two", "tests/test_slow.py::test_slow_one",
        "tests/test_mid.py::test_mid_two", "tests/test_mid.py::test_mid_one",
    ]
    assert "impact: run order: last failures first (1), then the longest first (6 of 6 test(s)" in again.stdout
    dry = repo.impact("--dry-run")
    assert "order: last failures first, then the longest first (6 of the tests it runs" in dry.stdout


def test_no_reorder_keeps_pytests_collection_order(repo):
    repo.replace("tests/test_slow.py", "assert add(2, 2) == 4", "assert add(2, 2) == 5")
    assert repo.impact("--", "-q").returncode == 1  # the failure is recorded
    kept = repo.impact("--no-reorder", "--", "-v")
    assert kept.returncode == 1, kept.stdout + kept.stderr
    assert ran(kept) == COLLECTED
    assert "impact: run order" not in kept.stdout
    assert "order: pytest's collection order (--no-reorder)" in repo.impact("--dry-run", "--no-reorder").stdout


def test_xdist_workers_collect_the_same_order(repo):
    # Each worker collects and orders; the controller hands them one set of inputs, so that xdist
    # finds the same collection on every worker and runs everything.
    run = repo.impact("--", "-n", "2", "-p", "xdist", "-v")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "6 passed" in run.stdout
    assert "Different tests were collected" not in run.stdout + run.stderr
    assert sorted(re.findall(r"(?:PASSED|FAILED) (tests/\S+)", run.stdout)) == COLLECTED
