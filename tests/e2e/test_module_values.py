"""Module objects handed to code that does not import them (docs/selection.md `dynamic-access`,
`module_value`): `render_all([csv_fmt, json_fmt])` hands two modules to a function of another file,
which reads `m.render()` of each. That file names neither module, so it is no candidate of theirs;
its read of `.render` on a value still reaches the code that holds the modules, and so the test.
"""
import pytest

from harness import failed_tests, make_repo, selected_ids

READERS = {
    "parameter": "def render_all(modules):\n    out = []\n    for m in modules:\n        out.append(m.render())\n    return out\n",
    "comprehension": "def render_all(modules):\n    return [m.render() for m in modules]\n",
    "lambda": "def render_all(modules):\n    return list(map(lambda m: m.render(), modules))\n",
    "with": ("import contextlib\n\n\ndef render_all(modules):\n    out = []\n    for each in modules:\n"
             "        with contextlib.nullcontext(each) as m:\n            out.append(m.render())\n    return out\n"),
    "attribute of a value": ("class Box:\n    def __init__(self, mod):\n        self.mod = mod\n\n\n"
                             "def render_all(modules):\n    return [Box(each).mod.render() for each in modules]\n"),
}


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_module_handed_to_a_reader_that_does_not_import_it_selects_its_test(tmp_path, reader):
    repo = make_repo(tmp_path, files={
        "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        "pkg/__init__.py": "",
        "pkg/report.py": reader,
        "pkg/csv_fmt.py": 'def render():\n    return "csv"\n',
        "pkg/json_fmt.py": 'def render():\n    return "json"\n',
        "tests/test_report.py": ("from pkg import csv_fmt, json_fmt\nfrom pkg.report import render_all\n\n\n"
                                 'def test_all():\n    assert render_all([csv_fmt, json_fmt]) == ["csv", "json"]\n'),
        "tests/test_other.py": "def test_nothing():\n    assert True\n",
    })
    repo.replace("pkg/csv_fmt.py", '"csv"', '"CSV"')
    assert failed_tests(repo) == ["tests/test_report.py::test_all"]
    selected = selected_ids(repo.decide("--changed"))
    assert "tests/test_report.py::test_all" in selected
    assert "tests/test_other.py::test_nothing" not in selected


@pytest.mark.parametrize("mode", ["safe", "deletion"])
def test_such_a_reader_is_a_reader_itself_in_safe_mode_and_for_a_name_gone(tmp_path, mode):
    # In --mode safe every read of a value's attribute reads the name; a deleted name is read by every
    # user of it: the reader is reached, wherever it is, though it names no module it reads.
    repo = make_repo(tmp_path, files={
        "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        "pkg/__init__.py": "",
        "pkg/report.py": READERS["parameter"],
        "pkg/csv_fmt.py": 'def render():\n    return "csv"\n\n\ndef other():\n    return 1\n',
        "tests/test_report.py": ("from pkg import csv_fmt\nfrom pkg.report import render_all\n\n\n"
                                 'def test_all():\n    assert render_all([csv_fmt]) == ["csv"]\n'),
        "tests/test_other.py": "def test_nothing():\n    assert True\n",
    })
    if mode == "deletion":
        repo.replace("pkg/csv_fmt.py", 'def render():\n    return "csv"\n\n\n', "")
        args = ("--changed",)
    else:
        repo.replace("pkg/csv_fmt.py", '"csv"', '"CSV"')
        args = ("--changed", "--mode", "safe")
    assert failed_tests(repo) == ["tests/test_report.py::test_all"]
    decision = repo.decide(*args)
    chains = {s["node_id"]: [c["symbol"] for c in s["chain"]] for s in decision["selected"]}
    assert "tests/test_report.py::test_all" in chains
    assert "render_all" in chains["tests/test_report.py::test_all"]  # through the reader, not a holder
    assert "tests/test_other.py::test_nothing" not in chains
