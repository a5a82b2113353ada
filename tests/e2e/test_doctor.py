"""`impact doctor` end to end: real repositories made from fixtures/doctor, the real binary and real
pytest (/usr/bin/python3's). A healthy project passes every check (exit 0); each broken variant fails
the check it breaks, names the fix and exits 1."""
import json
import subprocess
from pathlib import Path

import pytest

from harness import IMPACT, clean_env, make_repo

# The pytest modules a fake environment links, and what they need (Debian's pytest 7).
PYTEST_MODULES = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "py", "attr", "attrs", "exceptiongroup",
                  "tomli")


def doctor(repo, *args, env=None):
    run = repo.impact("doctor", *args, env=env)
    assert run.returncode in (0, 1), f"impact doctor failed ({run.returncode}): {run.stderr}"
    return run


def doctor_json(repo, *args, env=None):
    run = doctor(repo, "--format", "json", *args, env=env)
    doc = json.loads(run.stdout)
    return run, {c["id"]: c for c in doc["checks"]}, doc


def line_of(out, check_id):
    """The check's first line in the text report."""
    for line in out.splitlines():
        words = line.split()
        if len(words) > 1 and words[1] == check_id:
            return line
    raise AssertionError(f"no {check_id} line in:\n{out}")


@pytest.fixture
def calc(tmp_path):
    return make_repo(tmp_path / "work", "doctor")


def installed_copy(tmp_path, repo):
    """A site folder outside the work tree holding a copy of the package, as a non-editable install
    leaves one in site-packages."""
    site = tmp_path / "site"
    (site / "calc").mkdir(parents=True)
    for name in ("__init__.py", "ops.py"):
        (site / "calc" / name).write_text((repo.path / "src" / "calc" / name).read_text())
    return site


def without_pythonpath(repo):
    """The src/ layout without pytest's pythonpath option: the tests find whatever `calc` sys.path has."""
    repo.replace("pyproject.toml", 'pythonpath = ["src"]\n', "")
    repo.commit("no pythonpath")


def pytest_without_cov(tmp_path):
    """A pytest command whose interpreter has pytest and no pytest-cov: /usr/bin/python3 without its site
    folders (-S), given links to pytest and its dependencies only."""
    found = subprocess.run(["/usr/bin/python3", "-c", "import os, pytest; print(os.path.dirname(os.path.dirname("
                            "pytest.__file__)))"], capture_output=True, text=True, check=True).stdout.strip()
    lib = tmp_path / "nocov" / "lib"
    lib.mkdir(parents=True)
    for name in PYTEST_MODULES:
        if (Path(found) / name).exists():
            (lib / name).symlink_to(Path(found) / name)
    script = tmp_path / "nocov" / "pytest"
    script.write_text(f'#!/bin/sh\nPYTHONPATH="${{PYTHONPATH:+$PYTHONPATH:}}{lib}" exec /usr/bin/python3 -S -m pytest "$@"\n')
    script.chmod(0o755)
    return str(script)


class TestHealthy:
    def test_every_check_passes_and_exits_0(self, calc):
        run = doctor(calc)
        assert run.returncode == 0, run.stdout + run.stderr
        for check in ("pytest", "imports", "collection", "pytest_cov", "config_location", "index", "non_python"):
            assert line_of(run.stdout, check).startswith("ok "), run.stdout
        assert "the tests import calc from the work tree" in run.stdout
        assert "impact and pytest agree on the suite: 2 test(s), 3 item(s) with their parameters" in run.stdout
        assert run.stdout.rstrip().endswith("all 7 checks passed")
        assert "fix:" not in run.stdout

    def test_the_json_document(self, calc):
        run, checks, doc = doctor_json(calc)
        assert run.returncode == 0
        assert doc["schema"] == "impact.doctor" and doc["version"] == 1 and doc["healthy"] is True
        assert list(checks) == ["pytest", "imports", "collection", "pytest_cov", "config_location", "index",
                                "non_python"]
        for check in checks.values():
            assert set(check) >= {"id", "status", "what", "fix", "items"}
            assert check["status"] == "ok" and check["fix"] is None
        assert checks["collection"]["only_pytest"] == [] and checks["collection"]["only_impact"] == []
        assert checks["non_python"]["files"] == []


class TestShadowedPackage:
    def test_an_installed_copy_ahead_of_the_work_tree_fails_imports(self, calc, tmp_path):
        without_pythonpath(calc)
        site = installed_copy(tmp_path, calc)
        run = doctor(calc, env={"PYTHONPATH": str(site)})
        assert run.returncode == 1, run.stdout + run.stderr
        line = line_of(run.stdout, "imports")
        assert line.startswith("fail ") and "the tests import calc from outside the work tree" in line
        assert f"calc: imported from {site}/calc/__init__.py, not from the work tree" in run.stdout
        assert "fix: install the work tree in editable mode" in run.stdout

    def test_a_package_with_its_tests_inside_is_checked(self, tmp_path):
        repo = make_repo(tmp_path / "flat", files={
            "pyproject.toml": "[tool.pytest.ini_options]\n",
            "geo/__init__.py": "from geo.core import area\n",
            "geo/core.py": "def area(w, h):\n    return w * h\n",
            "geo/tests/__init__.py": "",
            "geo/tests/test_core.py": "from geo import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n",
        })
        _, checks, _ = doctor_json(repo)
        assert checks["imports"]["status"] == "ok"
        assert "the tests import geo from the work tree" in checks["imports"]["what"]

    def test_an_index_built_against_the_copy_measured_no_source_file(self, calc, tmp_path):
        without_pythonpath(calc)
        env = {"PYTHONPATH": str(installed_copy(tmp_path, calc))}
        built = calc.impact("index", env=env)
        assert built.returncode == 0, built.stderr
        run, checks, _ = doctor_json(calc, env=env)
        assert run.returncode == 1
        assert checks["index"]["status"] == "fail"
        assert "measured no source file" in checks["index"]["what"]
        assert "impact index" in checks["index"]["fix"]
        # The cause is named too.
        assert checks["imports"]["status"] == "fail"

    def test_the_index_of_the_work_tree_passes(self, calc):
        built = calc.impact("index")
        assert built.returncode == 0, built.stderr
        run, checks, _ = doctor_json(calc)
        assert run.returncode == 0, json.dumps(checks, indent=1)
        assert "measured 2 source file(s)" in checks["index"]["what"]


class TestCollection:
    def test_tests_pytest_collects_and_impact_does_not_see_are_named(self, calc):
        # Made at import by a loop: pytest collects them, no static reading can name them.
        calc.write("tests/test_gen.py", "for n in range(3):\n    def _t(n=n):\n        assert n >= 0\n\n"
                                        "    globals()['test_gen_%d' % n] = _t\n")
        calc.commit("generated tests")
        run = doctor(calc)
        assert run.returncode == 1
        line = line_of(run.stdout, "collection")
        assert line.startswith("fail ") and "pytest collects 3 test(s) impact does not know" in line
        assert "- pytest only: tests/test_gen.py (3)" in run.stdout
        _, checks, doc = doctor_json(calc)
        assert doc["healthy"] is False
        assert checks["collection"]["only_pytest"] == [f"tests/test_gen.py::test_gen_{n}" for n in range(3)]
        assert checks["collection"]["only_impact"] == []

    def test_doctests_run_whole_and_are_not_compared_item_by_item(self, calc):
        calc.replace("pyproject.toml", 'testpaths = ["tests"]', 'testpaths = ["tests", "src"]\naddopts = "--doctest-modules"')
        calc.replace("src/calc/ops.py", "def add(a, b):\n", 'def add(a, b):\n    """\n    >>> add(1, 1)\n    2\n    """\n')
        calc.write("tests/test_usage.txt", ">>> from calc import mul\n>>> mul(2, 2)\n4\n")
        calc.commit("doctests")
        run = doctor(calc)
        line = line_of(run.stdout, "collection")
        assert line.startswith("ok "), run.stdout
        assert "doctest file(s) that run whole" in line

    def test_tests_impact_knows_and_pytest_does_not_collect_warn(self, calc):
        # A collect_ignore computed at import: pytest leaves the file out, impact cannot read the value.
        calc.write("tests/test_legacy.py", "def test_old():\n    pass\n")
        calc.write("tests/conftest.py", 'collect_ignore = ["test_" + "legacy.py"]\n')
        calc.commit("legacy")
        run = doctor(calc)
        assert run.returncode == 1
        line = line_of(run.stdout, "collection")
        assert line.startswith("warn ") and "impact knows 1 test(s) pytest does not collect" in line
        assert "- impact only: tests/test_legacy.py (1)" in run.stdout
        _, checks, _ = doctor_json(calc)
        assert checks["collection"]["only_impact"] == ["tests/test_legacy.py::test_old"]
        assert checks["collection"]["only_pytest"] == []

    def test_a_collection_error_fails(self, calc):
        calc.write("tests/test_broken.py", "import calc.missing\n\ndef test_x():\n    pass\n")
        calc.commit("broken")
        _, checks, _ = doctor_json(calc)
        assert checks["collection"]["status"] == "fail"
        assert checks["collection"]["collect_errors"] == ["tests/test_broken.py"]
        assert checks["collection"]["only_impact"] == ["tests/test_broken.py::test_x"]

    def test_a_long_listing_is_capped_in_text_and_whole_in_json(self, calc):
        for n in range(12):
            calc.write(f"tests/test_gen{n:02}.py", "globals()['test_made'] = lambda: None\n")
        calc.commit("many")
        run = doctor(calc)
        assert "- pytest only: tests/test_gen09.py (1)" in run.stdout
        assert "- pytest only: tests/test_gen10.py (1)" not in run.stdout
        assert "- and 2 more" in run.stdout
        _, checks, _ = doctor_json(calc)
        assert len(checks["collection"]["only_pytest"]) == 12


class TestPytestCov:
    def test_an_interpreter_without_pytest_cov_warns(self, calc, tmp_path):
        env = {"IMPACT_PYTEST": pytest_without_cov(tmp_path)}
        run = doctor(calc, env=env)
        assert run.returncode == 1, run.stdout + run.stderr
        line = line_of(run.stdout, "pytest_cov")
        assert line.startswith("warn ") and "pytest-cov cannot be imported by /usr/bin/python3" in line
        assert "ModuleNotFoundError" in line
        assert "fix: install it where pytest runs: /usr/bin/python3 -m pip install pytest-cov" in run.stdout
        # The rest of the session's checks still pass in that environment.
        assert line_of(run.stdout, "imports").startswith("ok ")
        assert line_of(run.stdout, "collection").startswith("ok ")

    def test_no_pytest_at_all_fails_the_pytest_check(self, calc, tmp_path):
        missing = tmp_path / "nowhere" / "pytest"
        run = doctor(calc, "--pytest-command", json.dumps([str(missing)]))
        assert run.returncode == 1
        assert line_of(run.stdout, "pytest").startswith("fail ")


class TestConfigLocation:
    def test_a_pytest_ini_above_the_repository_warns(self, tmp_path):
        repo = make_repo(tmp_path / "outer" / "work", "doctor")
        repo.replace("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\"src\"]\n", "")
        repo.commit("no pytest section")
        (tmp_path / "outer" / "work" / "pytest.ini").write_text("[pytest]\npythonpath = repo/src\n")
        run = doctor(repo)
        assert run.returncode == 1
        line = line_of(run.stdout, "config_location")
        assert line.startswith("warn ")
        assert f"pytest reads its configuration from {tmp_path / 'outer' / 'work' / 'pytest.ini'}, outside the " \
               "repository" in line


class TestNonPython:
    def test_files_no_rule_bounds_are_listed_by_folder_with_the_fix(self, calc):
        calc.write("assets/logo.svg", "<svg/>\n")
        calc.write("assets/icons/up.svg", "<svg/>\n")
        calc.write("Makefile", "all:\n\ttrue\n")
        calc.commit("assets")
        run = doctor(calc)
        assert run.returncode == 1
        line = line_of(run.stdout, "non_python")
        assert line.startswith("warn ") and "3 file(s) that are not Python would run the whole suite" in line
        for folder in ("- (root) (1)", "- assets/ (2)"):
            assert folder in run.stdout
        assert "fix: if no test reads them, add their folders to [tool.impact] ignore" in run.stdout
        _, checks, _ = doctor_json(calc)
        assert checks["non_python"]["files"] == ["Makefile", "assets/icons/up.svg", "assets/logo.svg"]

    def test_ignored_and_quiet_files_pass(self, calc):
        calc.write("assets/logo.svg", "<svg/>\n")
        calc.write("docs/guide.md", "# guide\n")
        calc.write(".pre-commit-config.yaml", "repos: []\n")
        calc.replace("pyproject.toml", "[tool.pytest.ini_options]", '[tool.impact]\nignore = ["assets/**"]\n\n'
                                                                    "[tool.pytest.ini_options]")
        calc.commit("ignored")
        _, checks, _ = doctor_json(calc)
        assert checks["non_python"]["status"] == "ok", checks["non_python"]


class TestUsage:
    def test_an_unknown_format_is_a_usage_error(self, calc):
        run = calc.impact("doctor", "--format", "yaml")
        assert run.returncode == 2
        assert run.stderr == "impact: error: unknown format 'yaml'; use text or json\n"

    def test_outside_a_repository_exits_2(self, tmp_path):
        result = subprocess.run([IMPACT, "doctor", "-C", str(tmp_path)], capture_output=True, text=True,
                                env=clean_env())
        assert result.returncode == 2
        assert result.stderr.startswith("impact: error:")

    def test_help_comes_from_the_table(self, calc):
        run = calc.impact("doctor", "--help")
        assert run.returncode == 0
        assert "Check the project's setup" in run.stdout
        assert "--pytest-command" in run.stdout
