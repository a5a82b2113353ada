"""The shared cache end to end (docs/cache.md, "The shared cache"): real git repositories, real pytest,
one remote folder. A job that runs with --cache-push leaves a segment; a fresh clone that runs with
--cache-pull starts with its durations and facts; `impact cache compact` folds segments into a base
while other jobs push, and loses none of them."""
import json
import re
import subprocess
import threading
from pathlib import Path

import pytest

from gitutil import assert_error, clone
from harness import IMPACT, clean_env, make_repo, recorded_durations

TESTS = 8


def suite_repo(tmp_path):
    files = {
        "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\"src\"]\n",
        "src/calc.py": "def add(a, b):\n    return a + b\n",
    }
    for k in range(TESTS):
        files[f"tests/test_k{k}.py"] = f"from calc import add\n\n\ndef test_k{k}():\n    assert add({k}, 1) == {k + 1}\n"
    return make_repo(tmp_path / "origin", files=files)


def change_calc(repo):
    repo.replace("src/calc.py", "return a + b", "return b + a")


def segments(remote):
    return sorted((remote / "segments").glob("*.seg"))


@pytest.fixture
def origin(tmp_path):
    return suite_repo(tmp_path)


def test_a_fresh_clone_that_pulls_starts_with_the_pushed_durations_and_facts(origin, tmp_path):
    remote = tmp_path / "remote"
    job = clone(origin.path, tmp_path / "job")
    change_calc(job)
    run = job.impact("--cache-remote", str(remote), "--cache-push")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{TESTS} passed" in run.stdout
    pushed = re.search(r"pushed segment (\S+) \((\d+) duration\(s\), (\d+) facts", run.stderr)
    assert pushed, run.stderr
    assert int(pushed.group(2)) == TESTS
    assert int(pushed.group(3)) >= TESTS + 1  # every test file and src/calc.py
    assert [p.stem for p in segments(remote)] == [pushed.group(1)]

    fresh = clone(origin.path, tmp_path / "fresh")
    change_calc(fresh)
    cold = fresh.decide("--no-cache")
    assert cold["project"]["parsed"] >= TESTS + 1
    run = fresh.impact("select", "--format", "json", "--cache-remote", str(remote), "--cache-pull")
    assert run.returncode == 0, run.stderr
    assert "pulled 1 segment(s)" in run.stderr
    # Warm: the job parsed the same contents (its src/calc.py has the same change), so nothing is parsed.
    assert run.json["project"]["parsed"] == 0
    assert sorted(recorded_durations(fresh)) == sorted(recorded_durations(job))
    assert recorded_durations(fresh) == recorded_durations(job)


def test_the_remote_can_come_from_the_environment_or_pyproject(origin, tmp_path):
    remote = tmp_path / "remote"
    job = clone(origin.path, tmp_path / "job")
    change_calc(job)
    run = job.impact("--cache-push", env={"IMPACT_CACHE_REMOTE": str(remote)})
    assert run.returncode == 0, run.stderr
    assert len(segments(remote)) == 1
    job.write("pyproject.toml", job.read("pyproject.toml") + f"\n[tool.impact]\ncache-remote = \"../remote\"\n")
    config = job.impact("config", "--format", "json")
    assert config.returncode == 0, config.stderr
    setting = config.json["settings"]["cache-remote"]
    assert setting["source"] == "pyproject.toml"
    assert Path(setting["value"]).resolve() == remote.resolve()  # relative to the repository root
    fresh = clone(origin.path, tmp_path / "fresh")
    fresh.write("pyproject.toml", job.read("pyproject.toml"))
    run = fresh.impact("select", "--cache-pull")
    assert run.returncode == 0, run.stderr
    assert len(recorded_durations(fresh)) == TESTS


def test_cache_flags_need_a_remote_and_a_cache(origin):
    assert_error(origin.impact("--cache-pull"), "--cache-pull", "--cache-remote", "IMPACT_CACHE_REMOTE")
    assert_error(origin.impact("cache", "compact"), "compact", "--cache-remote")
    assert_error(origin.impact("--cache-push", "--no-cache", "--cache-remote", "r"), "--no-cache")
    assert_error(origin.impact("changes", "--cache-pull", "--cache-remote", "r"), "--cache-pull")


def test_a_torn_segment_is_skipped_with_one_warning(origin, tmp_path):
    remote = tmp_path / "remote"
    job = clone(origin.path, tmp_path / "job")
    change_calc(job)
    assert job.impact("--cache-remote", str(remote), "--cache-push").returncode == 0
    (good,) = segments(remote)
    torn = remote / "segments" / "20260101T000000Z-00000000000000ff.seg"
    torn.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    fresh = clone(origin.path, tmp_path / "fresh")
    run = fresh.impact("select", "--cache-remote", str(remote), "--cache-pull")
    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and torn.name in warnings[0] and "torn" in warnings[0], run.stderr
    assert len(recorded_durations(fresh)) == TESTS  # the good segment was read


def test_eight_concurrent_pushes_and_a_compaction_lose_no_segment(origin, tmp_path):
    remote = tmp_path / "remote"
    jobs = []
    for k in range(TESTS):
        job = clone(origin.path, tmp_path / f"job{k}")
        change_calc(job)
        jobs.append(job)
    compactions = []
    done = threading.Event()

    def compact_until_done():
        while True:
            last = done.is_set()
            run = subprocess.run([IMPACT, "cache", "compact", "--cache-remote", str(remote)], cwd=origin.path,
                                 capture_output=True, text=True, env=clean_env())
            compactions.append(run)
            if last:
                return

    compactor = threading.Thread(target=compact_until_done)
    compactor.start()
    # Eight processes at once, each running one test, so that each pushes a segment of its own.
    procs = [subprocess.Popen([IMPACT, "--cache-remote", str(remote), "--cache-push", "--", "-k", f"test_k{k}"],
                              cwd=job.path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=clean_env()) for k, job in enumerate(jobs)]
    outputs = [p.communicate(timeout=300) for p in procs]
    done.set()
    compactor.join(timeout=300)
    ids = set()
    for p, (out, err) in zip(procs, outputs):
        assert p.returncode == 0, out + err
        pushed = re.search(r"pushed segment (\S+) \((\d+) duration", err)
        assert pushed and pushed.group(2) == "1", err
        ids.add(pushed.group(1))
    assert len(ids) == TESTS
    assert len(compactions) >= 2
    for run in compactions:
        assert run.returncode == 0, run.stderr  # one compactor: never refused its own lock
    absorbed = sum(int(re.search(r"compacted (\d+) segment", r.stderr).group(1)) for r in compactions)
    assert absorbed == TESTS  # the last compaction ran after every push: each segment was absorbed once
    assert segments(remote) == []
    # Every job's test is in the base: a fresh clone's pull gives all eight durations.
    fresh = clone(origin.path, tmp_path / "fresh")
    run = fresh.impact("select", "--cache-remote", str(remote), "--cache-pull")
    assert run.returncode == 0, run.stderr
    got = recorded_durations(fresh)
    for k, job in enumerate(jobs):
        test = f"tests/test_k{k}.py::test_k{k}"
        assert got[test] == recorded_durations(job)[test]


def test_shards_that_each_index_under_push_union_on_pull_into_the_whole_index(tmp_path):
    from harness import selected_ids
    from test_index import CALC, NEGATIVE_LINE, NEGATIVE_TESTS, SIGNS

    origin = make_repo(tmp_path / "origin", files=CALC)
    remote = tmp_path / "remote"
    shards = [["tests/test_negative.py", "tests/test_params.py", "tests/test_units.py"],
              ["tests/test_zero.py", "tests/test_positive.py", "tests/test_extra.py", "tests/test_pretty.py",
               "tests/test_lookup.py"]]
    for k, files in enumerate(shards):
        job = clone(origin.path, tmp_path / f"shard{k}")
        run = job.impact("index", "--cache-remote", str(remote), "--cache-push", "--", "-p", "no:cacheprovider", *files)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "the coverage index" in run.stderr
    whole = clone(origin.path, tmp_path / "whole")
    assert whole.impact("index", "--", "-p", "no:cacheprovider").returncode == 0

    fresh = clone(origin.path, tmp_path / "fresh")
    run = fresh.impact("select", "--cache-remote", str(remote), "--cache-pull")
    assert run.returncode == 0, run.stderr
    assert "2 coverage index(es) unioned" in run.stderr
    status = fresh.impact("index", "status", "--format", "json").json
    assert status["tests"] == whole.impact("index", "status", "--format", "json").json["tests"]
    for repo in (fresh, whole):
        repo.replace(SIGNS, *NEGATIVE_LINE)
    assert selected_ids(fresh.decide()) == selected_ids(whole.decide()) == NEGATIVE_TESTS


def test_flaky_passes_pushed_by_two_jobs_are_counted_once_by_each_pull_before_and_after_a_compaction(tmp_path):
    from test_flakes import FILES, FLAKY, flakes

    marked = "tests/test_marked.py::test_marked"
    origin = make_repo(tmp_path / "origin", files=FILES)
    remote = tmp_path / "remote"
    jobs = []
    for k in range(2):
        job = clone(origin.path, tmp_path / f"job{k}")
        (tmp_path / f"flake{k}").mkdir()
        job.env = {"FLAKE_DIR": str(tmp_path / f"flake{k}")}  # a fresh marker: both tests flake once
        change_calc(job)
        run = job.impact("--cache-remote", str(remote), "--cache-push", "--", "--reruns", "1", "-p", "rerunfailures")
        assert run.returncode == 0, run.stdout + run.stderr
        assert "flaky passes of 2 test(s))" in run.stderr, run.stderr
        jobs.append(job)
    assert len(segments(remote)) == 2

    def passes(repo):
        record = flakes(repo)
        return {test: record[test]["passes_on_rerun"] for test in record}

    summed = {FLAKY: 2, marked: 2}
    fresh = clone(origin.path, tmp_path / "fresh")
    for k in range(2):  # the second pull adds nothing
        run = fresh.impact("select", "--cache-remote", str(remote), "--cache-pull")
        assert run.returncode == 0, run.stderr
        assert ("flaky passes of 2 test(s) added" in run.stderr) == (k == 0), run.stderr
        assert passes(fresh) == summed
    # A job that pulls holds its own segment's passes already: it adds the other job's only.
    assert jobs[0].impact("select", "--cache-remote", str(remote), "--cache-pull").returncode == 0
    assert passes(jobs[0]) == summed

    compact = subprocess.run([IMPACT, "cache", "compact", "--cache-remote", str(remote)], cwd=origin.path,
                             capture_output=True, text=True, env=clean_env())
    assert compact.returncode == 0, compact.stderr
    assert "compacted 2 segment(s)" in compact.stderr and "flaky passes of 2 test(s)" in compact.stderr
    assert segments(remote) == []
    later = clone(origin.path, tmp_path / "later")
    for repo in (fresh, jobs[0], jobs[1], later):  # the base absorbed segments some of them counted
        run = repo.impact("select", "--cache-remote", str(remote), "--cache-pull")
        assert run.returncode == 0, run.stderr
        assert passes(repo) == summed, repo.path
