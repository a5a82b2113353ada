"""Names a function is also known by (docs/selection.md `re-exports`): `from x import f as g` in one
module, `from that import g as h` in the next, followed in rounds, including an alias bound in a file
that comes (in path order) before the file that makes the name it renames. The walk indexes renamed
imports by name (docs/performance.md, issue 17); these selections must stay what a scan of every
importer gave.
"""
from harness import make_repo, selected_ids

FILES = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "pkg/__init__.py": "",
    "pkg/a.py": "def f():\n    return 1\n\n\ndef other():\n    return 2\n",
    # b renames f, and renames k, which d makes later in path order: found in the second round.
    "pkg/b.py": "from pkg.a import f as g\nfrom pkg.d import k as kk\n",
    "pkg/c.py": "from pkg.b import g as h\n\n\ndef use():\n    return h()\n",
    "pkg/d.py": "from pkg.c import h as k\nfrom pkg.a import f as f2\n\n\ndef run():\n    return f2()\n",
    "pkg/e.py": "from pkg.b import kk\n\n\ndef chain():\n    return kk()\n",
    "tests/test_x.py": "from pkg.d import k\n\n\ndef test_k():\n    assert k()\n",
    "tests/test_y.py": "from pkg.c import use\n\n\ndef test_use():\n    assert use()\n",
    "tests/test_z.py": "import pkg.a\n\n\ndef test_other():\n    assert pkg.a.other()\n",
    "tests/test_w.py": ("from pkg.e import chain\nfrom pkg.d import run\n\n\ndef test_chain():\n    assert chain()\n\n\n"
                        "def test_run():\n    assert run()\n"),
}


def test_a_function_body_reaches_the_users_of_every_alias_in_the_chain(tmp_path):
    repo = make_repo(tmp_path, files=FILES)
    repo.replace("pkg/a.py", "    return 1\n", "    return 3\n")
    decision = repo.decide("--changed", "--budget-ms", "0")
    assert selected_ids(decision) == [
        "tests/test_w.py::test_chain",  # kk: an alias of k, which is made after b renames it
        "tests/test_w.py::test_run",    # f2
        "tests/test_x.py::test_k",      # f -> g -> h -> k
        "tests/test_y.py::test_use",    # h
    ]  # test_other calls other(), which did not change


def test_the_function_s_users_by_alias_pass_and_the_others_are_left_out(tmp_path):
    repo = make_repo(tmp_path, files=FILES)
    repo.replace("pkg/a.py", "    return 1\n", "    return 3\n")
    result = repo.pytest("-q", *selected_ids(repo.decide("--changed", "--budget-ms", "0")))
    assert result.returncode == 0, result.stdout
    assert "4 passed" in result.stdout
