"""Functions a test reads rather than runs (docs/coverage.md, "Functions read, not run"): a test that
reads a function's docstring, source text or code object runs no line of its body, so the index holds
nothing that ties it to a change there; where the project names such a reader, the change keeps the
static answer. End to end with a real index and real pytest.
"""
from harness import answer_for, failed_tests, indexed_repo, selected_ids

PYPROJECT = '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n'


def indexed(tmp_path, files):
    return indexed_repo(tmp_path, {"pyproject.toml": PYPROJECT, "src/pkg/__init__.py": "", **files})


def test_a_body_change_with_its_docstring_keeps_the_static_answer_where_docstrings_are_read(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/cmds.py": 'def build():\n    """Build the project."""\n    return 0\n\n\nALL = [build]\n\n\n'
                           "def help_text():\n    return [f.__doc__ for f in ALL]\n",
        "tests/test_help.py": "from pkg.cmds import help_text\n\n\ndef test_help():\n"
                              "    assert help_text() == ['Build the project.']\n",
    })
    repo.replace("src/pkg/cmds.py", '"""Build the project."""\n    return 0', '"""Compile the project."""\n    return 1')
    assert failed_tests(repo) == ["tests/test_help.py::test_help"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/cmds.py") == ("static", "not_implementation")
    assert selected_ids(warm) == ["tests/test_help.py::test_help"]


def test_a_function_whose_source_a_test_reads_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/kernels.py": "def square(x):\n    return x * x\n",
        "src/pkg/transpile.py": "import inspect\n\n\ndef to_c(fn):\n"
                                "    return inspect.getsource(fn).splitlines()[-1].strip() + ';'\n",
        "tests/test_c.py": "from pkg.kernels import square\nfrom pkg.transpile import to_c\n\n\n"
                           "def test_c():\n    assert to_c(square) == 'return x * x;'\n",
        "tests/test_o.py": "from pkg.kernels import square\n\n\ndef test_o():\n    assert square(2) == 4\n",
    })
    repo.replace("src/pkg/kernels.py", "x * x", "x ** 2")
    assert failed_tests(repo) == ["tests/test_c.py::test_c"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/kernels.py") == ("static", "not_implementation")
    assert "tests/test_c.py::test_c" in selected_ids(warm)


def test_a_function_that_becomes_a_generator_where_code_asks_keeps_the_static_answer(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/handlers.py": "def export():\n    return [1, 2]\n\n\nHANDLERS = {'export': export}\n",
        "tests/test_kind.py": "import inspect\n\nfrom pkg.handlers import HANDLERS\n\n\n"
                              "def test_plain():\n    assert not inspect.isgeneratorfunction(HANDLERS['export'])\n",
    })
    repo.replace("src/pkg/handlers.py", "return [1, 2]", "yield from [1, 2]")
    assert failed_tests(repo) == ["tests/test_kind.py::test_plain"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/handlers.py") == ("static", "not_implementation")
    assert selected_ids(warm) == ["tests/test_kind.py::test_plain"]


def test_a_function_only_called_keeps_the_index_answer_where_source_is_read(tmp_path):
    # The project names inspect.getsource, but `double` is only ever called: the index answers.
    repo = indexed(tmp_path, {
        "src/pkg/kernels.py": "import inspect\n\n\ndef double(x):\n    return x + x\n\n\n"
                              "def show(fn):\n    return inspect.getsource(fn)\n",
        "tests/test_d.py": "from pkg.kernels import double\n\n\ndef test_d():\n    assert double(2) == 4\n\n\n"
                           "def test_other():\n    assert True\n",
    })
    repo.replace("src/pkg/kernels.py", "return x + x", "return x * 2")
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/kernels.py") == ("coverage", None)
    assert selected_ids(warm) == ["tests/test_d.py::test_d"]


def test_a_function_a_reader_of_closures_names_keeps_the_static_answer(tmp_path):
    # handle is named next to inspect.getclosurevars, not handed as a plain argument.
    repo = indexed(tmp_path, {
        "src/pkg/handlers.py": "LIMIT = 3\nOTHER = 4\n\n\ndef handle(x):\n    return min(x, LIMIT)\n",
        "src/pkg/audit.py": "import inspect\n\nfrom pkg.handlers import handle\n\n\n"
                            "def deps():\n    return sorted(inspect.getclosurevars(handle).globals)\n",
        "tests/test_deps.py": "from pkg.audit import deps\n\n\ndef test_deps():\n    assert deps() == ['LIMIT']\n",
        "tests/test_o.py": "from pkg.handlers import handle\n\n\ndef test_o():\n    assert handle(5) >= 3\n",
    })
    repo.replace("src/pkg/handlers.py", "min(x, LIMIT)", "min(x, OTHER)")
    assert failed_tests(repo) == ["tests/test_deps.py::test_deps"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/handlers.py") == ("static", "not_implementation")
    assert "tests/test_deps.py::test_deps" in selected_ids(warm)


def test_a_handed_function_keeps_the_index_answer_where_code_asks_only_its_kind(tmp_path):
    # isgeneratorfunction reads what `async def` and a `yield` decide; this change touches neither.
    repo = indexed(tmp_path, {
        "src/pkg/handlers.py": "import inspect\n\n\ndef export():\n    return [1, 2]\n\n\n"
                               "def other():\n    return 3\n\n\nHANDLERS = {'export': export, 'other': other}\n\n\n"
                               "def streams(name):\n    return inspect.isgeneratorfunction(HANDLERS[name])\n",
        "tests/test_kind.py": "from pkg.handlers import HANDLERS, streams\n\n\n"
                              "def test_plain():\n    assert not streams('export')\n\n\n"
                              "def test_export():\n    assert HANDLERS['export']() == [1, 2]\n\n\n"
                              "def test_other():\n    assert HANDLERS['other']() == 3\n",
    })
    repo.replace("src/pkg/handlers.py", "return [1, 2]", "return [2, 1]")
    assert failed_tests(repo) == ["tests/test_kind.py::test_export"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/handlers.py") == ("coverage", None)
    assert selected_ids(warm) == ["tests/test_kind.py::test_export"]


def test_a_handed_generator_that_loses_its_yield_keeps_the_static_answer_where_code_asks_its_kind(tmp_path):
    repo = indexed(tmp_path, {
        "src/pkg/handlers.py": "def export():\n    yield 1\n    yield 2\n\n\nHANDLERS = {'export': export}\n",
        "tests/test_kind.py": "import inspect\n\nfrom pkg.handlers import HANDLERS\n\n\n"
                              "def test_stream():\n    assert inspect.isgeneratorfunction(HANDLERS['export'])\n",
    })
    repo.replace("src/pkg/handlers.py", "    yield 1\n    yield 2\n", "    return [1, 2]\n")
    assert failed_tests(repo) == ["tests/test_kind.py::test_stream"]
    warm = repo.decide()
    assert answer_for(warm, "src/pkg/handlers.py") == ("static", "not_implementation")
    assert selected_ids(warm) == ["tests/test_kind.py::test_stream"]


def test_a_deleted_line_that_moves_an_unchanged_yield_into_a_nested_def_keeps_the_static_answer(tmp_path):
    # Without its `for` line, `yield _split(line)` belongs to _split: rows is no generator any more.
    # No test ran a line of rows (making a generator runs none), and no changed line holds `yield`.
    repo = indexed(tmp_path, {
        "src/pkg/steps.py": "def rows(data):\n    def _split(line):\n        return line.split(',')\n"
                            "    for line in data.splitlines():\n        yield _split(line)\n\n\nREADERS = {'csv': rows}\n",
        "tests/test_state.py": "import types\n\nfrom pkg.steps import READERS\n\n\n"
                               "def test_lazy():\n    assert isinstance(READERS['csv']('a,b'), types.GeneratorType)\n",
    })
    repo.replace("src/pkg/steps.py", "    for line in data.splitlines():\n", "")
    assert failed_tests(repo) == ["tests/test_state.py::test_lazy"]
    warm = repo.decide()
    assert selected_ids(warm) == ["tests/test_state.py::test_lazy"]
