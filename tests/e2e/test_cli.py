"""The command line end to end: running real pytest, exit codes, --dry-run, --format json, how pytest
is found, configuration errors, and the facts cache."""
import json
import os
import stat
from pathlib import Path

import pytest

from gitutil import assert_error
from harness import IMPACT, make_repo, selected_ids


def shop(tmp_path):
    return make_repo(tmp_path, "shop")


def edit_stock(repo):
    repo.replace("src/shop/inventory/stock.py", "return LEVELS.get(sku, 0)", "return LEVELS.get(sku, 0) - 1")


def fake_pytest(tmp_path, exit_code=0):
    """An executable that records its argv and exits with `exit_code`."""
    script = Path(tmp_path) / "fake-pytest"
    record = Path(tmp_path) / "fake-pytest.argv"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > {record}\nexit {exit_code}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script, record


class TestRunningPytest:
    def test_selected_tests_run_and_pytest_exit_code_comes_through(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)  # level() now returns 9: test_stock fails, test_reserve still passes
        run = repo.impact()
        assert run.returncode == 1, run.stdout + run.stderr
        assert "impact: selected 2 node id(s) in 2 file(s) from 1 changed file(s)" in run.stderr
        assert "tests/inventory/test_stock.py F" in run.stdout
        assert "test_cart.py" not in run.stdout  # not selected, never ran

    def test_a_passing_selection_exits_0(self, tmp_path):
        repo = shop(tmp_path)
        repo.replace("src/shop/reports.py", "total {cart.total()}", "total {cart.total(discount=0)}")
        run = repo.impact()
        assert run.returncode == 0, run.stdout + run.stderr
        assert "1 passed" in run.stdout

    def test_nothing_to_run_exits_0_without_starting_pytest(self, tmp_path):
        repo = shop(tmp_path)
        script, record = fake_pytest(tmp_path, exit_code=3)
        repo.write("src/shop/unused.py", "X = 1\n")
        run = repo.impact(env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 0
        assert not record.exists()
        assert run.stderr.startswith("impact: no tests impacted, nothing to run: no_tests_reached")
        assert run.stdout == ""

    def test_changed_strict_exits_5_when_nothing_runs(self, tmp_path):
        repo = shop(tmp_path)
        script, record = fake_pytest(tmp_path, exit_code=0)
        repo.replace("README.md", "# shop", "# shop\n\nMore words.")
        plain = repo.impact(env={"IMPACT_PYTEST": str(script)})
        assert plain.returncode == 0, plain.stderr
        strict = repo.impact("--changed-strict", env={"IMPACT_PYTEST": str(script)})
        assert strict.returncode == 5, strict.stderr
        assert "--changed-strict: nothing ran; exit 5" in strict.stderr
        assert not record.exists()
        dry = repo.impact("--changed-strict", "--dry-run", env={"IMPACT_PYTEST": str(script)})
        assert dry.returncode == 0, dry.stderr

    def test_changed_strict_runs_the_whole_suite_for_an_unconnected_module(self, tmp_path):
        repo = shop(tmp_path)
        repo.write("src/shop/unused.py", "X = 1\n")
        run = repo.impact("--changed-strict")
        assert run.returncode == 0, run.stdout + run.stderr
        assert "unconnected_change" in run.stderr and "src/shop/unused.py" in run.stderr
        assert "10 passed" in run.stdout

    @pytest.mark.parametrize("args, message", [
        (["--changed-strict", "--changed"], "--changed-strict is --changed with gating; pass one of them"),
        (["--changed-strict", "--staged"], "--staged and --changed-strict compare different things"),
        (["--changed-strict="], "--changed-strict= names no revision"),
    ])
    def test_changed_strict_usage_errors(self, tmp_path, args, message):
        run = shop(tmp_path).impact(*args)
        assert run.returncode == 2
        assert message in run.stderr

    def test_no_changes_at_all_runs_nothing(self, tmp_path):
        run = shop(tmp_path).impact()
        assert run.returncode == 0
        assert "no_changes" in run.stderr

    def test_run_all_runs_the_whole_suite(self, tmp_path):
        repo = shop(tmp_path)
        repo.write("src/shop/_speedups.c", "int speed(void) { return 1; }\n")  # built into code: it runs everything
        run = repo.impact()
        assert run.returncode == 0, run.stdout
        assert "impact: full suite: non_python_changed (src/shop/_speedups.c changed: a .c file" in run.stderr
        assert "10 passed" in run.stdout

    def test_arguments_after_double_dash_go_to_pytest(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        run = repo.impact("--", "-k", "reserve")
        assert run.returncode == 0, run.stdout
        assert "1 passed" in run.stdout and "deselected" in run.stdout

    def test_the_argv_is_pytest_then_node_ids_then_passthrough(self, tmp_path):
        repo = shop(tmp_path)
        script, record = fake_pytest(tmp_path, exit_code=7)
        edit_stock(repo)
        run = repo.impact("--", "-x", "-q", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 7  # the process became the fake pytest
        argv = record.read_text().splitlines()
        assert argv == [str(script), "tests/inventory/test_reserve.py::test_can_reserve",
                        "tests/inventory/test_stock.py::test_level", "-x", "-q"]

    def test_pytest_runs_from_the_repository_root_whatever_the_cwd(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        run = repo.impact(cwd=repo.path / "src" / "shop")
        assert run.returncode == 1
        assert "rootdir: " + str(repo.path) in run.stdout

    def test_a_program_that_cannot_start_exits_2(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        run = repo.impact(env={"IMPACT_PYTEST": str(tmp_path / "missing-pytest")})
        assert run.returncode == 2
        assert run.stderr.splitlines()[-1].startswith("impact: error: cannot run")
        assert "IMPACT_PYTEST" in run.stderr


class TestDryRun:
    def test_dry_run_prints_decision_evidence_and_argv_and_spawns_nothing(self, tmp_path):
        repo = shop(tmp_path)
        script, record = fake_pytest(tmp_path)
        repo.replace("src/shop/pricing.py", "return price_of(sku)", "return price_of(sku) * 1")
        run = repo.impact("--dry-run", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 0
        assert not record.exists()
        out = run.stdout
        assert out.startswith("decision: selected\n")
        assert "  tests/test_cart.py::test_total\n" in out
        # the chain from the test to the change, symbol by symbol
        # (test_total reads `.total` of what cart_with() returns)
        assert ("tests/test_cart.py:test_total (references, line 4) → "
                "src/shop/cart.py:Cart.total (references, line 12) → src/shop/pricing.py:unit_price [implementation]") in out
        assert ("argv\n  " + str(script) + "\n  tests/test_cart.py::test_total\n  tests/test_cart.py::test_total_with_discount\n"
                "  tests/test_pricing.py::test_unit_price\n  tests/test_reports.py::test_cart_summary\n") in out
        assert "pytest: from IMPACT_PYTEST" in out

    def test_dry_run_of_nothing_says_so(self, tmp_path):
        run = shop(tmp_path).impact("--dry-run")
        assert run.stdout.startswith("decision: nothing\n")
        assert "nothing would run (exit code 0)" in run.stdout

    def test_json_is_one_versioned_document(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        run = repo.impact("--dry-run", "--format", "json")
        doc = json.loads(run.stdout)
        assert doc["schema"] == "impact.decision" and doc["version"] == 1
        assert doc["decision"] == "selected" and doc["reason"] is None
        assert doc["base"]["rev"] == "HEAD" and len(doc["base"]["commit"]) == 40
        assert doc["changed_files"][0]["path"] == "src/shop/inventory/stock.py"
        assert doc["changed_files"][0]["status"] == "modified"
        assert doc["changed_files"][0]["hunks"] == [[8, 1, 8, 1]]  # line 8: the return
        chain = {t["node_id"]: t["chain"] for t in doc["selected"]}["tests/inventory/test_stock.py::test_level"]
        assert chain[0] == {"path": "tests/inventory/test_stock.py", "symbol": "test_level", "relation": "references",
                            "line": 4}
        assert chain[-1] == {"path": "src/shop/inventory/stock.py", "symbol": "level", "relation": "implementation",
                             "line": 7}
        assert doc["changed_files"][0]["change"] == "implementation"
        assert doc["changed_files"][0]["symbols"][0]["qualname"] == "level"
        assert doc["argv"][1:] == selected_ids(doc)
        assert doc["command"]["source"] == "pytest on PATH"
        assert set(doc["timings_ms"]) >= {"changes", "facts", "graph", "decision", "total"}

    def test_json_without_dry_run_also_runs_nothing(self, tmp_path):
        repo = shop(tmp_path)
        script, record = fake_pytest(tmp_path)
        edit_stock(repo)
        run = repo.impact("--format", "json", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 0 and not record.exists()
        assert json.loads(run.stdout)["decision"] == "selected"


class TestColour:
    """--dry-run colours its text on a terminal, unless NO_COLOR holds a value (no-color.org: an empty
    NO_COLOR is as if unset) or TERM=dumb; CLICOLOR_FORCE colours anywhere."""

    @staticmethod
    def dry_run_on_a_terminal(repo, env):
        import pty
        import subprocess
        from harness import clean_env
        leader, follower = pty.openpty()
        full = clean_env({"TERM": "xterm", **env})
        for name in ("NO_COLOR", "CLICOLOR_FORCE"):
            if name not in env:
                full.pop(name, None)
        subprocess.run([IMPACT, "--dry-run"], cwd=repo.path, env=full, stdout=follower, stderr=subprocess.DEVNULL,
                       timeout=300, check=True)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO once the terminal's other end is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        return b"".join(chunks).decode()

    @pytest.mark.parametrize("env, coloured", [
        ({}, True),
        ({"NO_COLOR": ""}, True),
        ({"NO_COLOR": "1"}, False),
        ({"TERM": "dumb"}, False),
        ({"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, True),
    ])
    def test_colour_on_a_terminal(self, tmp_path, env, coloured):
        repo = shop(tmp_path)
        edit_stock(repo)
        out = self.dry_run_on_a_terminal(repo, env)
        assert "decision" in out
        assert ("\033[" in out) == coloured, out


class TestFindingPytest:
    def test_pytest_command_from_pyproject(self, tmp_path):
        repo = shop(tmp_path)
        script, _ = fake_pytest(tmp_path)
        repo.replace("pyproject.toml", "[tool.pytest.ini_options]",
                     f'[tool.impact]\npytest-command = ["{script}", "--from-config"]\n\n[tool.pytest.ini_options]')
        repo.commit()
        edit_stock(repo)
        doc = repo.decide()
        assert doc["command"]["argv"] == [str(script), "--from-config"]
        assert doc["command"]["source"] == "pytest-command in pyproject.toml"

    def test_impact_pytest_beats_the_config(self, tmp_path):
        repo = shop(tmp_path)
        script, _ = fake_pytest(tmp_path)
        repo.replace("pyproject.toml", "[tool.pytest.ini_options]",
                     '[tool.impact]\npytest-command = ["configured-pytest"]\n\n[tool.pytest.ini_options]')
        repo.commit()
        edit_stock(repo)
        assert repo.decide(env={"IMPACT_PYTEST": str(script)})["command"]["source"] == "IMPACT_PYTEST"

    def test_the_active_virtualenv_runs_python_m_pytest(self, tmp_path):
        repo = shop(tmp_path)
        venv = tmp_path / "venv"
        (venv / "bin").mkdir(parents=True)
        os.symlink("/usr/bin/python3", venv / "bin" / "python")
        edit_stock(repo)
        doc = repo.decide(env={"VIRTUAL_ENV": str(venv)})
        assert doc["command"]["argv"] == [str(venv / "bin" / "python"), "-m", "pytest"]
        assert "VIRTUAL_ENV" in doc["command"]["source"]
        run = repo.impact(env={"VIRTUAL_ENV": str(venv)})
        assert run.returncode == 1 and "test_stock.py F" in run.stdout

    def test_a_project_venv_with_pytest_is_used(self, tmp_path):
        repo = shop(tmp_path)
        venv = repo.path / ".venv"
        (venv / "bin").mkdir(parents=True)
        os.symlink("/usr/bin/python3", venv / "bin" / "python")
        os.symlink("/usr/bin/pytest", venv / "bin" / "pytest")
        repo.write(".gitignore", "__pycache__/\n.venv/\n")
        repo.commit()
        edit_stock(repo)
        doc = repo.decide()
        assert doc["command"]["argv"] == [str(venv / "bin" / "python"), "-m", "pytest"]

    def test_no_pytest_anywhere_is_an_error_only_when_something_must_run(self, tmp_path):
        repo = shop(tmp_path)
        env = {"PATH": str(tmp_path / "empty")}
        (tmp_path / "empty").mkdir()
        run = repo.impact(env=env)  # nothing changed: nothing to run, no pytest needed
        assert run.returncode == 0
        edit_stock(repo)
        dry = repo.impact("--dry-run", env=env)
        assert dry.returncode == 0 and "cannot run: pytest not found" in dry.stdout
        run = repo.impact(env=env)
        assert run.returncode == 2
        assert run.stderr.strip().splitlines()[-1].startswith("impact: error: pytest not found")


class TestBadInput:
    @pytest.mark.parametrize("table, message", [
        ('[tool.impact]\nignroe = ["docs/"]\n', "unknown key 'ignroe', did you mean 'ignore'?"),
        ('[tool.impact]\nignore = "docs/"\n', "ignore must be an array of strings"),
        ('[tool.impact]\npytest-command = []\n', "pytest-command is empty"),
        ('[tool.impact]\nmode = "quick"\n', "unknown mode 'quick'"),
        ('[tool.impact]\nstrict = "yes"\n', "strict must be true or false"),
    ])
    def test_configuration_errors_stop_at_start_up(self, tmp_path, table, message):
        repo = shop(tmp_path)
        repo.write("pyproject.toml", repo.read("pyproject.toml") + "\n" + table)
        repo.commit()
        run = repo.impact()  # nothing changed: the key would not even be used
        assert run.returncode == 2
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("impact: error: pyproject.toml: ")
        assert message in lines[0]

    def test_malformed_toml_names_file_line_and_column(self, tmp_path):
        repo = shop(tmp_path)
        repo.write("pyproject.toml", '[project]\nname = "shop\n')
        run = repo.impact()
        assert run.returncode == 2
        assert run.stderr.startswith("impact: error: pyproject.toml:2:")

    def test_malformed_pytest_ini(self, tmp_path):
        repo = shop(tmp_path)
        repo.write("pytest.ini", "[pytest]\nthis line is not ini\n")
        repo.commit()
        repo.replace("src/shop/pricing.py", "return price_of(sku)", "return price_of(sku) * 1")
        run = repo.impact()
        assert run.returncode == 2
        assert run.stderr.startswith("impact: error: pytest.ini: line 2")

    def test_unknown_flags_are_usage_errors(self, tmp_path):
        run = shop(tmp_path).impact("--chnaged")
        assert run.returncode == 2

    def test_help_goes_to_stdout_and_exits_0(self, tmp_path):
        run = shop(tmp_path).impact("--help")
        assert run.returncode == 0
        assert "--changed" in run.stdout and "--dry-run" in run.stdout

    def test_version(self, tmp_path):
        run = shop(tmp_path).impact("--version")
        assert run.returncode == 0 and run.stdout.startswith("impact ")

    def test_unknown_mode_flag(self, tmp_path):
        run = shop(tmp_path).impact("--mode", "quick")
        assert run.returncode == 2 and "unknown mode 'quick'" in run.stderr


class TestCache:
    def test_a_warm_run_parses_nothing_and_decides_the_same(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        cold = repo.decide()
        warm = repo.decide()
        assert cold["project"]["parsed"] == cold["project"]["python_files"] > 0
        assert warm["project"]["parsed"] == 0
        assert selected_ids(cold) == selected_ids(warm)

    def test_the_cache_never_shows_up_as_a_change(self, tmp_path):
        repo = shop(tmp_path)
        repo.write(".gitignore", "__pycache__/\n")  # the project does not ignore .impact_cache/
        repo.commit()
        edit_stock(repo)
        repo.decide()
        doc = repo.decide()
        assert [f["path"] for f in doc["changed_files"]] == ["src/shop/inventory/stock.py"]

    def test_a_corrupt_cache_is_rebuilt_with_a_warning(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        expected = selected_ids(repo.decide())
        for f in (repo.path / ".impact_cache").glob("facts-*.bin"):
            data = bytearray(f.read_bytes())
            data[len(data) // 2] ^= 0xFF
            f.write_bytes(bytes(data))
        run = repo.impact("--dry-run", "--format", "json")
        assert run.returncode == 0
        assert "impact: warning: the facts cache" in run.stderr
        assert selected_ids(run.json) == expected
        assert run.json["project"]["parsed"] == run.json["project"]["python_files"]

    def test_impact_cache_relocates_the_cache(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        elsewhere = tmp_path / "cache"
        repo.decide(env={"IMPACT_CACHE": str(elsewhere)})
        assert list(elsewhere.glob("facts-*.bin"))
        assert not (repo.path / ".impact_cache").exists()

    def test_no_cache_writes_nothing(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        repo.decide("--no-cache")
        assert not (repo.path / ".impact_cache").exists()

    def test_the_facts_of_deleted_files_stop_weighing_on_every_run(self, tmp_path):
        # Generated modules whose facts outweigh the rest of the cache are deleted: the next run rewrites
        # the cache without them (it used to keep them, read by every run, for ever), later runs leave it.
        repo = shop(tmp_path)
        body = "".join(f"def f{i}(a, b):\n    return helper_{i}(a) + b.attr_{i}\n\n\n" for i in range(2500))
        for n in range(60):
            repo.write(f"src/shop/generated/g{n}.py", body.replace("def f", f"def g{n}_"))
        repo.commit()
        edit_stock(repo)
        repo.decide()
        cache = next((repo.path / ".impact_cache").glob("facts-*.bin"))
        full = cache.stat().st_size
        assert full > 8 << 20
        repo.git("rm", "-rq", "src/shop/generated")
        repo.git("commit", "-qm", "no generated code")
        assert repo.decide()["project"]["parsed"] == 0
        pruned = cache.stat()
        # What the run used, and unused entries up to as many bytes again, at least 4 MiB (a branch
        # switch stays warm): the dead weight is bounded, not carried whole.
        assert pruned.st_size < min(full // 2, (4 << 20) + (256 << 10))
        repo.decide()
        assert cache.stat().st_mtime_ns == pruned.st_mtime_ns  # nothing more to drop: not rewritten


def test_timings_go_to_stderr(tmp_path):
    repo = shop(tmp_path)
    edit_stock(repo)
    run = repo.impact("--dry-run", "--timings")
    assert "impact: timing changes" in run.stderr
    assert "timing" not in run.stdout


class TestValuesThatMeanNothing:
    """A value a flag's type accepts but that names nothing (issue 11): one line, exit 2, never a silent
    default. `--changed=` with a lost variable must not quietly compare with HEAD."""

    @pytest.mark.parametrize("args, words", [
        (["--changed="], ["--changed= names no revision", "--changed alone"]),
        (["--changed", ""], ["--changed= names no revision"]),
        (["select", "--changed="], ["--changed= names no revision"]),
        (["--budget-ms", "nan"], ["--budget-ms nan", "0 or more"]),
        (["--budget-ms", "-1"], ["--budget-ms -1", "0 or more"]),
        (["--budget-ms", "inf"], ["--budget-ms inf"]),
        (["--mode", ""], ["unknown mode ''", "fast, balanced or safe"]),
        (["--output", ""], ["unknown --output ''"]),
        (["--impact", ""], ["--impact '' names no file"]),
        (["index", "--from", ""], ["--from '' names no file"]),
        (["--force"], ["--force applies to --impact"]),
    ])
    def test_is_a_usage_error(self, tmp_path, args, words):
        run = shop(tmp_path).impact(*args)
        assert_error(run, *words)

    def test_a_missing_folder_for_dash_c_is_named(self, tmp_path):
        repo = shop(tmp_path)
        assert_error(repo.impact("-C", str(tmp_path / "nowhere")), "-C", "nowhere", "no such folder")
        assert_error(repo.impact("-C", "shop.txt"), "no such folder")
        repo.write("notes.txt", "x\n")
        assert_error(repo.impact("-C", "notes.txt"), "-C notes.txt: not a folder")

    def test_a_path_given_to_changed_is_named_as_a_path(self, tmp_path):
        repo = shop(tmp_path)
        line = assert_error(repo.impact("--changed", "src/shop/pricing.py"), "--changed src/shop/pricing.py",
                            "that is a path", "--changed=REV")
        assert "-- src/shop/pricing.py" in line
        assert_error(repo.impact("changes", "--changed", "src/shop/pricing.py"), "that is a path")
        assert_error(repo.impact("explain", "tests/test_cart.py", "--changed", "src/shop"), "that is a path")
        # a name that is neither a revision nor a path keeps git's message
        assert_error(repo.impact("--changed", "no-such-branch"), "unknown revision 'no-such-branch'")


class TestExplainNamesARealTest:
    def test_an_empty_target_is_an_error(self, tmp_path):
        assert_error(shop(tmp_path).impact("explain", ""), "explain '' names no test")

    def test_a_file_that_does_not_exist(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        assert_error(repo.impact("explain", "tests/inventory/test_nope.py::test_level"),
                     "no such test in the collected suite", "tests/inventory/test_nope.py does not exist",
                     "pytest --collect-only -q")

    def test_a_test_its_file_does_not_define(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        assert_error(repo.impact("explain", "tests/test_cart.py::test_no_such_thing[1]"),
                     "no such test in the collected suite", "defines no test_no_such_thing")

    def test_a_real_test_or_a_deleted_changed_file_is_explained(self, tmp_path):
        repo = shop(tmp_path)
        edit_stock(repo)
        run = repo.impact("explain", "tests/test_cart.py::test_total")
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith(("[SKIPPED] tests/test_cart.py::test_total", "[SELECTED] tests/test_cart.py"))
        # a deleted changed file is explained, although it is not on disk
        repo.delete("src/shop/pricing.py")
        run = repo.impact("explain", "src/shop/pricing.py")
        assert run.returncode == 0, run.stderr
        assert "src/shop/pricing.py" in run.stdout.splitlines()[0]
