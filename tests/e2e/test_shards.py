"""Durations and shards end to end (docs/cli.md, "Shards"; docs/cache.md): real git repositories, real
pytest. A run impact starts records each test's duration through impact's plugin; `--shard K/N` splits
the selection by those durations so that the shards are disjoint and together are the selection."""
import json
import os
import subprocess

import pytest

from gitutil import assert_error
from harness import clean_env, make_repo, recorded_durations

# Four test files that all import src/calc.py, of very different lengths: the split must balance them.
SLOW = "tests/test_slow.py::test_slow_one"
SLEEPS = {"tests/test_slow.py": 0.6, "tests/test_mid.py": 0.3, "tests/test_quick.py": 0.0, "tests/test_tiny.py": 0.0}


def calc_repo(tmp_path):
    files = {
        "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\"src\"]\n",
        "src/calc.py": "def add(a, b):\n    return a + b\n",
    }
    for path, sleep in SLEEPS.items():
        name = path.split("/")[1][5:-3]
        files[path] = (
            "import time\n\nfrom calc import add\n\n\n"
            f"def test_{name}_one():\n    time.sleep({sleep})\n    assert add(1, 2) == 3\n\n\n"
            f"def test_{name}_two():\n    assert add(2, 2) == 4\n"
        )
    return make_repo(tmp_path, files=files)


def change_calc(repo):
    repo.replace("src/calc.py", "return a + b", "return b + a")


def shard_doc(repo, spec, *args, env=None):
    run = repo.impact("select", "--shard", spec, "--format", "json", *args, env=env)
    assert run.returncode == 0, run.stderr
    return run, run.json


@pytest.fixture
def calc(tmp_path):
    return calc_repo(tmp_path)


class TestDurations:
    def test_a_run_records_every_test_it_ran(self, calc):
        change_calc(calc)
        run = calc.impact()
        assert run.returncode == 0, run.stdout + run.stderr
        assert "8 passed" in run.stdout
        tests = recorded_durations(calc)
        assert len(tests) == 8
        assert tests["tests/test_slow.py::test_slow_one"]["seconds"] >= 0.6
        assert tests["tests/test_quick.py::test_quick_one"]["seconds"] < 0.3
        assert tests["tests/test_slow.py::test_slow_one"]["at"].endswith("Z")
        # merged into durations.json: the inbox is empty again
        assert not list((calc.path / ".impact_cache" / "durations.d").glob("run-*.json"))

    def test_a_filtered_run_updates_only_the_tests_it_ran(self, calc):
        change_calc(calc)
        assert calc.impact().returncode == 0
        before = recorded_durations(calc)
        run = calc.impact("--", "-k", "slow")
        assert run.returncode == 0, run.stderr
        after = recorded_durations(calc)
        assert after["tests/test_slow.py::test_slow_one"]["at"] > before["tests/test_slow.py::test_slow_one"]["at"]
        assert after["tests/test_mid.py::test_mid_one"] == before["tests/test_mid.py::test_mid_one"]

    def test_xdist_runs_record_through_the_controller(self, calc):
        change_calc(calc)
        run = calc.impact("--", "-n", "2", "-p", "xdist")
        assert run.returncode == 0, run.stdout + run.stderr
        tests = recorded_durations(calc)
        assert len(tests) == 8
        assert tests["tests/test_slow.py::test_slow_one"]["seconds"] >= 0.6

    def test_the_text_listing_puts_the_longest_first(self, calc):
        change_calc(calc)
        assert calc.impact().returncode == 0
        run = calc.impact("durations")
        assert run.returncode == 0
        lines = run.stdout.splitlines()
        assert lines[0].startswith("8 test(s)")
        assert lines[1].endswith(")") and "tests/test_slow.py::test_slow_one" in lines[1]

    def test_no_cache_records_nothing(self, calc):
        change_calc(calc)
        assert calc.impact("--no-cache").returncode == 0
        assert recorded_durations(calc) == {}

    @pytest.mark.parametrize("command", [
        ["env", "PYTHONPATH=src", "PYTEST_PLUGINS=", "/usr/bin/python3", "-m", "pytest"],
        ["/usr/bin/python3", "-I", "-m", "pytest"],
        ["./run-tests.sh"],  # a wrapper that exports its own PYTHONPATH and keeps PYTEST_PLUGINS
    ])
    def test_a_command_that_may_hide_the_plugin_runs_without_it(self, calc, command):
        calc.write("run-tests.sh", "#!/bin/sh\nexport PYTHONPATH=src\nexec /usr/bin/python3 -m pytest \"$@\"\n")
        os.chmod(calc.path / "run-tests.sh", 0o755)
        calc.commit("a wrapper")
        change_calc(calc)
        run = calc.impact("--pytest-command", json.dumps(command))
        assert run.returncode == 0, run.stdout + run.stderr
        assert "8 passed" in run.stdout
        assert recorded_durations(calc) == {}

    def test_a_pytest_started_elsewhere_with_impacts_environment_records_nothing(self, calc, tmp_path):
        change_calc(calc)
        assert calc.impact().returncode == 0  # writes the plugin's module into the cache
        assert len(recorded_durations(calc)) == 8  # and merges what that run wrote: the inbox is empty
        inbox = calc.path / ".impact_cache" / "durations.d"
        base = {"PYTHONPATH": str(calc.path / ".impact_cache" / "plugin"), "PYTEST_PLUGINS": "impact_durations",
                "IMPACT_DURATIONS_INBOX": str(inbox)}
        for root, written in ((tmp_path, 0), (calc.path, 1)):
            env = clean_env({**base, "IMPACT_DURATIONS_ROOT": str(root)})
            result = subprocess.run(["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                                    cwd=calc.path, env=env, capture_output=True, text=True)
            assert result.returncode == 0, result.stdout + result.stderr
            assert len(list(inbox.glob("run-*.json"))) == written

    def test_python_m_pytest_records(self, calc):
        change_calc(calc)
        run = calc.impact("--pytest-command", json.dumps(["/usr/bin/python3", "-m", "pytest"]))
        assert run.returncode == 0, run.stdout + run.stderr
        assert len(recorded_durations(calc)) == 8

    def test_index_records_durations_too(self, calc):
        run = calc.impact("index")
        assert run.returncode == 0, run.stdout + run.stderr
        assert len(recorded_durations(calc)) == 8

    def test_audit_records_durations_too(self, calc):
        # the repository does not ignore the cache itself: its own .gitignore must be there first
        calc.write(".gitignore", "__pycache__/\n.pytest_cache/\n")
        calc.commit("the cache is not ignored by the repository")
        change_calc(calc)
        run = calc.impact("audit")
        assert run.returncode == 0, run.stdout + run.stderr
        assert ".impact_cache" not in calc.git("status", "--porcelain")
        assert len(recorded_durations(calc)) == 8


class TestJunitImport:
    def test_a_junit_report_imports_as_node_ids(self, calc):
        result = calc.pytest("--junitxml=junit.xml", "-q")
        assert result.returncode == 0, result.stdout
        run = calc.impact("durations", "--from", "junit.xml")
        assert run.returncode == 0, run.stderr
        assert "imported 8 test(s)" in run.stderr
        tests = recorded_durations(calc)
        assert tests["tests/test_slow.py::test_slow_one"]["seconds"] >= 0.6
        assert set(tests) == {f"{path}::test_{path.split('/')[1][5:-3]}_{n}" for path in SLEEPS for n in ("one", "two")}

    @pytest.mark.parametrize("content,words", [
        ("{\"tests\": []}", ["bad.xml", "no <testsuite>"]),
        ("<testsuite><testcase classname=\"a\" name=\"t\" time=\"soon\"/></testsuite>", ["bad.xml", "time=\"soon\""]),
    ])
    def test_bad_input_is_one_line_naming_the_file(self, calc, content, words):
        calc.write("bad.xml", content)
        run = calc.impact("durations", "--from", "bad.xml")
        assert run.returncode == 2
        assert_error(run, *words)
        assert len(run.stderr.strip().splitlines()) == 1

    def test_a_missing_file(self, calc):
        run = calc.impact("durations", "--from", "nowhere.xml")
        assert run.returncode == 2
        assert_error(run, "nowhere.xml", "no such file")


class TestShards:
    def test_two_shards_are_disjoint_and_together_the_selection(self, calc):
        change_calc(calc)
        assert calc.impact().returncode == 0  # records the durations
        whole = calc.decide()
        selection = sorted(t["node_id"] for t in whole["selected"])
        parts = []
        for k in (1, 2):
            run, doc = shard_doc(calc, f"{k}/2")
            shard = doc["durations"]["shard"]
            assert shard["index"] == k and shard["total"] == 2
            mine = shard["shards"][k - 1]["ids"]
            parts.append(mine)
            assert doc["argv"][-len(mine):] == mine
            assert f"impact: shard {k}/2 (--shard {k}/2): plan {doc['durations']['fingerprint']}" in run.stderr
        assert not set(parts[0]) & set(parts[1])
        assert sorted(parts[0] + parts[1]) == selection
        # balanced: the slow test (two thirds of the time) alone on one shard
        assert [SLOW] in parts
        units = {u["id"]: u for u in doc["durations"]["units"]}
        assert units[SLOW]["seconds"] >= 0.6 and not units[SLOW]["estimated"]

    def test_a_real_sharded_run_runs_its_part(self, calc):
        change_calc(calc)
        assert calc.impact().returncode == 0
        plan = calc.impact("select", "--format", "json")
        (calc.path / ".git" / "plan.json").write_text(plan.stdout)
        # each job records what it ran, so only a shared plan keeps the second job's split the first's
        one = calc.impact("--impact", ".git/plan.json", "--shard", "1/2")
        two = calc.impact("--impact", ".git/plan.json", "--shard", "2/2")
        assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
        counts = sorted(int(r.stdout.split(" passed")[0].split()[-1]) for r in (one, two))
        assert sum(counts) == 8
        fingerprints = {line.split(" plan ")[1].split()[0] for r in (one, two)
                        for line in r.stderr.splitlines() if " plan " in line}
        assert len(fingerprints) == 1  # both jobs split the same plan

    def test_an_empty_shard_exits_0_without_pytest(self, calc):
        calc.replace("tests/test_tiny.py", "assert add(2, 2) == 4", "assert add(2, 2) == 4.0")
        run = calc.impact("--shard", "3/3")
        assert run.returncode == 0, run.stderr
        assert "shard 3/3 is empty: nothing to run" in run.stderr
        assert "passed" not in run.stdout

    @pytest.mark.parametrize("spec", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2"])
    def test_a_bad_shard_is_exit_2(self, calc, spec):
        change_calc(calc)
        run = calc.impact(f"--shard={spec}")
        assert run.returncode == 2
        assert_error(run, "--shard", "K/N")

    def test_shard_auto_reads_gitlab(self, calc):
        change_calc(calc)
        run, doc = shard_doc(calc, "auto", env={"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"})
        assert doc["durations"]["shard"]["index"] == 2
        assert doc["durations"]["shard"]["source"] == "CI_NODE_INDEX/CI_NODE_TOTAL"
        assert "impact: shard 2/2 (CI_NODE_INDEX/CI_NODE_TOTAL)" in run.stderr

    def test_shard_auto_with_no_ci_names_the_variables(self, calc):
        change_calc(calc)
        run = calc.impact("--shard", "auto")
        assert run.returncode == 2
        assert_error(run, "CI_NODE_INDEX/CI_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "CIRCLE_NODE_INDEX")

    def test_unknown_tests_get_the_median_or_one_second(self, calc):
        change_calc(calc)
        doc = calc.impact("select", "--format", "json").json  # nothing recorded yet: 1.0 s each
        assert len(doc["durations"]["units"]) == 8
        assert all(u["estimated"] and u["seconds"] == 1.0 for u in doc["durations"]["units"])
        assert calc.impact("--", "-k", "slow or mid").returncode == 0  # records 4 of the 8
        run, doc = shard_doc(calc, "1/2")
        units = {u["id"]: u for u in doc["durations"]["units"]}
        known = sorted(u["seconds"] for u in units.values() if not u["estimated"])
        assert len(known) == 4
        median = (known[1] + known[2]) / 2
        assert all(u["seconds"] == pytest.approx(median, abs=1e-5) for u in units.values() if u["estimated"])
        # a whole file with no record weighs the median times its static tests
        calc.write("tests/test_new.py", "from calc import add\n\n\ndef test_a():\n    assert add(0, 0) == 0\n\n\n"
                   "def test_b():\n    pass\n\n\ndef test_c():\n    pass\n")
        run, doc = shard_doc(calc, "1/2")
        units = {u["id"]: u for u in doc["durations"]["units"]}
        assert units["tests/test_new.py"]["estimated"]
        assert units["tests/test_new.py"]["seconds"] == pytest.approx(3 * median, abs=1e-5)

    def test_the_dry_run_shows_every_shard(self, calc):
        change_calc(calc)
        assert calc.impact().returncode == 0
        run = calc.impact("--shard", "2/2", "--dry-run")
        assert run.returncode == 0, run.stderr
        assert "shards: 2 of 8 id(s) (selection)" in run.stdout
        assert "shard 2/2 (this job)" in run.stdout
        assert f"    {SLOW}\n" in run.stdout

    def test_a_replayed_plan_splits_with_its_carried_durations(self, calc):
        change_calc(calc)
        assert calc.impact().returncode == 0
        plan = calc.impact("select", "--format", "json")
        assert plan.returncode == 0, plan.stderr
        (calc.path / ".git" / "plan.json").write_text(plan.stdout)
        carried = plan.json["durations"]
        assert carried["suite"] == "selection" and carried["shard"] is None
        # another job's cache knows nothing: the split is still the plan's
        for name in ("durations.json",):
            os.remove(calc.path / ".impact_cache" / name)
        parts = []
        for k in (1, 2):
            run, doc = shard_doc(calc, f"{k}/2", "--impact", ".git/plan.json")
            assert doc["durations"]["fingerprint"] == carried["fingerprint"]
            parts.append(doc["durations"]["shard"]["shards"][k - 1]["ids"])
        assert [SLOW] in parts
        assert sorted(parts[0] + parts[1]) == sorted(t["node_id"] for t in plan.json["selected"])

    def test_an_edited_plan_is_refused(self, calc):
        change_calc(calc)
        plan = calc.impact("select", "--format", "json").json
        plan["durations"]["units"][0]["seconds"] = 99.0
        (calc.path / ".git" / "plan.json").write_text(json.dumps(plan))
        run = calc.impact("--impact", ".git/plan.json", "--shard", "1/2")
        assert run.returncode == 2
        assert_error(run, "plan.json", "$.durations.fingerprint")

    def test_run_all_is_sharded_over_the_static_suite(self, calc):
        calc.replace("pyproject.toml", "testpaths", "addopts = \"-q\"\ntestpaths")
        parts = []
        for k in (1, 2):
            run, doc = shard_doc(calc, f"{k}/2")
            assert doc["decision"] == "run_all"
            assert doc["durations"]["suite"] == "static"
            parts.append(doc["durations"]["shard"]["shards"][k - 1]["ids"])
            assert doc["argv"][-len(parts[-1]):] == parts[-1]
        assert sorted(parts[0] + parts[1]) == sorted(SLEEPS)

    def test_run_all_with_a_collection_hook_lists_the_suite_with_pytest(self, calc):
        calc.write("tests/conftest.py", "def pytest_collect_file(parent, file_path):\n    return None\n")
        calc.commit("a collection hook")
        calc.replace("pyproject.toml", "testpaths", "addopts = \"-q\"\ntestpaths")
        run, doc = shard_doc(calc, "1/2")
        assert doc["durations"]["suite"] == "collect-only"
        assert "tests/conftest.py defines pytest_collect_file" in run.stderr
        assert len(doc["durations"]["units"]) == 8

    def test_a_collection_error_stops_a_sharded_run_all(self, calc):
        calc.write("tests/conftest.py", "def pytest_collect_file(parent, file_path):\n    return None\n")
        calc.write("tests/test_broken.py", "import nowhere_to_be_found\n\n\ndef test_x():\n    pass\n")
        calc.commit("a collection hook and a broken file")
        calc.replace("pyproject.toml", "testpaths", "addopts = \"-q\"\ntestpaths")
        run = calc.impact("--shard", "1/2")
        assert run.returncode == 2
        last = run.stderr.strip().splitlines()[-1]
        assert last.startswith("impact: error: pytest --collect-only -q") and "cannot be split" in last
        assert "passed" not in run.stdout
        plan = calc.impact("select", "--format", "json")
        assert plan.returncode == 0, plan.stderr
        assert plan.json["decision"] == "run_all" and plan.json["durations"] is None
        assert "the suite cannot be weighed for --shard" in plan.stderr

    def test_shard_in_monorepo_mode_is_a_usage_error(self, tmp_path):
        repo = make_repo(tmp_path, files={
            "libs/a/pyproject.toml": "[tool.pytest.ini_options]\n", "libs/a/tests/test_a.py": "def test_a():\n    pass\n",
            "libs/b/pyproject.toml": "[tool.pytest.ini_options]\n", "libs/b/tests/test_b.py": "def test_b():\n    pass\n",
        })
        repo.replace("libs/a/tests/test_a.py", "pass", "assert True")
        run = repo.impact("--shard", "1/2")
        assert run.returncode == 2
        assert_error(run, "--shard", "monorepo")
