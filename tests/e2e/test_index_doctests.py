"""The coverage index and what static collection cannot name as a function (docs/coverage.md, "Which
tests the index names"): a doctest the index recorded stands for its file, a text doctest while pytest
still collects it, a module's doctest while the module still has examples; and a link to a file of the
repository counts as measured when the file it leads to was. Before, each of these made the index fall
back to the static answer for the whole change.
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
