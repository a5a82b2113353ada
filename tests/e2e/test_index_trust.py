"""The coverage index trusts a file's lines only where something proves that coverage.py measured the
content the index hashes (docs/coverage.md, "Trust"): coverage.py records no hash and no commit.

`impact index --from FILE` trusts a file that is clean and was last committed and written before FILE,
or, with `--measured-at REV`, a file whose blob at REV is the one hashed; `impact index` trusts what did
not change while the suite ran. Everything else is untrusted: the static answer for it and for the tests
that load it, and one line on stderr saying so and how to fix it. Also here: `impact index` under
PYTEST_DISABLE_PLUGIN_AUTOLOAD, `index merge -o` onto a file that is not an index, and the removal of
temporaries left by killed runs.
"""
import os
import time

from harness import make_repo, selected_ids
from test_index import CALC, INDEX, SIGNS, NEGATIVE_TESTS, build_index, file_entry, static

# signs.py with describe() moved above classify(): line 6 is now describe's `kind = kind.upper() ...`,
# where the measured file had classify's `return "negative"`.
REORDERED = (
    '"""Signs of numbers."""\n'                            # 1
    "\n"                                                   # 2
    "\n"                                                   # 3
    "def describe(n):\n"                                   # 4
    "    kind = classify(n)\n"                             # 5
    "    kind = kind.upper() if n > 100 else kind\n"       # 6
    '    return f"{n} is {kind}"\n'                        # 7
    "\n"                                                   # 8
    "\n"                                                   # 9
    "def classify(n):\n"                                   # 10
    "    if n < 0:\n"                                      # 11
    '        return "negative"\n'                          # 12
    "    if n == 0:\n"                                     # 13
    '        return "zero"\n'                              # 14
    '    return "positive"\n'                              # 15
)
# Breaks test_describe ("3 is POSITIVE"), which the stale line 6 (`return "negative"`) does not name.
BREAK_DESCRIBE = ("    kind = kind.upper() if n > 100 else kind\n", "    kind = kind.upper() if n > -100 else kind\n")


def measure(repo):
    """The suite under pytest-cov with per-test contexts, as a CI job that already has coverage runs it.
    It starts two seconds after the last commit: the trust rule takes a commit within a second of the data
    file (commit times have one-second resolution) as possibly later than the data."""
    time.sleep(2.1)
    result = repo.pytest("--cov=.", "--cov-context=test", "--cov-report=")
    assert result.returncode == 0, result.stdout
    return repo.path / ".coverage"


def stale_data(tmp_path):
    """Coverage measured, then the functions of signs.py reordered and committed: the data's line
    numbers are of the old order."""
    repo = make_repo(tmp_path, files=CALC)
    measure(repo)
    measured_at = repo.git("rev-parse", "HEAD").strip()
    repo.write(SIGNS, REORDERED)
    repo.git("commit", "-qam", "describe first")  # not the .coverage file
    return repo, measured_at


def ingest(repo, *args):
    run = build_index(repo, "--from", ".coverage", *args)
    (repo.path / ".coverage").unlink()  # not a change to select for
    return run


def test_data_of_an_older_commit_does_not_narrow_with_stale_line_numbers(tmp_path):
    repo, _ = stale_data(tmp_path)
    run = ingest(repo)
    assert ("impact: warning: 1 file(s) changed, or are not committed, since " in run.stderr
            and f"was written ({SIGNS})" in run.stderr), run.stderr
    assert "impact index --from FILE --measured-at REV" in run.stderr
    status = repo.impact("index", "status", "--format", "json").json
    assert status["untrusted"] == [SIGNS]
    assert "untrusted: 1 file(s)" in repo.impact("index", "status").stdout
    repo.replace(SIGNS, *BREAK_DESCRIBE)
    warm = repo.decide()
    entry = file_entry(warm, SIGNS)
    assert (entry["source"], entry["fallback"]) == ("static", "untrusted"), entry
    assert "tests/test_positive.py::test_describe" in selected_ids(warm)
    assert selected_ids(warm) == selected_ids(static(repo))
    assert "coverage index: untrusted: " in repo.impact("--dry-run").stdout
    run = repo.impact()
    assert run.returncode == 1 and "test_describe" in run.stdout, run.stdout + run.stderr


def test_the_files_that_did_not_change_since_the_data_still_narrow(tmp_path):
    repo, _ = stale_data(tmp_path)
    ingest(repo)
    repo.replace("src/calc/pretty.py", 'return f"<{n}>"', 'return f"<{n} >"')
    warm = repo.decide()
    assert file_entry(warm, "src/calc/pretty.py")["source"] == "coverage"
    assert selected_ids(warm) == ["tests/test_pretty.py::test_show_negative"]


def test_measured_at_the_commit_measured_trusts_what_it_holds_and_nothing_else(tmp_path):
    repo, measured_at = stale_data(tmp_path)
    run = ingest(repo, "--measured-at", measured_at)
    assert f"impact: warning: 1 file(s) differ from {measured_at} ({SIGNS})" in run.stderr, run.stderr
    repo.replace(SIGNS, *BREAK_DESCRIBE)
    assert file_entry(repo.decide(), SIGNS)["fallback"] == "untrusted"


def test_measured_at_trusts_a_file_committed_after_the_data_when_its_blob_matches(tmp_path):
    # The data file was written before the commit that holds what it measured: the mtime rule cannot
    # vouch for the file, the named commit can.
    repo = make_repo(tmp_path, files=CALC)
    repo.replace(SIGNS, '"""Signs of numbers."""\n', '"""The signs of numbers."""\n')
    measure(repo)
    time.sleep(1.1)  # the commit lands in a later second than the data file
    repo.git("commit", "-qam", "docstring")
    assert "1 file(s) changed, or are not committed" in build_index(repo, "--from", ".coverage").stderr
    run = ingest(repo, "--measured-at", "HEAD")
    assert "warning" not in run.stderr, run.stderr
    repo.replace(SIGNS, '        return "negative"\n', '        return "negative".lower()\n')
    warm = repo.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"
    assert selected_ids(warm) == NEGATIVE_TESTS
    assert repo.impact("index", "status", "--format", "json").json["untrusted"] == []


def test_a_file_dirty_in_the_working_tree_is_not_trusted(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    repo.replace("src/calc/pretty.py", 'return f"<{n}>"', 'return f"<{n}>"  # uncommitted')
    measure(repo)
    run = ingest(repo)
    assert "1 file(s) changed, or are not committed" in run.stderr and "src/calc/pretty.py" in run.stderr
    assert repo.impact("index", "status", "--format", "json").json["untrusted"] == ["src/calc/pretty.py"]


def test_measured_at_needs_from_and_a_known_commit(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    run = repo.impact("index", "--measured-at", "HEAD")
    assert run.returncode == 2
    assert run.stderr == ("impact: error: --measured-at names the commit a coverage file read with --from was "
                          "measured at; add --from FILE\n")
    measure(repo)
    run = repo.impact("index", "--from", ".coverage", "--measured-at", "no-such-rev")
    assert run.returncode == 2
    assert run.stderr.startswith("impact: error: unknown revision 'no-such-rev'"), run.stderr
    assert not (repo.path / INDEX).exists()


def test_a_file_changed_while_the_suite_ran_is_not_trusted(tmp_path):
    files = dict(CALC)
    # At the end of the session the suite rewrites pretty.py: what is hashed is not what ran.
    files["tests/conftest.py"] = CALC["tests/conftest.py"] + (
        "\n\ndef pytest_sessionfinish(session):\n"
        "    import pathlib\n"
        "    p = pathlib.Path(__file__).parent.parent / 'src/calc/pretty.py'\n"
        "    p.write_text('\\n\\n' + p.read_text())\n"
    )
    repo = make_repo(tmp_path, files=files)
    run = build_index(repo)
    assert "impact: warning: 1 file(s) changed while the suite ran (src/calc/pretty.py)" in run.stderr, run.stderr
    assert repo.impact("index", "status", "--format", "json").json["untrusted"] == ["src/calc/pretty.py"]
    repo.commit("as the suite left it")
    repo.replace("src/calc/pretty.py", 'return f"<{n}>"', 'return f"<{n} >"')
    assert file_entry(repo.decide(), "src/calc/pretty.py")["fallback"] == "untrusted"


def test_index_runs_with_plugin_autoload_disabled(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    run = repo.impact("index", env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "impact: indexed 11 test(s)" in run.stderr
    assert "-p pytest_cov" in run.stderr  # the command it ran, as printed
    run = repo.impact("index")  # and with autoload on, pytest-cov is not registered twice
    assert run.returncode == 0, run.stdout + run.stderr


def test_merge_refuses_to_overwrite_a_file_that_is_not_an_index(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    build_index(repo)
    shard = tmp_path / "shard.sqlite"
    (repo.path / INDEX).rename(shard)
    for target in (SIGNS, "src/calc/__init__.py", "src/calc"):
        before = repo.git("status", "--porcelain")
        run = repo.impact("index", "merge", str(shard), "-o", target)
        assert run.returncode == 2, run.stderr
        assert run.stderr == (f"impact: error: {repo.path / target}: exists and is not an impact coverage index; "
                              "refusing to overwrite it; pass a new file or an index to -o\n")
        assert repo.git("status", "--porcelain") == before
    for target in (INDEX, INDEX):  # absent, then an index
        run = repo.impact("index", "merge", str(shard), "-o", target)
        assert run.returncode == 0, run.stderr


def test_stale_temporaries_of_killed_runs_are_removed(tmp_path):
    repo = make_repo(tmp_path, files=CALC)
    cache = repo.path / ".impact_cache"
    cache.mkdir()
    old = time.time() - 2 * 86400
    # Another host's, or an older impact's (no host in the name): by age only. This host's own files go
    # by process id too: tests/unit/util/temp_files_test.cpp.
    gone = {"facts-v18.bin.tmp-1234-5f3a", "coverage-run-4321.sqlite",  # older impact's names
            "coverage-index.sqlite.tmp-elsewhere-7-ab", "coverage-run-elsewhere-8.sqlite"}
    kept = {"coverage-run-elsewhere-9.sqlite"}  # another host's run, still young
    for name in gone | kept:
        (cache / name).write_text("x")
        if name in gone:
            os.utime(cache / name, (old, old))
    build_index(repo)
    left = {p.name for p in cache.iterdir()}
    assert not (gone & left), left
    assert kept <= left


def test_a_test_file_changed_after_the_data_keeps_its_static_answer_even_when_only_hashed(tmp_path):
    # With --cov=src the tests are not measured, only hashed: test_pretty.py, changed and committed
    # after the data was written to call classify(), must not pass for the content that ran.
    repo = make_repo(tmp_path, files=CALC)
    time.sleep(2.1)  # as measure() does: a commit within a second of the data may be later than it
    result = repo.pytest("--cov=src", "--cov-context=test", "--cov-report=")
    assert result.returncode == 0, result.stdout
    repo.write("tests/test_pretty.py", "from calc.pretty import show\nfrom calc.signs import classify\n\n\n"
               "def test_show_negative():\n    assert show(-3).startswith(\"<-3\")\n"
               "    assert classify(-3) == \"negative\"\n")
    repo.git("commit", "-qam", "test_pretty checks the sign too")
    run = ingest(repo)
    repo.replace(SIGNS, '        return "negative"\n', '        return "minus"\n')
    warm = repo.decide()
    assert file_entry(warm, SIGNS)["source"] == "coverage"  # the other tests still narrow
    assert "tests/test_pretty.py::test_show_negative" in selected_ids(warm)
    assert "(tests/test_pretty.py)" in run.stderr, run.stderr


def test_data_with_lines_beyond_a_files_end_is_rejected_whatever_vouched_for_it(tmp_path):
    # Measured with signs.py whole; then it lost its last function and that was committed; the user
    # names HEAD as the commit measured, which is wrong: the data records lines past the file's end.
    repo = make_repo(tmp_path, files=CALC)
    measure(repo)
    text = repo.read(SIGNS)
    repo.write(SIGNS, text[: text.index("\n\ndef describe")] + "\n")
    repo.write("tests/test_positive.py", "from calc.signs import classify\n\n\ndef test_positive(small):\n"
               "    assert classify(5 + small) == \"positive\"\n")
    repo.git("commit", "-qam", "no describe")
    run = ingest(repo, "--measured-at", "HEAD")
    assert f"({SIGNS}, tests/test_positive.py; 2 of them with recorded lines beyond their end)" in run.stderr, run.stderr
    assert SIGNS in repo.impact("index", "status", "--format", "json").json["untrusted"]
