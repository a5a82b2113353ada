"""Several versions of a file in one coverage index (docs/coverage.md, "Versions"): two branches index
different contents of one file, `impact index merge` keeps both, and a change on each branch is
answered by its own version's coverage, not by the static fallback the newer version alone would give.
"""
import shutil
import sqlite3
import time

from harness import make_repo, selected_ids
from test_index import CALC, INDEX, NEGATIVE_LINE, NEGATIVE_TESTS, SIGNS, build_index, edit_line, file_entry

SHIFT = ('"""Signs of numbers."""\n', '"""Signs of numbers."""\n# shifted by one line\n')
ZERO_COMMENT = ("tests/test_zero.py", "\n\n\ndef test_zero", "\n\n\n# zero\ndef test_zero")


def two_branch_indexes(repo, tmp_path, also=None):
    """main's index and feature's (signs.py one line lower there, and the edit `also`), built one after
    the other."""
    build_index(repo)
    main = tmp_path / "main.sqlite"
    shutil.move(repo.path / INDEX, main)
    repo.git("checkout", "-q", "-b", "feature")
    repo.replace(SIGNS, *SHIFT)
    if also:
        repo.replace(*also)
    repo.commit("shift")
    time.sleep(1.1)  # built_at has one-second resolution: the feature's index is the newer
    build_index(repo)
    feature = tmp_path / "feature.sqlite"
    shutil.move(repo.path / INDEX, feature)
    return main, feature


def assert_own_version_answers(repo, line):
    edit_line(repo, NEGATIVE_LINE)
    warm = repo.decide()
    entry = file_entry(warm, SIGNS)
    assert (entry["source"], entry["fallback"]) == ("coverage", None), entry
    assert selected_ids(warm) == NEGATIVE_TESTS
    test = next(t for t in warm["selected"] if t["node_id"] == NEGATIVE_TESTS[0])
    assert test["note"] == f"covered line {SIGNS}:{line}"
    repo.git("checkout", "-q", "--", SIGNS)


def test_a_merged_index_answers_each_branch_from_its_own_version(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    main, feature = two_branch_indexes(repo, tmp_path)
    for order in ((main, feature), (feature, main)):
        run = repo.impact("index", "merge", *map(str, order), "-o", INDEX)
        assert run.returncode == 0, run.stderr
        repo.git("checkout", "-q", "feature")
        assert repo.impact("index", "status", "--format", "json").json["drifted"] == []
        assert_own_version_answers(repo, 7)
        # main's signs.py is not the newer index's: the version main measured answers.
        repo.git("checkout", "-q", "main")
        assert repo.impact("index", "status", "--format", "json").json["drifted"] == []
        assert_own_version_answers(repo, 6)


def test_the_newer_index_alone_falls_back_on_the_other_branch(tmp_path):
    # What the merge adds: with feature's index only, main's change is drift and takes the static answer.
    repo = make_repo(tmp_path, files=CALC)
    _, feature = two_branch_indexes(repo, tmp_path)
    shutil.copy(feature, repo.path / INDEX)
    repo.git("checkout", "-q", "main")
    edit_line(repo, NEGATIVE_LINE)
    entry = file_entry(repo.decide(), SIGNS)
    assert (entry["source"], entry["fallback"]) == ("static", "drift"), entry


def test_a_file_only_the_other_branchs_run_measured_sends_its_tests_to_the_static_answer(tmp_path):
    # main's signs.py with feature's test_zero.py: the merged index holds that test file as feature's
    # run measured it, but main's run, whose signs.py answers, measured another content: its tests keep
    # the static answer (a version is read against its own run, never against a mixture of runs).
    repo = make_repo(tmp_path, files=CALC)
    main, feature = two_branch_indexes(repo, tmp_path, also=ZERO_COMMENT)
    run = repo.impact("index", "merge", str(main), str(feature), "-o", INDEX)
    assert run.returncode == 0, run.stderr
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "feature", "--", ZERO_COMMENT[0])
    repo.commit("test_zero.py from feature")
    edit_line(repo, NEGATIVE_LINE)
    warm = repo.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert selected_ids(warm) == sorted(NEGATIVE_TESTS + ["tests/test_zero.py::test_zero"])


def test_an_index_of_the_previous_schema_is_still_read_and_merged(tmp_path):
    # Schema 3 held one version per file and no runs: it reads as one run's index.
    repo = make_repo(tmp_path, files=CALC)
    build_index(repo)
    with sqlite3.connect(repo.path / INDEX) as db:
        db.executescript("DROP INDEX file_path; ALTER TABLE file DROP COLUMN origins; DROP TABLE origin;"
                         "UPDATE meta SET value = '3' WHERE key = 'schema';")
    assert repo.impact("index", "status", "--format", "json").json["index_schema"] == 3
    assert_own_version_answers(repo, 6)
    old = tmp_path / "old.sqlite"
    shutil.copy(repo.path / INDEX, old)
    run = repo.impact("index", "merge", str(old), "-o", INDEX)
    assert run.returncode == 0, run.stderr
    assert repo.impact("index", "status", "--format", "json").json["index_schema"] == 4
    assert_own_version_answers(repo, 6)


def test_a_shared_cache_fed_by_two_branches_answers_each_from_its_own_version(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    remote = tmp_path / "remote"
    for branch in ("main", "feature"):
        if branch == "feature":
            repo.git("checkout", "-q", "-b", "feature")
            repo.replace(SIGNS, *SHIFT)
            repo.commit("shift")
            time.sleep(1.1)  # the feature's index is the newer
        run = repo.impact("index", "--cache-remote", str(remote), "--cache-push")
        assert run.returncode == 0, run.stdout + run.stderr
    for compacted in (False, True):
        if compacted:
            assert repo.impact("cache", "compact", "--cache-remote", str(remote)).returncode == 0
        shutil.rmtree(repo.path / ".impact_cache")  # a fresh job: everything comes from the remote
        run = repo.impact("select", "--cache-remote", str(remote), "--cache-pull")
        assert run.returncode == 0, run.stderr
        for branch, line in (("feature", 7), ("main", 6)):
            repo.git("checkout", "-q", branch)
            assert_own_version_answers(repo, line)
