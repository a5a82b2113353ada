"""Source text whose bytes and CPython's reading differ, where git's line numbers meet coverage.py's.

CPython ends a line at a lone carriage return; git does not. coverage.py records CPython's line
numbers, so in a file with a lone "\\r" a git hunk's line N is not coverage's line N, and the index
must not narrow with it (docs/coverage.md, `line_endings`). The selection rules themselves are pinned
by fixtures/odd_source/cases.toml.
"""
from harness import make_repo, selected_ids
from test_index import CALC, SIGNS, assert_falls_back, build_index


def test_a_lone_carriage_return_makes_the_index_fall_back(tmp_path):
    files = dict(CALC)
    # One more line for CPython (and coverage.py) than for git above every line of classify().
    files[SIGNS] = files[SIGNS].replace('"""Signs of numbers."""\n', '"""Signs of numbers."""  # x\rVERSION = 1\n')
    repo = make_repo(tmp_path, files=files)
    build_index(repo)
    # git's line 9 is coverage's line 10; coverage's line 9 is `return "zero"`, run by test_zero only.
    repo.replace(SIGNS, '    return "positive"\n', '    return "positive".lower()\n')
    warm = assert_falls_back(repo, SIGNS, "line_endings")
    assert "tests/test_positive.py::test_describe" in selected_ids(warm)
