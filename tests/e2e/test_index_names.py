"""The tests the coverage index names and the ones it cannot speak for (docs/coverage.md, "Per-file
rules"): a doctest the index recorded stands for its file, a text doctest while pytest still collects
it, a module's doctest while the module still has examples; a link to a file of the repository counts
as measured when the file it leads to was; and in a test file the index measured, only the tests that
left no coverage take the static answer. Before, each of these widened the answer to the static one,
for the whole change or for the whole test file.
"""
import os

import pytest

from harness import make_repo, selected_ids

OPS = "src/calc/ops.py"

DOCTESTS = {
    "pyproject.toml": (
        "[tool.pytest.ini_options]\n"
        'testpaths = ["tests", "src", "docs"]\n'
        'pythonpath = ["src"]\n'
        'addopts = "--doctest-modules --doctest-glob=*.txt"\n'
    ),
    "src/calc/__init__.py": "",
    OPS: "def double(x):\n    return 2 * x\n\n\ndef triple(x):\n    return 3 * x\n",
    # A module collected for its doctests: its one example runs double().
    "src/calc/api.py": (
        "from calc.ops import double\n\n\n"
        'def twice(x):\n    """\n    >>> twice(2)\n    4\n    """\n    return double(x)\n'
    ),
    # A text doctest: its example runs triple().
    "docs/usage.txt": ">>> from calc.ops import triple\n>>> triple(2)\n6\n",
    "tests/test_ops.py": (
        "from calc.ops import double, triple\n\n\n"
        "def test_double():\n    assert double(2) == 4\n\n\n"
        "def test_triple():\n    assert triple(1) == 3\n"
    ),
    # A computed getattr: the static analysis cannot tell it from a call of triple(); the index can.
    "tests/test_other.py": (
        "from calc import ops\n\n\n"
        'def test_getattr():\n    assert getattr(ops, "dou" + "ble")(1) == 2\n'
    ),
}


def entry(decision, path=OPS):
    return next(f for f in decision["changed_files"] if f["path"] == path)


def indexed(tmp_path_factory, name, files, links=()):
    repo = make_repo(tmp_path_factory.mktemp(name), files=files, commit=False)
    for link, target in links:
        os.symlink(target, repo.path / link)
    repo.commit("base")
    run = repo.impact("index")
    assert run.returncode == 0, run.stdout + run.stderr
    return repo


@pytest.fixture
def doctests(tmp_path_factory):
    return indexed(tmp_path_factory, "doctests", DOCTESTS)


def test_a_module_doctest_the_index_recorded_selects_its_module(doctests):
    doctests.replace(OPS, "    return 2 * x\n", "    return x + x\n")
    warm = doctests.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    # The doctests stay in by rule `collection` (their examples import the changed module); the
    # functions the index answers for are exactly the ones that ran double().
    assert selected_ids(warm) == ["docs/usage.txt", "src/calc/api.py", "tests/test_ops.py::test_double",
                                  "tests/test_other.py::test_getattr"]
    # The ids it runs are ones pytest collects: the run passes.
    run = doctests.impact("--changed")
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_text_doctest_the_index_recorded_selects_its_file(doctests):
    doctests.replace(OPS, "    return 3 * x\n", "    return x * 3\n")
    warm = doctests.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    # test_getattr, which the static answer holds for its computed getattr, never ran triple().
    assert selected_ids(warm) == ["docs/usage.txt", "src/calc/api.py", "tests/test_ops.py::test_triple"]
    assert "tests/test_other.py::test_getattr" in selected_ids(doctests.decide("--no-index"))
    run = doctests.impact("--changed")
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_text_doctest_pytest_no_longer_collects_is_a_missing_test(doctests):
    # The page is renamed out of --doctest-glob: the index's record of it names no test now.
    doctests.git("mv", "docs/usage.txt", "docs/usage.rst")
    doctests.commit("rename")
    doctests.replace(OPS, "    return 3 * x\n", "    return x * 3\n")
    warm = doctests.decide()
    assert entry(warm)["fallback"] == "tests_missing", entry(warm)
    assert selected_ids(warm) == selected_ids(doctests.decide("--no-index"))


LINKED = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src", "tests"]\n',
    "src/calc/__init__.py": "",
    OPS: DOCTESTS[OPS],
    "support/helper.py": "VALUE = 1\n",
    # conftest.py imports the helper through tests/helper.py, a link to support/helper.py.
    "tests/conftest.py": "from helper import VALUE\n",
    "tests/test_ops.py": DOCTESTS["tests/test_ops.py"],
    "tests/test_other.py": DOCTESTS["tests/test_other.py"],
}


def test_a_link_is_measured_as_the_file_it_leads_to(tmp_path_factory):
    # coverage.py records support/helper.py; before, the link tests/helper.py counted as a file that
    # changed since the index, and every test file under the conftest.py took the static answer.
    repo = indexed(tmp_path_factory, "linked", LINKED, links=[("tests/helper.py", "../support/helper.py")])
    repo.replace(OPS, "    return 3 * x\n", "    return x * 3\n")
    warm = repo.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    assert selected_ids(warm) == ["tests/test_ops.py::test_triple"]


SKIPPED = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/calc/__init__.py": "",
    OPS: DOCTESTS[OPS],
    "tests/test_ops.py": (
        "import sys\n\nimport pytest\n\nfrom calc import ops\n\n\n"
        "def test_double():\n    assert ops.double(2) == 4\n\n\n"
        '@pytest.mark.skipif(sys.version_info > (3,), reason="not here")\n'
        "def test_triple_skipped():\n    assert ops.triple(1) == 3\n\n\n"
        'def test_getattr():\n    assert getattr(ops, "dou" + "ble")(1) == 2\n'
    ),
}


def test_only_the_tests_that_left_no_coverage_take_the_static_answer(tmp_path_factory):
    repo = indexed(tmp_path_factory, "skipped", SKIPPED)
    repo.replace(OPS, "    return 3 * x\n", "    return x * 3\n")
    warm = repo.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    # No test ran triple(); the skipped test never ran at all, so its static answer stands. The static
    # answer also holds test_getattr (a computed getattr), which the index saw run without triple().
    assert selected_ids(warm) == ["tests/test_ops.py::test_triple_skipped"]
    assert "tests/test_ops.py::test_getattr" in selected_ids(repo.decide("--no-index"))


GENERATED = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/calc/__init__.py": "",
    OPS: DOCTESTS[OPS],
    "tests/cases.txt": "double-two 2 4\ntriple-one 1 3\n",
    # Tests made as the file is collected, from a data file: setattr() on a class, and a class bound
    # through globals(). Static collection sees neither; pytest collects them again from the same file.
    "tests/test_cases.py": (
        "import pathlib\nimport unittest\n\nfrom calc import ops\n\n\n"
        "class TestCases(unittest.TestCase):\n    pass\n\n\n"
        "def attach(cls, name, fn, x, want):\n"
        "    def method(self):\n        self.assertEqual(getattr(ops, fn)(x), want)\n"
        "    setattr(cls, 'test_' + name, method)\n\n\n"
        "for line in (pathlib.Path(__file__).parent / 'cases.txt').read_text().splitlines():\n"
        "    name, x, want = line.split()\n"
        "    attach(TestCases, name, 'double' if name.startswith('double') else 'triple', int(x), int(want))\n\n\n"
        "def made(fn):\n"
        "    class TestMade(unittest.TestCase):\n"
        "        def test_one(self):\n            self.assertEqual(getattr(ops, fn)(1), {'double': 2, 'triple': 3}[fn])\n"
        "    globals()['TestMade' + fn.title()] = TestMade\n\n\n"
        "made('double')\nmade('triple')\ndel made\n"
    ),
}


def test_tests_made_at_collection_are_run_by_their_recorded_ids(tmp_path_factory):
    # Before, the recorded ids were unknown to static collection: every change fell back to the static
    # answer (`tests_missing`), here the whole test file.
    repo = indexed(tmp_path_factory, "generated", GENERATED)
    repo.replace(OPS, "    return 3 * x\n", "    return 3 * x + 1\n")
    warm = repo.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    assert selected_ids(warm) == ["tests/test_cases.py::TestCases::test_triple-one",
                                  "tests/test_cases.py::TestMadeTriple::test_one"]
    assert selected_ids(repo.decide("--no-index")) == ["tests/test_cases.py"]
    run = repo.impact("--changed")  # pytest collects the ids again: both fail, none is "not found"
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed" in run.stdout, run.stdout


def test_tests_made_by_a_test_file_that_changed_since_the_index_are_missing(tmp_path_factory):
    repo = indexed(tmp_path_factory, "generated-drift", GENERATED)
    repo.replace("tests/test_cases.py", "made('triple')\n", "")
    repo.commit("no more TestMadeTriple")
    repo.replace(OPS, "    return 3 * x\n", "    return 3 * x + 1\n")
    warm = repo.decide()
    assert entry(warm)["fallback"] == "tests_missing", entry(warm)
    assert selected_ids(warm) == ["tests/test_cases.py"]


DATA_DRIVEN = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/calc/__init__.py": "",
    OPS: DOCTESTS[OPS] + "\n\ndef neg(x):\n    return -x\n",
    "tests/cases.json": '[["dbl", "double", 2, 4]]\n',
    "tests/test_cases.py": (
        "import json\nimport pathlib\n\nimport pytest\n\nfrom calc import ops\n\n"
        "CASES = json.loads((pathlib.Path(__file__).parent / 'cases.json').read_text())\n\n\n"
        "@pytest.mark.parametrize('name,fn,x,want', CASES, ids=[c[0] for c in CASES])\n"
        "def test_case(name, fn, x, want):\n    assert getattr(ops, fn)(x) == want\n"
    ),
}


def test_a_data_file_changed_since_the_index_gives_its_readers_the_static_answer(tmp_path_factory):
    # A case added after the index was built runs neg(), which no recorded test ran: the index alone
    # selected nothing.
    repo = indexed(tmp_path_factory, "data-drift", DATA_DRIVEN)
    repo.write("tests/cases.json", '[["dbl", "double", 2, 4], ["neg", "neg", 2, -2]]\n')
    repo.commit("a case for neg")
    repo.replace(OPS, "    return -x\n", "    return x\n")
    warm = repo.decide()
    assert (entry(warm)["source"], entry(warm)["fallback"]) == ("coverage", None), entry(warm)
    assert selected_ids(warm) == ["tests/test_cases.py::test_case"]


def test_a_parameter_id_gone_since_the_index_is_not_passed_beside_its_function(tmp_path_factory):
    # The index recorded test_case[dbl]; a commit after it renamed the case. Passing the recorded id
    # made pytest stop with "not found" (exit 4).
    repo = indexed(tmp_path_factory, "param-drift", DATA_DRIVEN)
    repo.write("tests/cases.json", '[["twice", "double", 2, 4]]\n')
    repo.commit("rename a case")
    repo.replace(OPS, "    return 2 * x\n", "    return 2 * x + 1\n")
    warm = repo.decide()
    assert selected_ids(warm) == ["tests/test_cases.py::test_case"]
    run = repo.impact("--changed")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "not found" not in run.stdout + run.stderr
