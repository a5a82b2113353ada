"""The coverage index at block level (docs/coverage.md, "Block level"), end to end with a real index:
a change inside a function body of the indexed version is answered by the tests whose call phase ran
any line of that body; a body run at import or in a fixture, a signature, a generator or a coroutine
falls back to the static answer; a body no test ran selects nothing only when the index saw the whole
suite. Each rule of the docs has a test here that fails if the rule breaks.
"""
import shutil
import time

import pytest

from harness import answer_for, failed_tests, indexed_repo, make_repo, selected_ids

GEO = "src/shapes/geo.py"

BLOCKS = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/shapes/__init__.py": "",
    GEO: (
        "def area(r):\n"                      # 1
        "    if r < 0:\n"                     # 2
        "        raise ValueError(r)\n"       # 3
        "    return 3 * r * r\n"              # 4
        "\n"                                  # 5
        "\n"                                  # 6
        "def perimeter(r):\n"                 # 7
        "    return 6 * r\n"                  # 8
        "\n"                                  # 9
        "\n"                                  # 10
        "def unused():\n"                     # 11
        "    return 0\n"                      # 12
        "\n"                                  # 13
        "\n"                                  # 14
        "def loaded():\n"                     # 15
        '    return {"a": 1}\n'               # 16
        "\n"                                  # 17
        "\n"                                  # 18
        "def counter(n):\n"                   # 19
        "    for i in range(n):\n"            # 20
        "        yield i\n"                   # 21
        "\n"                                  # 22
        "\n"                                  # 23
        "async def fetch():\n"                # 24
        "    return 1\n"                      # 25
        "\n"                                  # 26
        "\n"                                  # 27
        "def make_adder(k):\n"                # 28
        "    def add(x):\n"                   # 29
        "        return x + k\n"              # 30
        "    return add\n"                    # 31
        "\n"                                  # 32
        "\n"                                  # 33
        "ADD_TWO = make_adder(2)\n"           # 34
        "\n"                                  # 35
        "\n"                                  # 36
        "class Box:\n"                        # 37
        "    def __init__(self, w):\n"        # 38
        "        self.w = w\n"                # 39
        "\n"                                  # 40
        "    @property\n"                     # 41
        "    def width(self):\n"              # 42
        "        return self.w\n"             # 43
        "\n"                                  # 44
        "\n"                                  # 45
        "def clamp(r):\n"                     # 46
        "    if r > 100:\n"                   # 47
        "        return 100\n"                # 48
        "    return r\n"                      # 49
    ),
    "tests/test_clamp.py": "from shapes.geo import clamp\n\n\ndef test_clamp():\n    assert clamp(5) == 5\n",
    "tests/conftest.py": (
        "import pytest\n\nfrom shapes import geo\n\n\n"
        '@pytest.fixture(scope="session")\ndef table():\n    return geo.loaded()\n'
    ),
    "tests/test_area.py": (
        "import pytest\n\nfrom shapes.geo import area\n\n\n"
        "def test_area():\n    assert area(2) == 12\n\n\n"
        "def test_negative():\n    with pytest.raises(ValueError):\n        area(-1)\n"
    ),
    "tests/test_perimeter.py": "from shapes.geo import perimeter\n\n\ndef test_perimeter():\n    assert perimeter(1) == 6\n",
    # A computed getattr: the static analysis cannot tell which function it calls, the index can.
    "tests/test_dynamic.py": (
        "from shapes import geo\n\n\n"
        'def test_dynamic():\n    assert getattr(geo, "peri" + "meter")(2) == 12\n'
    ),
    "tests/test_loaded.py": 'def test_loaded(table):\n    assert table["a"] == 1\n',
    "tests/test_counter.py": "from shapes.geo import counter\n\n\ndef test_counter():\n    assert list(counter(3)) == [0, 1, 2]\n",
    "tests/test_fetch.py": (
        "import asyncio\n\nfrom shapes.geo import fetch\n\n\n"
        "def test_fetch():\n    assert asyncio.run(fetch()) == 1\n"
    ),
    "tests/test_adder.py": (
        "from shapes.geo import ADD_TWO, make_adder\n\n\n"
        "def test_add_two():\n    assert ADD_TWO(1) == 3\n\n\n"
        "def test_make_adder():\n    assert make_adder(1)(1) == 2\n"
    ),
    "tests/test_box.py": "from shapes.geo import Box\n\n\ndef test_width():\n    assert Box(3).width == 3\n",
}

AREA_TESTS = ["tests/test_area.py::test_area", "tests/test_area.py::test_negative"]


def build_index(repo, *args):
    run = repo.impact("index", *args)
    assert run.returncode == 0, run.stdout + run.stderr
    return run


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    repo = make_repo(tmp_path_factory.mktemp("blocks"), files=BLOCKS)
    build_index(repo)
    return repo


@pytest.fixture
def geo(template, tmp_path):
    path = tmp_path / "repo"
    shutil.copytree(template.path, path, symlinks=True)
    return type(template)(path)


def entry(decision, path=GEO):
    return next(f for f in decision["changed_files"] if f["path"] == path)


def answered_by_index(repo):
    warm = repo.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    return warm


def falls_back(repo, reason):
    warm, cold = repo.decide(), repo.decide("--no-index")
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("static", reason), entry(warm)
    assert selected_ids(warm) == selected_ids(cold)
    return warm


# --- the unit is the body ----------------------------------------------------------------------------

def test_an_inserted_line_selects_the_tests_that_ran_its_body(geo):
    # Before the block rule every inserted line fell back (`insertion`); the static answer also holds
    # test_dynamic (a computed getattr over the module), which never ran area().
    geo.replace(GEO, "    return 3 * r * r\n", "    r = abs(r)\n    return 3 * r * r\n")
    warm = answered_by_index(geo)
    assert selected_ids(warm) == AREA_TESTS
    assert "tests/test_dynamic.py::test_dynamic" in selected_ids(geo.decide("--no-index"))


def test_a_replaced_line_that_ran_selects_exactly_the_tests_that_ran_it(geo):
    # Line 3 ran for test_negative only: a line replaced in place keeps the line-level answer.
    geo.replace(GEO, "        raise ValueError(r)\n", "        raise TypeError(r)\n")
    assert selected_ids(answered_by_index(geo)) == ["tests/test_area.py::test_negative"]


def test_a_line_no_test_ran_is_answered_by_the_tests_of_its_body(geo):
    # No test clamps: the body's unit gives the test that entered clamp().
    geo.replace(GEO, "        return 100\n", "        return 99\n")
    assert selected_ids(answered_by_index(geo)) == ["tests/test_clamp.py::test_clamp"]


def test_a_nested_function_is_its_own_body_and_runs_for_whoever_calls_it(geo):
    # make_adder ran at import (ADD_TWO), add() only in the two tests that call an adder.
    geo.replace(GEO, "        return x + k\n", "        return k + x\n")
    assert selected_ids(answered_by_index(geo)) == ["tests/test_adder.py::test_add_two",
                                                    "tests/test_adder.py::test_make_adder"]


def test_a_property_body_selects_the_tests_that_read_it(geo):
    geo.replace(GEO, "        return self.w\n", "        return self.w + 0\n")
    assert selected_ids(answered_by_index(geo)) == ["tests/test_box.py::test_width"]


def test_a_comment_inserted_in_a_body_runs_nowhere_but_the_code_beside_it_counts(geo):
    geo.replace(GEO, "    return 6 * r\n", "    # six sides\n    return 6 * r + 0\n")
    assert selected_ids(answered_by_index(geo)) == ["tests/test_dynamic.py::test_dynamic",
                                                    "tests/test_perimeter.py::test_perimeter"]


# --- what falls back ---------------------------------------------------------------------------------

def test_a_body_run_at_import_falls_back(geo):
    geo.replace(GEO, "    return add\n", "    k = k + 0\n    return add\n")
    falls_back(geo, "outside_tests")


def test_a_body_run_in_a_fixture_falls_back(geo):
    geo.replace(GEO, '    return {"a": 1}\n', '    return {"a": 1, "b": 2}\n')
    falls_back(geo, "outside_tests")


def test_a_signature_change_falls_back(geo):
    geo.replace(GEO, "def perimeter(r):\n", "def perimeter(r, sides=6):\n")
    falls_back(geo, "not_implementation")


def test_code_appended_at_module_level_after_a_body_falls_back(geo):
    geo.replace(GEO, "    return 6 * r\n", "    return 6 * r\n\n\nSIDES = 6\n")
    assert entry(geo.decide())["source"] == "static"


def test_code_moved_out_of_a_nested_body_falls_back(geo):
    geo.replace(GEO, "        return x + k\n", "        x = x + 0\n    return add\n    return add\n")
    falls_back(geo, "dedent")


def test_a_generators_body_is_answered_by_an_index_of_arcs(geo):
    geo.replace(GEO, "        yield i\n", "        yield i\n        print(i)\n")
    assert selected_ids(answered_by_index(geo)) == ["tests/test_counter.py::test_counter"]


@pytest.mark.parametrize("old,new", [
    ("async def fetch():\n    return 1\n", "async def fetch():\n    x = 1\n    return x\n"),
    ("        yield i\n", "        yield i\n        yield i\n"),
    ("        yield i\n", "        return i\n"),
], ids=["async_def", "a_yield_added", "a_yield_removed"])
def test_a_body_that_may_resume_without_an_arc_falls_back(geo, old, new):
    geo.replace(GEO, old, new)
    falls_back(geo, "runs_later")


# A generator object shared between tests: test_end resumes it after its last yield and runs no line
# of it. Line data records nothing of the body for test_end; arcs record its exit from line 3.
SHARED = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pump.py": "def two():\n    yield 1\n    yield 2\n\n\nSHARED = two()\n",
    "tests/test_a.py": "from pump import SHARED\n\n\ndef test_first():\n    assert [next(SHARED), next(SHARED)] == [1, 2]\n",
    "tests/test_b.py": (
        "import pytest\n\nfrom pump import SHARED\n\n\n"
        "def test_end():\n    with pytest.raises(StopIteration):\n        next(SHARED)\n"
    ),
}
SHARED_TESTS = ["tests/test_a.py::test_first", "tests/test_b.py::test_end"]


def break_after_the_last_yield(repo):
    repo.replace("pump.py", "    yield 2\n", '    yield 2\n    raise RuntimeError("late")\n')
    assert "1 failed, 1 passed" in repo.pytest().stdout  # test_end now breaks


def test_a_test_that_resumes_a_shared_generator_after_its_last_yield_is_selected(tmp_path):
    repo = make_repo(tmp_path, files=SHARED)
    build_index(repo)
    break_after_the_last_yield(repo)
    warm = repo.decide()
    assert (entry(warm, "pump.py")["source"], entry(warm, "pump.py")["fallback"]) == ("coverage", None)
    assert selected_ids(warm) == SHARED_TESTS


def test_an_index_of_lines_keeps_the_static_answer_for_a_generator(tmp_path):
    repo = make_repo(tmp_path, files=SHARED)
    time.sleep(2.1)  # a commit within a second of the data file may be later than it (the trust rule)
    assert repo.pytest("--cov=.", "--cov-context=test", "--cov-report=").returncode == 0
    build_index(repo, "--from", ".coverage")
    (repo.path / ".coverage").unlink()
    break_after_the_last_yield(repo)
    warm = repo.decide()
    assert (entry(warm, "pump.py")["source"], entry(warm, "pump.py")["fallback"]) == ("static", "runs_later")
    assert selected_ids(warm) == ["tests/test_a.py", "tests/test_b.py"]  # line data alone: test_first only
    assert repo.impact("index", "status", "--format", "json").json["arcs"] is False


# --- a body no test ran ------------------------------------------------------------------------------

def test_a_body_no_test_ran_selects_nothing_with_a_whole_suite_index(geo):
    status = geo.impact("index", "status", "--format", "json").json
    assert status["whole_suite"] is True, status
    assert "suite: whole" in geo.impact("index", "status").stdout
    geo.replace(GEO, "    return 0\n", "    return 1\n")
    warm = answered_by_index(geo)
    assert selected_ids(warm) == []
    assert warm["decision"] == "nothing"


@pytest.mark.parametrize("args,why", [
    (["-k", "area or perimeter"], "-k was given"),
    (["tests/test_area.py"], "the arguments name a part of the suite"),
    (["--deselect", "tests/test_box.py::test_width"], "--deselect was given"),
], ids=["keyword", "paths", "deselect"])
def test_a_body_no_test_ran_falls_back_when_the_index_saw_part_of_the_suite(tmp_path, args, why):
    repo = make_repo(tmp_path, files=BLOCKS)
    run = build_index(repo, "--", *args)
    assert "the index did not see the whole suite" in run.stderr, run.stderr
    status = repo.impact("index", "status", "--format", "json").json
    assert status["whole_suite"] is False
    assert why in status["partial"], status
    assert f"suite: partial: {why}" in repo.impact("index", "status").stdout
    repo.replace(GEO, "    return 0\n", "    return 1\n")
    warm = repo.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("static", "unrecorded"), entry(warm)


def test_a_collection_error_makes_the_index_partial(tmp_path):
    files = dict(BLOCKS)
    files["tests/test_broken.py"] = "import no_such_module_here\n"
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index", "--", "--continue-on-collection-errors")
    assert run.returncode != 0
    status = repo.impact("index", "status", "--format", "json").json
    assert status["whole_suite"] is False
    assert "collection error" in status["partial"], status


# --- trust: explain and --mode safe ------------------------------------------------------------------

def test_explain_says_the_index_excluded_a_test(geo):
    geo.replace(GEO, "    return 3 * r * r\n", "    r = abs(r)\n    return 3 * r * r\n")
    run = geo.impact("explain", "tests/test_dynamic.py::test_dynamic")
    assert f"the coverage index shows this test never ran line(s) 2-4 of {GEO} at its recorded state" in run.stdout, \
        run.stdout + run.stderr


def test_safe_mode_never_lets_the_index_remove_a_test_the_static_analysis_selects(geo):
    geo.replace(GEO, "    return 3 * r * r\n", "    return 3 * r * r + 0\n")
    static = selected_ids(geo.decide("--no-index", "--mode", "safe"))
    safe = geo.decide("--mode", "safe")
    assert "tests/test_dynamic.py::test_dynamic" in static
    assert set(static) <= set(selected_ids(safe))
    assert (entry(safe)["source"], entry(safe)["fallback"]) == ("static", "safe_mode")
    # balanced mode narrows with the index: the replaced line ran for test_area only
    assert selected_ids(geo.decide()) == ["tests/test_area.py::test_area"]


# --- tests pytest collects by inheritance ------------------------------------------------------------

INHERITED = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/calc.py": "def double(n):\n    return 2 * n\n",
    "tests/test_base.py": (
        "from calc import double\n\n\n"
        "class TestDouble:\n    def test_two(self):\n        assert double(1) == 2\n"
    ),
    # pytest collects TestDouble again here, as tests/test_again.py::TestDouble::test_two.
    "tests/test_again.py": "from test_base import TestDouble\n\n\ndef test_other():\n    assert True\n",
    # and a unittest TestCase that inherits its test method from a mixin.
    "tests/test_mixin.py": (
        "import unittest\n\nfrom calc import double\n\n\n"
        "class Mixin:\n    def test_four(self):\n        self.assertEqual(double(2), 4)\n\n\n"
        "class DoubleTest(Mixin, unittest.TestCase):\n    pass\n"
    ),
}


def test_tests_collected_by_inheritance_still_exist_for_the_index(tmp_path):
    repo = make_repo(tmp_path, files=INHERITED)
    build_index(repo)
    repo.replace("src/calc.py", "    return 2 * n\n", "    return n + n\n")
    warm = repo.decide()
    got = entry(warm, "src/calc.py")
    assert (got["source"], got["fallback"]) == ("coverage", None), got
    assert selected_ids(warm) == ["tests/test_again.py::TestDouble::test_two",
                                  "tests/test_base.py::TestDouble::test_two",
                                  "tests/test_mixin.py::DoubleTest::test_four"]


def test_a_pytest_command_that_drops_pythonpath_still_builds_a_partial_index(tmp_path):
    # tox and other wrappers may not pass PYTHONPATH through: the probe cannot load there.
    repo = make_repo(tmp_path, files=BLOCKS)
    wrapper = tmp_path / "wrapped-pytest"
    wrapper.write_text('#!/bin/sh\nunset PYTHONPATH\nexec /usr/bin/python3 -m pytest "$@"\n')
    wrapper.chmod(0o755)
    run = repo.impact("index", env={"IMPACT_PYTEST": str(wrapper)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "pytest did not load the whole-suite probe; running the suite without it" in run.stderr
    status = repo.impact("index", "status", "--format", "json").json
    assert (status["whole_suite"], status["partial"]) == (False, "the whole-suite probe did not load")


# --- computed imports: the index saw what they loaded ------------------------------------------------

LOADER = {
    # No src/ folder: coverage.py hashes the modules of a package no test loads (spare.py) as measured
    # with no line run; under src/, which is no package, it would not see them (not_indexed).
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "plugs/__init__.py": "",
    # An unbounded computed import: statically, it may load any module of the repository.
    "plugs/loader.py": "import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n",
    "plugs/alpha.py": "def run():\n    return 1\n",
    "plugs/spare.py": "def run():\n    return 2\n",  # no test loads it
    "tests/test_load.py": 'from plugs.loader import load\n\n\ndef test_alpha():\n    assert load("plugs.alpha").run() == 1\n',
    "tests/test_plain.py": "from plugs.loader import load\n\n\ndef test_plain():\n    assert callable(load)\n",
}


@pytest.fixture
def plugs(tmp_path):
    repo = make_repo(tmp_path, files=LOADER)
    build_index(repo)
    return repo


def test_a_computed_import_the_index_saw_load_nothing_selects_no_test(plugs):
    plugs.replace("plugs/spare.py", "    return 2\n", "    return 3\n")
    cold = plugs.decide("--no-index")
    assert sorted(selected_ids(cold)) == ["tests/test_load.py", "tests/test_plain.py"], cold["selected"]
    warm = plugs.decide()
    assert entry(warm, "plugs/spare.py")["source"] == "coverage"
    assert selected_ids(warm) == [] and warm["decision"] == "nothing"


def test_a_module_a_computed_import_loaded_selects_the_tests_that_ran_it(plugs):
    plugs.replace("plugs/alpha.py", "    return 1\n", "    return 1 + 0\n")
    assert selected_ids(plugs.decide()) == ["tests/test_load.py::test_alpha"]


def test_a_test_file_changed_since_the_index_keeps_the_computed_import_answer(plugs):
    plugs.replace("tests/test_plain.py", "assert callable(load)", "assert callable(load) is True")
    plugs.commit("test_plain changed after the index")
    plugs.replace("plugs/spare.py", "    return 2\n", "    return 3\n")
    # test_plain.py differs from what the index measured; test_load.py's computed import may load it.
    assert sorted(selected_ids(plugs.decide())) == ["tests/test_load.py", "tests/test_plain.py"]


# --- files the suite never loaded --------------------------------------------------------------------

def test_a_module_level_change_to_a_file_the_suite_never_loaded_selects_no_test(plugs):
    plugs.replace("plugs/spare.py", "def run():\n", "LIMIT = 3\n\n\ndef run():\n")
    assert sorted(selected_ids(plugs.decide("--no-index"))) == ["tests/test_load.py", "tests/test_plain.py"]
    warm = plugs.decide()
    got = entry(warm, "plugs/spare.py")
    assert (got["source"], got["fallback"]) == ("coverage", None), got
    assert warm["decision"] == "nothing", warm["selected"]


def test_a_module_level_change_to_a_loaded_file_keeps_the_static_answer(plugs):
    plugs.replace("plugs/alpha.py", "def run():\n", "LIMIT = 3\n\n\ndef run():\n")
    warm = plugs.decide()
    assert entry(warm, "plugs/alpha.py")["fallback"] == "not_implementation"
    assert sorted(selected_ids(warm)) == ["tests/test_load.py", "tests/test_plain.py"]


def test_a_file_never_loaded_keeps_the_static_answer_when_the_index_saw_part_of_the_suite(tmp_path):
    repo = make_repo(tmp_path, files=LOADER)
    build_index(repo, "--", "-k", "alpha")
    repo.replace("plugs/spare.py", "def run():\n", "LIMIT = 3\n\n\ndef run():\n")
    assert entry(repo.decide(), "plugs/spare.py")["fallback"] == "not_implementation"


EARLY = dict(LOADER)
EARLY.update({
    # A plugin named by -p is imported before pytest-cov starts coverage.py: none of its lines is
    # recorded, though every test ran after it.
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\naddopts = "-p plugs.early"\n',
    "plugs/early.py": 'import os\n\nos.environ["PLUGS_MODE"] = "fast"\n',
    "tests/test_mode.py": 'import os\n\n\ndef test_mode():\n    assert os.environ["PLUGS_MODE"] == "fast"\n',
})


def test_a_module_loaded_before_coverage_started_is_not_taken_for_one_never_loaded(tmp_path):
    repo = make_repo(tmp_path, files=EARLY)
    # `python -m pytest` puts the repository on sys.path before -p imports the plugin.
    wrapper = tmp_path / "module-pytest"
    wrapper.write_text('#!/bin/sh\nexec /usr/bin/python3 -m pytest "$@"\n')
    wrapper.chmod(0o755)
    run = repo.impact("index", env={"IMPACT_PYTEST": str(wrapper)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert repo.impact("index", "status", "--format", "json").json["loaded"] is True
    repo.replace("plugs/early.py", '"fast"', '"slow"')
    assert "1 failed" in repo.pytest().stdout
    warm = repo.decide()
    assert entry(warm, "plugs/early.py")["source"] == "static"
    assert "tests/test_mode.py" in selected_ids(warm)


def test_xdist_workers_report_what_they_loaded(tmp_path):
    repo = make_repo(tmp_path, files=EARLY)
    wrapper = tmp_path / "module-pytest"
    wrapper.write_text('#!/bin/sh\nexec /usr/bin/python3 -m pytest "$@"\n')
    wrapper.chmod(0o755)
    run = repo.impact("index", "--", "-n", "2", env={"IMPACT_PYTEST": str(wrapper)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert repo.impact("index", "status", "--format", "json").json["loaded"] is True
    repo.replace("plugs/early.py", '"fast"', '"slow"')
    assert "tests/test_mode.py" in selected_ids(repo.decide())
    repo.replace("plugs/early.py", '"slow"', '"fast"')
    repo.replace("plugs/spare.py", "def run():\n", "LIMIT = 3\n\n\ndef run():\n")
    assert repo.decide()["decision"] == "nothing"


# --- results kept in module-level data ---------------------------------------------------------------

LAZY = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    # compute() runs for the first test only; the second reads its result from the cache.
    "pkg/lazy.py": (
        "_cache = {}\n\n\ndef compute(key):\n    return key * 2\n\n\n"
        "def get(key):\n    if key not in _cache:\n        _cache[key] = compute(key)\n    return _cache[key]\n\n\n"
        "def other(key):\n    return key\n"
    ),
    "tests/test_lazy.py": (
        "from pkg.lazy import get, other\n\n\ndef test_first():\n    assert get(2) == 4\n\n\n"
        "def test_second():\n    assert get(2) == 4\n\n\ndef test_other():\n    assert other(1) == 1\n"
    ),
}


def test_a_function_whose_result_a_caller_caches_selects_the_tests_that_ran_the_caller(tmp_path):
    repo = make_repo(tmp_path, files=LAZY)
    build_index(repo)
    repo.replace("pkg/lazy.py", "    return key * 2\n", "    return key * 3\n")
    assert "2 failed" in repo.pytest().stdout  # test_second reads the cached result
    warm = repo.decide()
    assert entry(warm, "pkg/lazy.py")["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_lazy.py::test_first", "tests/test_lazy.py::test_second"]


# A caller that reads only module-level data no code can change keeps no result: `format_all` names
# `compute` but reads a constant tuple, dict and mapping view, so the tests that ran `format_all` without running `compute`
# are not added.
CONSTANT = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    "pkg/fmt.py": (
        "from types import MappingProxyType\n\n"
        "ARRAY_TYPES = (list, tuple)\nSEPARATORS = {'list': ', ', 'tuple': '; '}\n"
        "SIGNS = MappingProxyType({'-': 'minus '})\n\n\n"
        "def compute(value):\n    return str(value * 2)\n\n\n"
        "def format_all(value):\n"
        "    if isinstance(value, ARRAY_TYPES):\n"
        "        return SEPARATORS.get(type(value).__name__, ',').join(compute(v) for v in value)\n"
        "    text = str(value)\n"
        "    return SIGNS.get(text[0], text[0]) + text[1:]\n"
    ),
    "tests/test_fmt.py": (
        "from pkg.fmt import format_all\n\n\ndef test_list():\n    assert format_all([1, 2]) == '2, 4'\n\n\n"
        "def test_plain():\n    assert format_all(3) == '3'\n"
    ),
}


def test_a_caller_reading_only_constant_module_data_adds_no_tests(tmp_path):
    repo = make_repo(tmp_path, files=CONSTANT)
    build_index(repo)
    repo.replace("pkg/fmt.py", "    return str(value * 2)\n", "    return str(value * 3)\n")
    warm = repo.decide()
    assert entry(warm, "pkg/fmt.py")["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_fmt.py::test_list"]


# The same table, filled by another module: no longer constant, so the caller's tests are added.
def test_module_data_another_file_stores_into_is_no_constant(tmp_path):
    files = dict(LAZY)
    files["pkg/lazy.py"] = (
        "from pkg import store\n\n_cache = {}\n\n\ndef compute(key):\n    return key * 2\n\n\n"
        "def get(key):\n    if key in _cache:\n        return _cache[key]\n"
        "    value = compute(key)\n    store.remember(key, value)\n    return value\n\n\n"
        "def other(key):\n    return key\n"
    )
    files["pkg/store.py"] = "def remember(key, value):\n    from pkg import lazy\n    lazy._cache[key] = value\n"
    repo = make_repo(tmp_path, files=files)
    build_index(repo)
    repo.replace("pkg/lazy.py", "    return key * 2\n", "    return key * 3\n")
    assert "2 failed" in repo.pytest().stdout  # test_second reads the stored result
    warm = repo.decide()
    assert entry(warm, "pkg/lazy.py")["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_lazy.py::test_first", "tests/test_lazy.py::test_second"]


# Line by line, and where a line's answer needs more than its own coverage (probe round 69).
def indexed_two_files(tmp_path, source, tests_a, tests_b):
    return indexed_repo(tmp_path, {
        "pyproject.toml": BLOCKS["pyproject.toml"], "src/pkg/__init__.py": "", "src/pkg/calc.py": source,
        "tests/test_a.py": tests_a, "tests/test_b.py": tests_b,
    })


def covers(decision, test):
    return any(test == s or test.startswith(s + "::") for s in selected_ids(decision))


def test_a_continuation_line_is_answered_by_every_line_of_its_statement(tmp_path):
    # The test that divides by zero raises on the statement's third line: it never records the first.
    repo = indexed_two_files(
        tmp_path, "def share(total, n):\n    part = (\n        total\n        / n\n    )\n    return part\n",
        "from pkg.calc import share\n\n\ndef test_share():\n    assert share(10, 2) == 5\n",
        "import pytest\n\nfrom pkg.calc import share\n\n\ndef test_zero():\n    with pytest.raises(ZeroDivisionError):\n"
        "        share(10, 0)\n")
    repo.replace("src/pkg/calc.py", "        / n\n", "        / (n or 1)\n")
    assert failed_tests(repo) == ["tests/test_b.py::test_zero"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/calc.py") == ("coverage", None)
    assert covers(warm, "tests/test_b.py::test_zero")


def test_elif_made_if_is_answered_by_the_whole_body(tmp_path):
    # `elif` made `if` runs after the first branch too: a test that only took the first branch breaks.
    repo = indexed_two_files(
        tmp_path, "def tier(n):\n    name = 'low'\n    if n >= 10:\n        name = 'high'\n    elif n >= 5:\n"
                  "        name = 'mid'\n    return name\n",
        "from pkg.calc import tier\n\n\ndef test_high():\n    assert tier(20) == 'high'\n",
        "from pkg.calc import tier\n\n\ndef test_mid():\n    assert tier(7) == 'mid'\n")
    repo.replace("src/pkg/calc.py", "    elif n >= 5:\n", "    if n >= 5:\n")
    assert failed_tests(repo) == ["tests/test_a.py::test_high"]
    assert covers(repo.decide(), "tests/test_a.py::test_high")


def test_code_added_to_a_body_of_only_a_docstring_keeps_the_static_answer(tmp_path):
    # coverage.py records no line of `def on_start(self): """Override."""` for any caller.
    repo = indexed_two_files(
        tmp_path, "class Hooks:\n    def __init__(self):\n        self.events = []\n\n    def on_start(self):\n"
                  "        \"\"\"Override to prepare.\"\"\"\n\n    def run(self):\n        self.on_start()\n        return self.events\n",
        "from pkg.calc import Hooks\n\n\ndef test_run():\n    assert Hooks().run() == []\n",
        "def test_other():\n    assert True\n")
    repo.replace("src/pkg/calc.py", "        \"\"\"Override to prepare.\"\"\"\n",
                 "        \"\"\"Override to prepare.\"\"\"\n        self.events.append('start')\n")
    assert failed_tests(repo) == ["tests/test_a.py::test_run"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/calc.py") == ("static", "unrecorded")
    assert covers(warm, "tests/test_a.py::test_run")


def test_a_line_indented_into_the_loop_before_it_is_answered_by_the_whole_body(tmp_path):
    # Moved into the loop, the raise runs on the first iteration: a test that returned on a later one
    # never ran the old line.
    repo = indexed_two_files(
        tmp_path, "def index_of(xs, t):\n    for i, x in enumerate(xs):\n        if x == t:\n            return i\n"
                  "    raise KeyError(t)\n",
        "from pkg.calc import index_of\n\n\ndef test_later():\n    assert index_of([1, 5], 5) == 1\n",
        "import pytest\n\nfrom pkg.calc import index_of\n\n\ndef test_missing():\n    with pytest.raises(KeyError):\n"
        "        index_of([1], 5)\n")
    repo.replace("src/pkg/calc.py", "    raise KeyError(t)\n", "        raise KeyError(t)\n")
    assert failed_tests(repo) == ["tests/test_a.py::test_later"]
    assert covers(repo.decide(), "tests/test_a.py::test_later")


def test_a_function_a_plugin_runs_before_coverage_starts_keeps_the_static_answer(tmp_path):
    # pytest imports a -p plugin and runs its pytest_addoption before pytest-cov starts coverage.py:
    # no line of the plugin, nor of the helper its ini default calls, is recorded for anyone.
    repo = make_repo(tmp_path, files={
        "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "-p tests.levels"\n',
        "pkg/__init__.py": "",
        "pkg/defaults.py": "def default_level():\n    return '3'\n",
        "tests/__init__.py": "",
        "tests/levels.py": "def pytest_addoption(parser):\n    from pkg.defaults import default_level\n\n"
                           "    parser.addini('level', 'a level', default=default_level())\n",
        "tests/test_level.py": "def test_level(request):\n    assert request.config.getini('level') == '3'\n",
    })
    repo.env = {"PYTHONPATH": "."}  # `impact index` runs pytest's script, which puts no folder on sys.path
    run = repo.impact("index")
    assert run.returncode == 0, run.stdout + run.stderr
    repo.replace("pkg/defaults.py", "return '3'", "return '4'")
    assert failed_tests(repo) == ["tests/test_level.py::test_level"]
    warm = repo.decide()
    assert answer_for(warm, "pkg/defaults.py") == ("static", "outside_tests")
    assert covers(warm, "tests/test_level.py::test_level")
