"""A change that reaches many modules whose functions share their names (docs/performance.md, issue
17: the benchmark's core change): past a number of searches of one name, the walk looks only at the
files whose reads of it may denote the module searched, and at the files that read names otherwise
(an unknown value's attribute, a module's namespace, a string naming the module). These selections
must stay what a look at every importer gave; each reader below is found only after the switch.
"""
from harness import make_repo, selected_ids

MODULES = 30


def project():
    files = {"pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n', "pkg/__init__.py": ""}
    for k in range(MODULES):
        prev = f"from pkg import mod_{k - 1} as prev\n\n\n" if k else ""
        call = "prev.run() + " if k else ""
        files[f"pkg/mod_{k}.py"] = (f"{prev}def run():\n    return {call}1\n\n\n"
                                    f"def helper():\n    return {k}\n")
        files[f"tests/test_mod_{k}.py"] = (f"from pkg.mod_{k} import helper, run\n\n\n"
                                           f"def test_run():\n    assert run() == {k + 1}\n\n\n"
                                           f"def test_helper():\n    assert helper() == {k}\n")
    # Readers of the late modules, each a candidate of one module only.
    files["pkg/user.py"] = "from pkg import mod_25  # noqa: F401\n\n\ndef call_any(obj):\n    return obj.run()\n"
    files["pkg/names.py"] = "from pkg import mod_27\n\n\ndef listed():\n    return sorted(vars(mod_27))\n"
    files["pkg/quiet.py"] = "from pkg import mod_26\n\n\ndef total():\n    return mod_26.helper()\n"
    files["tests/test_user.py"] = ("from pkg.user import call_any\nfrom pkg import mod_3\n\n\n"
                                   "def test_any():\n    assert call_any(mod_3) == 4\n")
    files["tests/test_names.py"] = "from pkg.names import listed\n\n\ndef test_listed():\n    assert 'run' in listed()\n"
    files["tests/test_quiet.py"] = "from pkg.quiet import total\n\n\ndef test_total():\n    assert total() == 26\n"
    files["tests/test_patch.py"] = ("from unittest import mock\n\n\ndef test_patched():\n"
                                    "    with mock.patch('pkg.mod_28.run', return_value=0):\n        pass\n")
    return files


def test_a_name_searched_in_every_module_still_finds_every_kind_of_reader(tmp_path):
    repo = make_repo(tmp_path, files=project())
    repo.replace("pkg/mod_0.py", "    return 1\n", "    return 2\n")
    selected = set(selected_ids(repo.decide("--changed", "--budget-ms", "0")))
    runs = {f"tests/test_mod_{k}.py::test_run" for k in range(MODULES)}
    assert runs <= selected
    assert {"tests/test_user.py::test_any", "tests/test_names.py::test_listed"} <= selected
    assert any(s.startswith("tests/test_patch.py") for s in selected)
    # helper() of every module, and the module that reads mod_26.helper only, are not reached.
    assert not any(s.endswith("::test_helper") for s in selected)
    assert "tests/test_quiet.py::test_total" not in selected
