"""The coverage index end to end: `impact index` runs the suite under real coverage.py (pytest-cov) or
reads a coverage file, and the selection then trusts it file by file, as docs/coverage.md says.

Each per-file rule has a test: covered lines select exactly the tests that ran them; insertions and
lines no test ran select the tests of their function body (the block rule, more in
test_index_blocks.py); unmeasured and untracked files, drift, vanished tests, conftest.py and fixture
code fall back to the static answer; a changed test file selects itself; without an index the answer is the static one, byte
for byte. Bad index and coverage files are named in one line, and the selection falls back. A small
mutation loop checks the two promises: never more than the static answer, never a broken test left out.
"""
import re
import shutil
import sqlite3
import time

import pytest

from harness import make_repo, selected_ids

INDEX = ".impact_cache/coverage-index.sqlite"

# A project where coverage is tighter than any static analysis: the tests of classify() each take one
# branch. Line numbers matter below; they are given in comments.
CALC = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/calc/__init__.py": "",
    "src/calc/signs.py": (
        '"""Signs of numbers."""\n'          # 1
        "\n"                                 # 2
        "\n"                                 # 3
        "def classify(n):\n"                 # 4
        "    if n < 0:\n"                    # 5
        '        return "negative"\n'        # 6
        "    if n == 0:\n"                   # 7
        '        return "zero"\n'            # 8
        '    return "positive"\n'            # 9
        "\n"                                 # 10
        "\n"                                 # 11
        "def describe(n):\n"                 # 12
        "    kind = classify(n)\n"           # 13
        "    kind = kind.upper() if n > 100 else kind\n"  # 14
        '    return f"{n} is {kind}"\n'      # 15
    ),
    "src/calc/units.py": (
        '"""Units, loaded once per session by a fixture."""\n'
        "\n"
        "\n"
        "def table():\n"
        '    names = {"m": "metre", "s": "second"}\n'
        "    return names\n"
    ),
    "src/calc/extra.py": "def helper():\n    return 42\n",
    "src/calc/lookup.py": (
        "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef square(n):\n    return n * n\n"
    ),
    "tests/test_lookup.py": (
        "from calc.lookup import square\n\n\ndef test_first():\n    assert square(3) == 9\n\n\n"
        "def test_second():\n    assert square(3) > 8\n"
    ),
    "src/calc/pretty.py": 'def show(n):\n    # in angle brackets\n    return f"<{n}>"\n',
    "tests/conftest.py": (
        "import pytest\n"
        "\n"
        "from calc import units\n"
        "\n"
        "\n"
        '@pytest.fixture(scope="session")\n'
        "def unit_table():\n"
        "    return units.table()\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def small():\n"
        "    return 1\n"
    ),
    "tests/test_negative.py": (
        "from calc.signs import classify\n\n\ndef test_negative():\n    assert classify(-1) == \"negative\"\n"
    ),
    "tests/test_zero.py": "from calc.signs import classify\n\n\ndef test_zero():\n    assert classify(0) == \"zero\"\n",
    "tests/test_positive.py": (
        "from calc.signs import classify, describe\n"
        "\n"
        "\n"
        "def test_positive(small):\n"
        '    assert classify(5 + small) == "positive"\n'
        "\n"
        "\n"
        "def test_describe():\n"
        '    assert describe(3) == "3 is positive"\n'
    ),
    "tests/test_params.py": (
        "import pytest\n"
        "\n"
        "from calc.signs import classify\n"
        "\n"
        "\n"
        '@pytest.mark.parametrize("n, kind", [(-2, "negative"), (7, "positive")], ids=["minus two", "seven"])\n'
        "def test_param(n, kind):\n"
        "    assert classify(n) == kind\n"
    ),
    "tests/test_units.py": (
        'def test_metre(unit_table):\n    assert unit_table["m"] == "metre"\n\n\n'
        'def test_second(unit_table):\n    assert unit_table["s"] == "second"\n'
    ),
    "tests/test_extra.py": (
        "import pytest\n"
        "\n"
        "\n"
        '@pytest.mark.skip(reason="never runs here")\n'
        "def test_extra():\n"
        "    from calc.extra import helper\n"
        "\n"
        "    assert helper() == 42\n"
    ),
    "tests/test_pretty.py": (
        "from calc.pretty import show\n\n\ndef test_show_negative():\n    assert show(-3).startswith(\"<-3\")\n"
    ),
}

SIGNS = "src/calc/signs.py"
NEGATIVE_LINE = ('        return "negative"\n', '        return "negative".lower()\n')  # line 6
NEGATIVE_TESTS = ["tests/test_negative.py::test_negative", "tests/test_params.py::test_param[minus two]"]


def build_index(repo, *args):
    run = repo.impact("index", *args)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (repo.path / INDEX).is_file()
    return run


def clone(template, tmp_path):
    """A copy of an indexed repository (its .git and .impact_cache included)."""
    path = tmp_path / "repo"
    shutil.copytree(template.path, path, symlinks=True)
    return type(template)(path)


@pytest.fixture(scope="module")
def calc_template(tmp_path_factory):
    repo = make_repo(tmp_path_factory.mktemp("calc"), files=CALC)
    build_index(repo)
    return repo


@pytest.fixture
def calc(calc_template, tmp_path):
    return clone(calc_template, tmp_path)


def edit_line(repo, line, path=SIGNS):
    repo.replace(path, line[0], line[1])


def static(repo):
    return repo.decide("--no-index")


def file_entry(decision, path):
    return next(f for f in decision["changed_files"] if f["path"] == path)


def without_timings(doc):
    return {k: v for k, v in doc.items() if k != "timings_ms"}


def assert_falls_back(repo, path, reason):
    """The file's change uses the static answer, and says why."""
    warm, cold = repo.decide(), static(repo)
    entry = file_entry(warm, path)
    assert (entry["source"], entry["fallback"]) == ("static", reason), entry
    assert selected_ids(warm) == selected_ids(cold)
    assert warm["decision"] == cold["decision"]
    return warm


# --- building ----------------------------------------------------------------------------------------

def test_index_runs_the_suite_and_says_what_it_holds(calc_template):
    run = build_index(calc_template)  # a second build over the first one
    assert re.search(r"impact: indexed 11 test\(s\) over \d+ measured file\(s\) in [\d.]+ s", run.stderr), run.stderr
    assert "impact: running the suite under coverage:" in run.stderr
    assert "--cov-context=test --cov-branch" in run.stderr  # arcs: docs/coverage.md, "Arcs"
    assert calc_template.impact("index", "status", "--format", "json").json["arcs"] is True
    assert "setup/teardown phase(s)" in run.stderr  # counted, not attributed to a test
    assert "11 passed, 1 skipped" in run.stdout  # pytest's own output streams through (the skipped test:
    # test_extra, which is why the index holds 11)
    assert sorted(p.name for p in (calc_template.path / ".impact_cache").iterdir()
                  if p.name.startswith("coverage")) == ["coverage-index.sqlite"]


def test_index_passes_pytest_arguments_and_returns_pytests_exit_code(tmp_path):
    files = dict(CALC)
    files["tests/test_zero.py"] = files["tests/test_zero.py"].replace('== "zero"', '== "nought"')
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index", "--", "-p", "no:cacheprovider", "tests/test_zero.py", "tests/test_negative.py")
    assert run.returncode == 1, run.stderr
    assert "1 failed, 1 passed" in run.stdout
    assert "impact: note: pytest exited with 1; the index holds what ran" in run.stderr
    status = repo.impact("index", "status", "--format", "json").json
    assert status["tests"] == 2


def test_index_from_a_coverage_file_written_by_pytest_cov(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    time.sleep(2.1)  # a commit within a second of the data file may be later than it (the trust rule)
    result = repo.pytest("--cov=.", "--cov-context=test", "--cov-report=")
    assert result.returncode == 0, result.stdout
    run = build_index(repo, "--from", ".coverage")
    assert "impact: indexed 11 test(s)" in run.stderr
    (repo.path / ".coverage").unlink()  # not a change to select for
    status = repo.impact("index", "status", "--format", "json").json
    assert status["source"].endswith(".coverage")
    assert status["arcs"] is False  # line data: generators keep the static answer
    edit_line(repo, NEGATIVE_LINE)
    assert selected_ids(repo.decide()) == NEGATIVE_TESTS


def test_index_from_test_function_contexts_with_the_tests_outside_cov(tmp_path):
    files = dict(CALC)
    files[".coveragerc"] = "[run]\ndynamic_context = test_function\n"
    repo = make_repo(tmp_path, files=files)
    time.sleep(2.1)  # a commit within a second of the data file may be later than it (the trust rule)
    result = repo.pytest("--cov=src", "--cov-report=")
    assert result.returncode == 0, result.stdout
    run = build_index(repo, "--from", ".coverage")
    assert "outside any test" in run.stderr
    (repo.path / ".coverage").unlink()
    status = repo.impact("index", "status", "--format", "json").json
    assert status["hashed"] > 0  # the tests were not measured, only hashed
    edit_line(repo, NEGATIVE_LINE)
    warm = repo.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    # test_function contexts carry no parameters: the parametrized test runs whole.
    assert selected_ids(warm) == ["tests/test_negative.py::test_negative", "tests/test_params.py::test_param"]


# --- the per-file rules ------------------------------------------------------------------------------

def test_changed_covered_lines_select_exactly_the_tests_that_ran_them(calc):
    edit_line(calc, NEGATIVE_LINE)
    warm, cold = calc.decide(), static(calc)
    assert selected_ids(warm) == NEGATIVE_TESTS
    assert all(covered(t, selected_ids(cold)) for t in NEGATIVE_TESTS)
    assert len(selected_ids(cold)) == 5  # the static answer is wider: every test that calls classify()
    entry = file_entry(warm, SIGNS)
    assert (entry["source"], entry["fallback"]) == ("coverage", None)
    assert warm["index"]["commit"] == calc.git("rev-parse", "HEAD").strip()
    test = next(t for t in warm["selected"] if t["node_id"] == NEGATIVE_TESTS[0])
    assert test["note"] == f"covered line {SIGNS}:6"
    text = calc.impact("--dry-run").stdout
    assert f"note: covered line {SIGNS}:6" in text
    assert "(coverage index)" in text
    assert "coverage index: built" in text


def test_the_selected_tests_run_and_a_broken_one_fails(calc):
    calc.replace(SIGNS, '        return "negative"\n', '        return "minus"\n')
    run = calc.impact()
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed" in run.stdout  # both tests that ran the line, the parametrized id with a space too
    assert "test_zero" not in run.stdout


def test_a_multi_line_statement_is_read_at_its_first_line(tmp_path):
    files = dict(CALC)
    files[SIGNS] = files[SIGNS].replace('        return "negative"\n', '        return (\n            "negative"\n        )\n')
    repo = make_repo(tmp_path, files=files)
    build_index(repo)
    repo.replace(SIGNS, '            "negative"\n', '            "negative".lower()\n')
    assert selected_ids(repo.decide()) == NEGATIVE_TESTS


def test_deleted_lines_count_as_changed_lines_of_the_base(calc):
    calc.replace(SIGNS, "    kind = kind.upper() if n > 100 else kind\n", "")
    warm = calc.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_positive.py::test_describe"]


def test_inserted_lines_select_the_tests_that_ran_their_body(calc):
    # The block rule (coverage.md, "Block level"): describe()'s body ran for test_describe only.
    calc.replace(SIGNS, "    kind = classify(n)\n", "    kind = classify(n)\n    print(kind)\n")
    warm = calc.decide()
    assert (file_entry(warm, SIGNS)["source"], file_entry(warm, SIGNS)["fallback"]) == ("coverage", None)
    assert selected_ids(warm) == ["tests/test_positive.py::test_describe"]


def test_code_in_place_of_comment_lines_selects_the_tests_that_ran_their_body(calc):
    # The hunk replaces a comment: no code line of the base, but the body around it ran.
    calc.replace("src/calc/pretty.py", "    # in angle brackets\n", "    n = -n if n < -100 else n\n")
    warm = calc.decide()
    assert file_entry(warm, "src/calc/pretty.py")["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_pretty.py::test_show_negative"]


def test_code_inserted_at_module_level_uses_the_static_answer(calc):
    calc.replace("src/calc/pretty.py", "def show(n):\n", "import os\n\n\ndef show(n):\n")
    assert file_entry(calc.decide(), "src/calc/pretty.py")["source"] == "static"


def test_a_signature_change_uses_the_static_answer(calc):
    # Callers may pass the new parameter: which tests do is not in the coverage of the old lines.
    calc.replace(SIGNS, "def describe(n):\n", "def describe(n, *rest):\n")
    warm = assert_falls_back(calc, SIGNS, "not_implementation")
    assert covered("tests/test_positive.py::test_describe", selected_ids(warm))
    text = calc.impact("--dry-run").stdout
    assert re.search(rf"coverage index: not_implementation: {re.escape(SIGNS)}: signature\w* of describe\)", text), text


def test_a_new_default_value_with_a_body_change_uses_the_static_answer(calc):
    # A default value is evaluated at import: the whole module's importers are affected.
    calc.replace(SIGNS, "def classify(n):\n    if n < 0:\n", "def classify(n, zero=0):\n    if n < zero:\n")
    warm = assert_falls_back(calc, SIGNS, "not_implementation")
    assert all(covered(t, selected_ids(warm)) for t in NEGATIVE_TESTS + ["tests/test_zero.py::test_zero"])
    text = calc.impact("--dry-run").stdout
    assert f"coverage index: not_implementation: {SIGNS}: the changed code runs at import)" in text, text


@pytest.mark.parametrize("how", ["added", "deleted", "renamed"])
def test_added_deleted_and_renamed_files_use_the_static_answer(calc, how):
    pretty = "src/calc/pretty.py"
    if how == "added":
        calc.write("src/calc/fresh.py", "def fresh():\n    return 1\n")
        calc.replace("tests/test_pretty.py", "from calc.pretty import show\n",
                     "from calc.fresh import fresh\nfrom calc.pretty import show\n")
        calc.git("add", "src/calc/fresh.py")
        path = "src/calc/fresh.py"
    elif how == "deleted":
        calc.delete(pretty)
        path = pretty
    else:
        calc.git("mv", pretty, "src/calc/pretty_print.py")
        calc.replace("tests/test_pretty.py", "from calc.pretty import", "from calc.pretty_print import")
        path = "src/calc/pretty_print.py"
    warm = assert_falls_back(calc, path, how)
    entry = file_entry(warm, path)
    assert entry["status"] == how
    assert "tests/test_pretty.py::test_show_negative" in selected_ids(warm) or "tests/test_pretty.py" in selected_ids(warm)
    text = calc.impact("--dry-run").stdout
    assert f"(static analysis; coverage index: {how}: {path} is {how})" in text, text


def test_code_moved_to_an_outer_block_of_the_same_body_selects_every_test_that_entered_it(calc):
    # `return "negative"` now runs for every n: tests that never took the branch are affected; they all
    # ran classify()'s body, which is the unit.
    calc.replace(SIGNS, '        return "negative"\n', '        n = -n\n    return "negative"\n')
    warm = calc.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert all(covered(t, selected_ids(warm)) for t in NEGATIVE_TESTS + ["tests/test_zero.py::test_zero",
                                                                       "tests/test_positive.py::test_positive"])


def test_a_replaced_line_that_no_test_ran_selects_the_tests_of_its_body(tmp_path):
    files = dict(CALC)
    files["tests/test_zero.py"] = "def test_nothing():\n    pass\n"
    repo = make_repo(tmp_path, files=files)
    build_index(repo)
    repo.replace(SIGNS, '        return "zero"\n', '        return "none"\n')
    warm = repo.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert all(covered(t, selected_ids(warm)) for t in NEGATIVE_TESTS)


def test_a_file_the_index_never_measured_uses_the_static_answer(calc):
    calc.replace("src/calc/extra.py", "return 42", "return 43")
    warm = assert_falls_back(calc, "src/calc/extra.py", "not_indexed")
    assert selected_ids(warm) == ["tests/test_extra.py::test_extra"]


def test_an_untracked_file_uses_the_static_answer(calc):
    calc.write("src/calc/fresh.py", "def fresh():\n    return 1\n")
    calc.write("tests/test_fresh.py", "from calc.fresh import fresh\n\n\ndef test_fresh():\n    assert fresh() == 1\n")
    warm = assert_falls_back(calc, "src/calc/fresh.py", "untracked")
    assert file_entry(warm, "tests/test_fresh.py")["fallback"] == "untracked"
    assert selected_ids(warm) == ["tests/test_fresh.py"]


def test_drift_a_line_shift_committed_after_indexing_falls_back(calc):
    calc.replace(SIGNS, '"""Signs of numbers."""\n', '"""Signs of numbers."""\n# shifted by one line\n')
    calc.commit("shift")
    edit_line(calc, NEGATIVE_LINE)  # now line 7; the index knows line 6 as `return "negative"`
    warm = assert_falls_back(calc, SIGNS, "drift")
    assert len(selected_ids(warm)) == 5
    text = calc.impact("--dry-run").stdout
    assert re.search(rf"{re.escape(SIGNS)} .*\(static analysis; coverage index: drift: {re.escape(SIGNS)} changed "
                     r"since the index was built\)", text), text
    status = calc.impact("index", "status")
    assert status.returncode == 0
    assert f"drifted since: 1 file(s)" in status.stdout
    assert f"  {SIGNS}\n" in status.stdout


def test_drift_in_a_caller_sends_its_tests_to_the_static_answer(calc):
    # Since the index, pretty.show() calls classify(): test_pretty now runs line 6, which the index
    # cannot know.
    calc.write("src/calc/pretty.py",
               "from calc.signs import classify\n\n\ndef show(n):\n    return f\"<{n} {classify(n)}>\"\n")
    calc.commit("pretty calls classify")
    edit_line(calc, NEGATIVE_LINE)
    warm = calc.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert selected_ids(warm) == sorted(NEGATIVE_TESTS + ["tests/test_pretty.py::test_show_negative"])
    result = calc.pytest("-q", "tests/test_pretty.py")
    assert result.returncode == 0  # the test runs the changed line indeed


def test_recorded_tests_that_no_longer_exist_fall_back(calc):
    calc.replace("tests/test_negative.py", "def test_negative():", "def test_negative_renamed():")
    edit_line(calc, NEGATIVE_LINE)
    warm = assert_falls_back(calc, SIGNS, "tests_missing")
    assert "tests/test_negative.py::test_negative_renamed" in selected_ids(warm)


def test_a_test_that_did_not_run_when_indexed_keeps_its_static_answer(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    build_index(repo, "--", "-k", "not zero")
    repo.replace(SIGNS, "    if n == 0:\n", "    if n == 0 or n is None:\n")
    warm = repo.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert "tests/test_zero.py::test_zero" in selected_ids(warm)
    assert all(covered(t, selected_ids(static(repo))) for t in selected_ids(warm))


def test_a_changed_test_file_selects_itself(calc):
    calc.replace("tests/test_zero.py", 'assert classify(0) == "zero"', 'assert classify(0) != "one"')
    warm = calc.decide()
    assert selected_ids(warm) == ["tests/test_zero.py::test_zero"]
    assert selected_ids(warm) == selected_ids(static(calc))


def test_a_changed_conftest_follows_the_static_rule(calc):
    calc.replace("tests/conftest.py", "    return 1\n", "    return 2\n")
    warm = assert_falls_back(calc, "tests/conftest.py", "conftest")
    assert "tests/test_positive.py::test_positive" in selected_ids(warm)


def test_code_run_by_a_session_fixture_is_not_attributed_to_the_first_test(calc):
    # units.table() runs once, in the setup of whichever test first asks for unit_table.
    calc.replace("src/calc/units.py", '"s": "second"', '"s": "sec"')
    warm = assert_falls_back(calc, "src/calc/units.py", "outside_tests")
    assert {"tests/test_units.py::test_metre", "tests/test_units.py::test_second"} <= set(selected_ids(warm))


def test_a_memoized_function_is_not_attributed_to_its_first_caller(calc):
    # square(3) ran once, for test_first; test_second got the cached result.
    calc.replace("src/calc/lookup.py", "return n * n", "return n * n + 0")
    warm = assert_falls_back(calc, "src/calc/lookup.py", "memoized")
    assert {"tests/test_lookup.py::test_first", "tests/test_lookup.py::test_second"} <= set(selected_ids(warm))


def test_config_and_non_python_files_follow_the_static_rules(calc):
    calc.replace("pyproject.toml", 'testpaths = ["tests"]', 'testpaths = ["tests"]\naddopts = "-q"')
    warm = calc.decide()
    assert (warm["decision"], warm["reason"]) == ("run_all", "config_changed")
    assert without_timings(warm)["selected"] == static(calc)["selected"]


def test_without_an_index_the_answer_is_the_static_one_byte_for_byte(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    edit_line(repo, NEGATIVE_LINE)
    repo.replace("tests/conftest.py", "    return 1\n", "    return 2\n")
    repo.decide()  # the facts cache is warm for both runs below
    cold = repo.impact("--dry-run", "--format", "json")
    off = repo.impact("--dry-run", "--format", "json", "--no-index")
    assert cold.returncode == off.returncode == 0
    assert not (repo.path / INDEX).exists()
    assert without_timings(cold.json) == without_timings(off.json)
    assert cold.json["index"] is None
    assert all(f["fallback"] is None for f in cold.json["changed_files"])
    text, text_off = repo.impact("--dry-run").stdout, repo.impact("--dry-run", "--no-index").stdout
    strip = re.compile(r" in \d+ ms")
    assert strip.sub("", text) == strip.sub("", text_off)


def test_no_index_flag_and_variable_turn_it_off(calc):
    edit_line(calc, NEGATIVE_LINE)
    for run in (calc.decide("--no-index"), calc.decide(env={"IMPACT_NO_INDEX": "1"})):
        assert run["index"] is None
        assert file_entry(run, SIGNS)["fallback"] is None
        assert len(selected_ids(run)) == 5


def test_file_level_does_not_use_the_index(calc):
    edit_line(calc, NEGATIVE_LINE)
    calc.decide("--file-level")  # warms the facts cache for the comparison below
    warm, cold = calc.decide("--file-level"), calc.decide("--file-level", "--no-index")
    assert warm["index"] is None
    assert file_entry(warm, SIGNS)["fallback"] is None
    assert without_timings(warm) == without_timings(cold)
    assert len(selected_ids(warm)) > len(NEGATIVE_TESTS)


def test_impact_cache_relocates_the_index(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    elsewhere = tmp_path / "cache"
    run = repo.impact("index", env={"IMPACT_CACHE": str(elsewhere)})
    assert run.returncode == 0, run.stderr
    assert (elsewhere / "coverage-index.sqlite").is_file()
    assert not (repo.path / INDEX).exists()
    edit_line(repo, NEGATIVE_LINE)
    assert selected_ids(repo.decide(env={"IMPACT_CACHE": str(elsewhere)})) == NEGATIVE_TESTS
    assert repo.decide()["index"] is None


# --- status and merge --------------------------------------------------------------------------------

def test_status_says_when_where_and_what_drifted(calc):
    text = calc.impact("index", "status")
    assert text.returncode == 0
    head = calc.git("rev-parse", "HEAD").strip()
    assert f"at commit {head[:12]} (HEAD)" in text.stdout
    assert "holds: 11 test(s)" in text.stdout
    assert "drifted since: 0 file(s)" in text.stdout
    calc.replace("src/calc/units.py", "metre", "meter")
    calc.commit("units")
    doc = calc.impact("index", "status", "--format", "json").json
    assert doc["schema"] == "impact.index_status"
    assert doc["version"] == 1
    assert doc["commit"] == head
    assert doc["head"] != head
    assert doc["tests"] == 11
    assert doc["drifted"] == ["src/calc/units.py"]
    assert doc["missing"] == []
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", doc["built_at"])
    text = calc.impact("index", "status").stdout
    assert f"(HEAD is {calc.git('rev-parse', 'HEAD').strip()[:12]})" in text


def test_status_without_an_index_is_an_error_with_the_fix(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    run = repo.impact("index", "status")
    assert run.returncode == 2
    assert run.stderr == f"impact: error: {repo.path / INDEX}: no such index; build one with impact index\n"


def test_merge_unions_the_shards_of_one_run(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    shards = []
    for i, tests in enumerate((["tests/test_negative.py", "tests/test_zero.py"],
                               ["tests/test_params.py", "tests/test_positive.py"])):
        build_index(repo, "--", *tests)
        shards.append(tmp_path / f"shard{i}.sqlite")
        shutil.move(repo.path / INDEX, shards[-1])
    edit_line(repo, NEGATIVE_LINE)
    # One shard alone: the parametrized test did not run in it, so its file takes the static answer.
    shutil.copy(shards[0], repo.path / INDEX)
    partial = selected_ids(repo.decide())
    assert "tests/test_params.py::test_param" in partial
    run = repo.impact("index", "merge", str(shards[0]), str(shards[1]), "-o", INDEX)
    assert run.returncode == 0, run.stderr
    assert "impact: merged 2 index(es): 6 test(s)" in run.stderr
    assert selected_ids(repo.decide()) == NEGATIVE_TESTS


def test_merge_keeps_the_newer_version_where_hashes_differ(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    build_index(repo, "--", "tests/test_negative.py")
    older = tmp_path / "older.sqlite"
    shutil.move(repo.path / INDEX, older)
    repo.replace(SIGNS, '"""Signs of numbers."""\n', '"""Signs of numbers."""\n# shifted by one line\n')
    repo.commit("shift")
    time.sleep(1.1)  # built_at has one-second resolution
    build_index(repo)
    newer = tmp_path / "newer.sqlite"
    shutil.move(repo.path / INDEX, newer)
    for order in ((newer, older), (older, newer)):
        run = repo.impact("index", "merge", *map(str, order), "-o", INDEX)
        assert run.returncode == 0, run.stderr
        doc = repo.impact("index", "status", "--format", "json").json
        assert doc["drifted"] == []  # the shifted signs.py, as the newer shard measured it
        assert doc["commit"] == repo.git("rev-parse", "HEAD").strip()
        edit_line(repo, NEGATIVE_LINE)
        assert selected_ids(repo.decide()) == NEGATIVE_TESTS
        repo.git("checkout", "-q", "--", SIGNS)


# --- bad input ---------------------------------------------------------------------------------------

def break_index(repo, how):
    path = repo.path / INDEX
    if how == "garbage":
        path.write_bytes(b"\x00not an index at all\n" * 300)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif how == "foreign":
        path.unlink()
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
            db.execute("INSERT INTO meta VALUES ('application', 'something else')")
        db.close()
    elif how in ("newer", "older"):
        with sqlite3.connect(path) as db:
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", ("99" if how == "newer" else "2",))
        db.close()
    elif how == "damaged":
        data = bytearray(path.read_bytes())
        data[4096:] = b"\x5a" * (len(data) - 4096)
        path.write_bytes(bytes(data))
    return path


BAD_INDEX = {
    "garbage": "not an impact coverage index; delete it and rebuild it with impact index",
    "empty": "corrupt coverage index (empty file); delete it and rebuild it with impact index",
    "truncated": "corrupt coverage index (truncated: ",
    "foreign": "not an impact coverage index; delete it and rebuild it with impact index",
    "newer": "written by a newer impact (index schema 99, this one reads 4); rebuild it with impact index or upgrade impact",
    # Schema 2 recorded no trust: its line maps may be another commit's (docs/coverage.md, "Trust").
    "older": "an older index schema 2 (this impact reads 4); rebuild it with impact index",
    "damaged": "corrupt coverage index (",
}


@pytest.mark.parametrize("how", sorted(BAD_INDEX))
def test_a_bad_index_is_named_in_one_line_and_the_selection_falls_back(calc, how):
    edit_line(calc, NEGATIVE_LINE)
    expected = static(calc)
    path = break_index(calc, how)
    run = calc.impact("--dry-run", "--format", "json")
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith(f"impact: warning: {path}: ")
    assert BAD_INDEX[how] in lines[0]
    assert lines[0].endswith("; selecting without the coverage index")
    assert selected_ids(run.json) == selected_ids(expected)
    assert run.json["index"] is None
    assert any(BAD_INDEX[how] in w for w in run.json["warnings"])
    status = calc.impact("index", "status")
    assert status.returncode == 2
    assert status.stderr.startswith(f"impact: error: {path}: ")
    assert len(status.stderr.splitlines()) == 1
    # Rebuilding replaces it.
    build_index(calc)
    assert calc.decide()["index"] is not None


def write_coverage_db(path, schema=7, contexts=("",)):
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE coverage_schema (version integer);"
            "CREATE TABLE meta (key text, value text, unique (key));"
            "CREATE TABLE file (id integer primary key, path text, unique (path));"
            "CREATE TABLE context (id integer primary key, context text, unique (context));"
            "CREATE TABLE line_bits (file_id integer, context_id integer, numbits blob, unique (file_id, context_id));")
        db.execute("INSERT INTO coverage_schema VALUES (?)", (schema,))
        for c in contexts:
            db.execute("INSERT INTO context (context) VALUES (?)", (c,))
    db.close()


def bad_coverage_file(repo, how):
    path = repo.path / ".coverage"
    if how == "no contexts":
        result = repo.pytest("--cov=.", "--cov-report=")  # no --cov-context=test
        assert result.returncode == 0, result.stdout
    elif how == "schema 4":
        write_coverage_db(path, schema=4, contexts=["tests/test_zero.py::test_zero|run"])
    elif how == "coverage 4 json":
        path.write_text("!coverage.py: This is a private format, don't read it directly!{\"lines\": {}}")
    elif how == "not coverage":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE t (x)")
        db.close()
    elif how == "truncated":
        result = repo.pytest("--cov=.", "--cov-context=test", "--cov-report=")
        assert result.returncode == 0, result.stdout
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
    elif how == "missing":
        pass
    return path


BAD_COVERAGE = {
    "no contexts": "no per-test contexts; record them with pytest --cov-context=test",
    "schema 4": "coverage.py data schema 4, which impact does not read",
    "coverage 4 json": "coverage.py 4.x data (JSON), which impact does not read",
    "not coverage": "an SQLite file but not coverage.py data; pass the .coverage file",
    "truncated": "cannot be read as coverage.py data (",
    "missing": "no such coverage file; run the suite under coverage first",
}


@pytest.mark.parametrize("how", sorted(BAD_COVERAGE))
def test_a_bad_coverage_file_is_refused_in_one_line_and_nothing_narrows(tmp_path, how):
    repo = make_repo(tmp_path, files=CALC)
    path = bad_coverage_file(repo, how)
    run = repo.impact("index", "--from", ".coverage")
    assert run.returncode == 2
    assert run.stderr.startswith(f"impact: error: {path}: "), run.stderr
    assert BAD_COVERAGE[how] in run.stderr
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert not (repo.path / INDEX).exists()
    path.unlink(missing_ok=True)
    edit_line(repo, NEGATIVE_LINE)
    repo.decide()  # warms the facts cache for the comparison below
    assert without_timings(repo.decide()) == without_timings(static(repo))


def test_pytest_without_pytest_cov_is_named_with_the_fix(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    fake = tmp_path / "fake-pytest"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    run = repo.impact("index", env={"IMPACT_PYTEST": str(fake)})
    assert run.returncode == 2
    assert "wrote no coverage data: is pytest-cov installed" in run.stderr
    assert not (repo.path / INDEX).exists()


def test_a_coverage_warning_made_fatal_by_filterwarnings_is_named_with_the_fix_that_works(tmp_path):
    # A coverage configuration newer than the installed coverage.py (an unknown option) warns at
    # start-up; the project's `filterwarnings = error` makes that warning stop pytest.
    files = dict(CALC)
    files["pyproject.toml"] = CALC["pyproject.toml"] + (
        'filterwarnings = ["error"]\n\n[tool.coverage.report]\nno_such_option_of_coverage = true\n')
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index")
    assert run.returncode == 2, run.stderr
    assert "impact index -- -W ignore::coverage.exceptions.CoverageWarning" in run.stderr.splitlines()[-1]
    fixed = repo.impact("index", "--", "-W", "ignore::coverage.exceptions.CoverageWarning")
    assert fixed.returncode == 0, fixed.stderr
    assert (repo.path / INDEX).exists()


# --- the two promises, measured --------------------------------------------------------------------

MUTANT = 'raise RuntimeError("impact mutant")'
FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?(?:\[[^\]]*\])?)(?: - .*)?$", re.M)
SIMPLE = re.compile(r"^(\s+)(return\b|[A-Za-z_][\w.]*\s*(?:=|\+=|-=)|[A-Za-z_][\w.]*\()")


def line_mutants(text):
    """(description, text): each simple statement in a function body replaced by a raise (a
    replacement the index can vouch for), a comparison flipped, and one insertion at each def."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = SIMPLE.match(line)
        if m and not line.rstrip().endswith(("(", "[", "{", ",", "\\")):
            yield f"line {i + 1} raises", "".join(lines[:i] + [m.group(1) + MUTANT + "\n"] + lines[i + 1:])
        for old, new in (("<", ">="), ("==", "!=")):
            if f" {old} " in line and line.lstrip().startswith(("if ", "return ")):
                yield f"line {i + 1}: {old} -> {new}", "".join(lines[:i] + [line.replace(f" {old} ", f" {new} ", 1)] + lines[i + 1:])
        if line.lstrip().startswith("def ") and i + 1 < len(lines):
            indent = re.match(r"\s*", lines[i + 1]).group(0)
            yield f"insert after line {i + 1}", "".join(lines[:i + 1] + [indent + MUTANT + "\n"] + lines[i + 1:])


def covered(node_id, selection):
    file = node_id.split("::", 1)[0]
    function = node_id.split("[", 1)[0]
    return any(s in (node_id, file, function) or node_id.startswith(s + "::") for s in selection)


@pytest.mark.parametrize("fixture", ["calc", "shop"])
def test_a_warm_index_never_selects_more_and_never_misses_a_broken_test(tmp_path, fixture):
    repo = make_repo(tmp_path, files=CALC) if fixture == "calc" else make_repo(tmp_path, "shop")
    build_index(repo)
    sources = sorted(p.relative_to(repo.path).as_posix() for p in (repo.path / "src").rglob("*.py"))
    misses, larger, checked, narrowed = [], [], 0, 0
    for rel in sources:
        original = repo.read(rel)
        for description, text in line_mutants(original):
            repo.write(rel, text)
            result = repo.pytest("-q", "-rfE")
            failed = set(FAILED.findall(result.stdout))
            warm, cold = repo.decide(), static(repo)
            if warm["decision"] == "run_all":
                if cold["decision"] != "run_all":
                    larger.append(f"{rel}: {description}: run_all with the index only")
            else:
                selected = selected_ids(warm)
                cold_selected = selected_ids(cold)
                if cold["decision"] != "run_all":
                    extra = [s for s in selected if not covered(s, cold_selected)]
                    if extra:
                        larger.append(f"{rel}: {description}: {extra} not in the static answer {cold_selected}")
                missed = sorted(n for n in failed if not covered(n, selected))
                if missed:
                    misses.append(f"{rel}: {description}: missed {missed} (selected {selected})")
                checked += bool(failed)
                narrowed += len(selected) < len(cold_selected)
            repo.write(rel, original)
    assert checked >= 5, f"too few mutants of {fixture} broke a test"
    assert not misses, "under-selection with the index:\n" + "\n".join(misses)
    assert not larger, "the index selected more than the static answer:\n" + "\n".join(larger)
    if fixture == "calc":
        assert narrowed >= 3, "the index never narrowed the selection"
