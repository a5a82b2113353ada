"""Tests that start processes keep the static answer where the coverage index answers a change
(docs/coverage.md, "Tests that start processes"): coverage.py sees into a child process only where
pytest-cov's start-up hook runs there, which a child given an environment of its own does not, so the
index can hold no line of what such a test ran. End to end with a real index and real pytest.
"""
import pytest

from harness import make_repo, selected_ids

FILES = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    "pkg/mod.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "pkg/cli.py": (
        "def main():\n    from pkg.mod import f\n    raise SystemExit(f() != 1)\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    ),
    # The child gets an environment of its own: pytest-cov's hook does not run in it.
    "tests/test_cli.py": (
        "import os\nimport subprocess\nimport sys\n\n\n"
        "def test_cli():\n"
        '    run = subprocess.run([sys.executable, "-m", "pkg.cli"], env={"PYTHONPATH": os.getcwd()})\n'
        "    assert run.returncode == 0\n"
    ),
    # The same through a helper module beside the tests.
    "tests/helpers.py": (
        "import os\nimport subprocess\nimport sys\n\n\n"
        "def run_cli():\n"
        '    return subprocess.run([sys.executable, "-m", "pkg.cli"], env={"PYTHONPATH": os.getcwd()}).returncode\n'
    ),
    "tests/test_helped.py": "from helpers import run_cli\n\n\ndef test_helped():\n    assert run_cli() == 0\n",
    "tests/test_direct.py": "from pkg.mod import f, g\n\n\ndef test_f():\n    assert f() == 1\n\n\ndef test_g():\n    assert g() == 2\n",
}


def indexed(tmp_path, files):
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index")
    assert run.returncode == 0, run.stdout + run.stderr
    return repo


@pytest.fixture
def repo(tmp_path):
    return indexed(tmp_path, FILES)


def breaks_and_selects(repo, path, old, new, failed, selected):
    """Makes the change, checks that it breaks `failed` test(s), and that the index answers for `path`
    with the `selected` ids."""
    repo.replace(path, old, new)
    result = repo.pytest()
    assert failed in result.stdout, result.stdout
    warm = repo.decide()
    assert entry(warm, path)["source"] == "coverage"
    assert selected_ids(warm) == selected


def entry(decision, path):
    return next(f for f in decision["changed_files"] if f["path"] == path)


def test_a_test_that_starts_a_process_keeps_the_static_answer(repo):
    repo.replace("pkg/mod.py", "    return 1\n", "    return 3\n")
    result = repo.pytest()
    assert "3 failed, 1 passed" in result.stdout, result.stdout  # test_cli and test_helped break too
    warm = repo.decide()
    assert entry(warm, "pkg/mod.py")["source"] == "coverage"
    # The index saw test_f run f; the children's runs of f are recorded nowhere.
    assert selected_ids(warm) == ["tests/test_cli.py", "tests/test_direct.py::test_f", "tests/test_helped.py"]


def test_a_change_no_process_reaches_keeps_the_index_answer(repo):
    repo.replace("pkg/mod.py", "    return 2\n", "    return 4\n")
    warm = repo.decide()
    assert entry(warm, "pkg/mod.py")["source"] == "coverage"
    # The static answer reaches no test that starts a process: g is not what pkg.cli runs.
    assert selected_ids(warm) == ["tests/test_direct.py::test_g"]


def test_a_module_only_a_child_loads_keeps_the_answer_of_the_tests_that_start_it(repo):
    # pkg/cli.py runs in the children only: no process coverage.py or the probe sees loads it, so the
    # index holds it as never loaded; the tests that start processes keep their static answer.
    breaks_and_selects(repo, "pkg/cli.py", "    main()\n", "    raise SystemExit(1)\n", "2 failed, 2 passed",
                       ["tests/test_cli.py", "tests/test_helped.py"])


# A child that inherits the environment runs pytest-cov's hook and is measured: its module-level code
# (pkg.tool, which no process of the suite but the child imports) runs under the test that started it,
# labelled as a child's, so it is the test's own and no import inside the test's call.
MEASURED = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    "pkg/mod.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "pkg/tool.py": "from pkg.mod import f\n\nprint(f())\n",
    "tests/test_tool.py": (
        "import os\nimport subprocess\nimport sys\n\n\n"
        "def test_tool():\n"
        '    env = dict(os.environ, PYTHONPATH=os.getcwd())\n'
        '    run = subprocess.run([sys.executable, "-m", "pkg.tool"], env=env, capture_output=True, text=True)\n'
        '    assert run.stdout.strip() == "1"\n'
    ),
    "tests/test_direct.py": "from pkg.mod import f, g\n\n\ndef test_f():\n    assert f() == 1\n\n\ndef test_g():\n    assert g() == 2\n",
}


def test_what_a_measured_child_ran_at_its_import_is_its_test_s_own(tmp_path):
    repo = indexed(tmp_path, MEASURED)
    breaks_and_selects(repo, "pkg/mod.py", "    return 1\n", "    return 3\n", "2 failed",
                       ["tests/test_direct.py::test_f", "tests/test_tool.py"])
    assert entry(repo.decide(), "pkg/mod.py")["fallback"] is None


# Only the tests that may use a way to start a process keep the static answer: in a file whose helper
# module starts one, a test that never calls it (nor requests a fixture that does) keeps the index's.
PER_TEST = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    "pkg/mod.py": "def f():\n    return 1\n",
    "tests/runner.py": (
        "import subprocess\nimport sys\n\n\n"
        "def run_child():\n"
        '    return subprocess.run([sys.executable, "-c", "pass"], env={}).returncode\n\n\n'
        "def version():\n    return 1\n"
    ),
    # test_other and test_through_fixtures name f on a branch that does not run: the static answer
    # reaches them, the index does not; only the one whose fixtures start a process keeps it.
    "tests/test_mixed.py": (
        "import pytest\n\nfrom pkg.mod import f\nfrom runner import run_child, version\n\n\n"
        "@pytest.fixture\ndef child_code():\n    return run_child()\n\n\n"
        "@pytest.fixture\ndef checked(child_code):\n    return child_code\n\n\n"
        "def test_through_fixtures(checked):\n    if version() == 2:\n        f()\n    assert checked == 0\n\n\n"
        "def test_plain():\n    assert f() == 1\n\n\n"
        "def test_other():\n    if version() == 2:\n        f()\n    assert version() == 1\n"
    ),
}


def test_only_the_tests_that_may_start_a_process_keep_the_static_answer(tmp_path):
    repo = indexed(tmp_path, PER_TEST)
    repo.replace("pkg/mod.py", "    return 1\n", "    return 3\n")
    result = repo.pytest()
    assert "1 failed, 2 passed" in result.stdout, result.stdout
    warm = repo.decide()
    assert entry(warm, "pkg/mod.py")["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_mixed.py::test_plain", "tests/test_mixed.py::test_through_fixtures"]


# --- project code that forks -------------------------------------------------------------------------

POOL = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    # A forked worker inherits coverage.py's tracer but ends with os._exit: nothing it ran is saved.
    "pkg/work.py": (
        "import multiprocessing\n\n\ndef square(x):\n    return x * x\n\n\n"
        'def run(values):\n    with multiprocessing.get_context("fork").Pool(2) as pool:\n'
        "        return pool.map(square, values)\n"
    ),
    "pkg/plain.py": "def double(x):\n    return 2 * x\n",
    "tests/test_work.py": "from pkg.work import run\n\n\ndef test_run():\n    assert run([1, 2]) == [1, 4]\n",
    "tests/test_plain.py": "from pkg.plain import double\n\n\ndef test_double():\n    assert double(2) == 4\n",
}


def test_a_body_run_only_in_a_forked_worker_selects_the_tests_that_load_the_pool(tmp_path):
    repo = indexed(tmp_path, POOL)
    breaks_and_selects(repo, "pkg/work.py", "    return x * x\n", "    return x + x\n", "1 failed",
                       ["tests/test_work.py::test_run"])
    # A change the forking code does not lead to keeps the index's answer.
    repo.replace("pkg/work.py", "    return x + x\n", "    return x * x\n")
    repo.replace("pkg/plain.py", "    return 2 * x\n", "    return x + x\n")
    assert selected_ids(repo.decide()) == ["tests/test_plain.py::test_double"]


TRACER = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    "pkg/__init__.py": "",
    # While coverage.py's trace function is replaced, nothing is recorded.
    "pkg/tracing.py": (
        "import sys\n\n\ndef quiet(f):\n    old = sys.gettrace()\n    sys.settrace(None)\n    try:\n"
        "        return f()\n    finally:\n        sys.settrace(old)\n\n\ndef answer():\n    return 42\n"
    ),
    "tests/test_quiet.py": "from pkg.tracing import quiet, answer\n\n\ndef test_quiet():\n    assert quiet(answer) == 42\n",
}


def test_a_body_run_while_the_tracer_is_replaced_selects_the_tests_that_load_that_code(tmp_path):
    repo = indexed(tmp_path, TRACER)
    breaks_and_selects(repo, "pkg/tracing.py", "    return 42\n", "    return 41\n", "1 failed",
                       ["tests/test_quiet.py::test_quiet"])
