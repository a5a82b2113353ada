"""Saved decisions end to end: `impact select` prints the decision document and runs nothing, and
`impact --impact FILE` replays exactly that decision through the normal pytest path, after reading the
file strictly: every kind of invalid file exits 2 with one line naming the file, the field and the fix."""
import json
import resource
import stat
import subprocess
from pathlib import Path

import pytest

from gitutil import assert_error
from harness import IMPACT, clean_env, edit_stock, selected_ids, shop_ignoring_saved

STOCK_TEST = "tests/inventory/test_stock.py::test_level"
RESERVE_TEST = "tests/inventory/test_reserve.py::test_can_reserve"


def fake_pytest(tmp_path):
    """An executable that records its argv, one element a line, and exits 7."""
    script = Path(tmp_path) / "fake-pytest"
    record = Path(tmp_path) / "fake-pytest.argv"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > {record}\nexit 7\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script, record


def save(repo, *args, name="impact.json"):
    """impact select --format json > saved/name, checked; returns (path, document)."""
    run = repo.impact("select", *args, "--format", "json")
    assert run.returncode == 0, run.stderr
    path = repo.path / "saved" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(run.stdout)
    return path, json.loads(run.stdout)


@pytest.fixture
def shop(tmp_path):
    return shop_ignoring_saved(tmp_path)


class TestSelect:
    def test_select_prints_the_decision_document_and_runs_nothing(self, shop, tmp_path):
        script, record = fake_pytest(tmp_path)
        edit_stock(shop)
        run = shop.impact("select", "--format", "json", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 0, run.stderr
        assert not record.exists()
        doc = json.loads(run.stdout)
        assert doc["schema"] == "impact.decision" and doc["version"] == 1
        assert doc["decision"] == "selected"
        assert selected_ids(doc) == [RESERVE_TEST, STOCK_TEST]
        # the same document as the dry run, apart from how long it took, and the durations a plan
        # carries for --shard (only select weighs them: docs/json.md)
        dry = shop.decide(env={"IMPACT_PYTEST": str(script)})
        assert doc["durations"]["suite"] == "selection" and dry["durations"] is None
        for d in (doc, dry):
            d.pop("timings_ms")
            d.pop("durations")
            d["project"].pop("parsed")  # the second run finds the facts cached
            d["project"].pop("linked")  # and the import graph stored
        assert doc == dry

    def test_select_in_text_is_the_dry_run(self, shop):
        edit_stock(shop)
        run = shop.impact("select")
        assert run.returncode == 0
        assert run.stdout.startswith("decision: selected\n")
        assert f"  {STOCK_TEST}\n" in run.stdout

    def test_saving_into_the_working_tree_is_not_a_change(self, shop):
        # The shell creates impact.json before impact starts: an untracked file that would force run_all.
        edit_stock(shop)
        with open(shop.path / "impact.json", "w") as out:
            subprocess.run([IMPACT, "select", "--format", "json"], stdout=out, cwd=shop.path, env=clean_env(),
                           check=True)
        doc = json.loads(shop.read("impact.json"))
        assert doc["decision"] == "selected"
        assert selected_ids(doc) == [RESERVE_TEST, STOCK_TEST]
        [own] = [f for f in doc["changed_files"] if f["path"] == "impact.json"]
        assert own["kind"] == "ignored" and "own output" in own["effect"]
        # Captured by a pipe rather than a file, the same untracked file is a change like any other.
        assert shop.decide()["decision"] == "run_all"

    def test_select_staged_compares_the_index(self, shop):
        edit_stock(shop)
        _, unstaged = save(shop, "--staged")
        assert unstaged["decision"] == "nothing" and unstaged["base"]["mode"] == "staged"
        shop.git("add", "-A")
        _, staged = save(shop, "--staged")
        assert selected_ids(staged) == [RESERVE_TEST, STOCK_TEST]


class TestReplay:
    def test_replay_runs_exactly_the_saved_node_ids(self, shop, tmp_path):
        script, record = fake_pytest(tmp_path)
        edit_stock(shop)
        path, doc = save(shop)
        # Leave one test out, then undo the change: the replay runs what the file says, not a new analysis.
        doc["selected"] = [t for t in doc["selected"] if t["node_id"] == STOCK_TEST]
        path.write_text(json.dumps(doc))
        shop.git("checkout", "--", ".")
        run = shop.impact("--impact", "saved/impact.json", "--", "-q", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 7, run.stderr  # the process became the (fake) pytest
        assert record.read_text().splitlines() == [str(script), STOCK_TEST, "-q"]
        assert "from a saved report" in run.stderr

    def test_replay_with_real_pytest_gives_pytests_exit_code(self, shop):
        edit_stock(shop)
        save(shop)
        run = shop.impact("--impact", "saved/impact.json")
        assert run.returncode == 1, run.stdout + run.stderr
        assert "tests/inventory/test_stock.py F" in run.stdout
        assert "test_cart.py" not in run.stdout

    def test_replay_dry_run_prints_the_argv_and_runs_nothing(self, shop, tmp_path):
        script, record = fake_pytest(tmp_path)
        edit_stock(shop)
        _, saved = save(shop)
        run = shop.impact("--impact", "saved/impact.json", "--dry-run", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 0 and not record.exists()
        assert f"argv\n  {script}\n  {RESERVE_TEST}\n  {STOCK_TEST}\n" in run.stdout
        doc = json.loads(shop.impact("--impact", "saved/impact.json", "--format", "json").stdout)
        assert doc["base"] == saved["base"]  # no new diff was taken: the base is the saved decision's
        assert all("hunks" not in f for f in doc["changed_files"])
        assert selected_ids(doc) == [RESERVE_TEST, STOCK_TEST]

    def test_a_replayed_document_replays_again(self, shop):
        edit_stock(shop)
        save(shop)
        again = shop.impact("select", "--impact", "saved/impact.json", "--format", "json")
        assert again.returncode == 0, again.stderr
        (shop.path / "saved" / "again.json").write_text(again.stdout)
        run = shop.impact("--impact", "saved/again.json", "--dry-run", "--format", "json")
        assert run.returncode == 0, run.stderr
        assert selected_ids(run.json) == [RESERVE_TEST, STOCK_TEST]

    def test_replayed_run_all_runs_the_whole_suite(self, shop, tmp_path):
        script, record = fake_pytest(tmp_path)
        shop.write("src/shop/_speedups.c", "int speed(void) { return 1; }\n")  # built into code: it runs everything
        _, doc = save(shop)
        assert doc["decision"] == "run_all"
        run = shop.impact("--impact", "saved/impact.json", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 7
        assert record.read_text().splitlines() == [str(script)]

    def test_replayed_nothing_starts_nothing(self, shop, tmp_path):
        script, record = fake_pytest(tmp_path)
        shop.write("src/shop/unused.py", "X = 1\n")
        _, doc = save(shop)
        assert doc["decision"] == "nothing"
        run = shop.impact("--impact", "saved/impact.json", env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 0 and not record.exists()
        assert "nothing to run" in run.stderr

    def test_the_flags_of_an_analysis_conflict_with_a_replay(self, shop):
        edit_stock(shop)
        save(shop)
        for flags in (["--changed"], ["--staged"], ["--mode", "safe"], ["--file-level"]):
            run = shop.impact("--impact", "saved/impact.json", *flags)
            assert run.returncode == 2, flags
            assert run.stderr.startswith(f"impact: error: --impact replays a saved decision, which {flags[0]}")


def drop(keys):
    """An edit that removes doc[k0][k1]...[kn]."""
    def edit(doc):
        target = doc
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]
        return json.dumps(doc)
    return edit


def put(keys, value):
    def edit(doc):
        target = doc
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
        return json.dumps(doc)
    return edit


# name -> (edit of the saved document giving the file's text, JSON path in the message, what it says)
INVALID = {
    "missing_field": (drop(["selected", 0, "node_id"]), "$.selected[0].node_id", "required field is missing"),
    "missing_top_level_field": (drop(["decision"]), "$.decision", "required field is missing"),
    "wrong_type": (put(["selected", 0, "node_id"], 42), "$.selected[0].node_id", "expected a string, found a number"),
    "wrong_type_nested": (put(["mode", "strict"], "no"), "$.mode.strict", "expected true or false"),
    "unknown_key": (put(["selected_tests"], []), "$.selected_tests", "unknown key"),
    "unknown_nested_key": (put(["selected", 0, "chain", 0, "weight"], 1), "$.selected[0].chain[0].weight",
                           "unknown key"),
    "newer_version": (put(["version"], 2), "$.version", "version 2 is newer than this impact reads (1)"),
    "unknown_old_version": (put(["version"], 0), "$.version", "unknown version 0"),
    "version_as_string": (put(["version"], "1"), "$.version", "expected an integer"),
    "other_schema": (put(["schema"], "impact.changes"), "$.schema", "is not a decision document"),
    "bad_decision": (put(["decision"], "maybe"), "$.decision", "is not one of selected, run_all, nothing"),
    "empty_selection": (put(["selected"], []), "$.selected", "empty, but $.decision is \"selected\""),
    "node_id_option": (put(["selected", 0, "node_id"], "--co"), "$.selected[0].node_id", "as an option"),
    "not_json": (lambda doc: "decision: selected\n", None, "not JSON: syntax error at line 1"),
    "truncated": (lambda doc: json.dumps(doc, indent=2)[:400], None, "truncated: the JSON ends at line"),
    "empty_file": (lambda doc: "", None, "the file is empty"),
    "not_an_object": (lambda doc: json.dumps([doc]), "$", "expected the decision object, found array"),
    "repeated_key": (lambda doc: '{"decision": "nothing", ' + json.dumps(doc)[1:], "$.decision",
                     "appears more than once"),
    # Found by tests/fuzz/replay_fuzz: nlohmann's out_of_range escaped as an "internal error".
    "number_too_large": (lambda doc: json.dumps(doc).replace('"version": 1', '"version": 1e999', 1), None,
                         "a number too large to read"),
}


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_every_invalid_file_exits_2_with_one_line_naming_file_field_and_fix(shop, tmp_path, kind):
    edit, path, problem = INVALID[kind]
    script, record = fake_pytest(tmp_path)
    edit_stock(shop)
    _, doc = save(shop, name="good.json")
    (shop.path / "saved" / "bad.json").write_text(edit(doc))
    for args in (["--impact", "saved/bad.json"], ["--impact", "saved/bad.json", "--dry-run"],
                 ["audit", "--impact", "saved/bad.json"]):
        run = shop.impact(*args, env={"IMPACT_PYTEST": str(script)})
        assert run.returncode == 2, (args, run.stderr)
        assert run.stdout == ""
        assert not record.exists()  # nothing ran
        lines = run.stderr.splitlines()
        assert len(lines) == 1, run.stderr
        line = lines[0]
        expected = "impact: error: saved/bad.json: " + (f"{path}: " if path else "")
        assert line.startswith(expected), line
        assert problem in line, line
        fix = "upgrade impact" if kind == "newer_version" else "regenerate it with impact select --format json"
        assert fix in line, line


def test_a_file_that_does_not_exist_is_named(shop):
    run = shop.impact("--impact", "gone.json")
    assert run.returncode == 2
    assert run.stderr == ("impact: error: gone.json: no such file; pass the file impact select --format json "
                          "wrote\n")


# --- what a saved decision may make pytest run (issue 11, finding 9) ----------------------------------

def with_node_id(doc, node_id):
    doc["selected"][0]["node_id"] = node_id
    return json.dumps(doc)


def evil_outside(tmp_path):
    """A test file outside the repository that leaves a mark when pytest collects it."""
    outside = Path(tmp_path) / "outside"
    outside.mkdir()
    mark = outside / "ran"
    (outside / "test_evil.py").write_text(f"open({str(mark)!r}, 'w').close()\n\ndef test_evil():\n    pass\n")
    return outside, mark


@pytest.mark.parametrize("node_id, words", [
    ("../outside/test_evil.py", ["'..'"]),
    ("tests/../../outside/test_evil.py::test_evil", ["'..'"]),
    ("tests/..", ["'..'"]),
    ("{outside}/test_evil.py", ["absolute path"]),
])
def test_a_node_id_outside_the_repository_is_refused(shop, tmp_path, node_id, words):
    outside, mark = evil_outside(tmp_path)
    node_id = node_id.format(outside=outside)
    edit_stock(shop)
    path, doc = save(shop)
    path.write_text(with_node_id(doc, node_id))
    for args in (["--impact", "saved/impact.json"], ["--impact", "saved/impact.json", "--dry-run"]):
        run = shop.impact(*args)
        assert_error(run, "saved/impact.json", node_id, *words)
    assert not mark.exists()  # pytest never collected it


def test_a_node_id_through_a_symlink_out_of_the_work_tree_is_refused(shop, tmp_path):
    outside, mark = evil_outside(tmp_path)
    edit_stock(shop)
    path, doc = save(shop)
    (shop.path / "tests" / "elsewhere").symlink_to(outside)
    (shop.path / "tests" / "evil_file.py").symlink_to(outside / "test_evil.py")
    for node_id in ("tests/elsewhere/test_evil.py::test_evil", "tests/evil_file.py"):
        path.write_text(with_node_id(doc, node_id))
        assert_error(shop.impact("--impact", "saved/impact.json"), "saved/impact.json", node_id,
                     "outside the work tree", str(outside))
    assert not mark.exists()


def test_parameter_ids_may_hold_anything(shop, tmp_path):
    script, record = fake_pytest(tmp_path)
    edit_stock(shop)
    path, doc = save(shop)
    legal = "tests/inventory/test_stock.py::test_level[a/../../b::c]"
    path.write_text(with_node_id(doc, legal))
    run = shop.impact("--impact", "saved/impact.json", env={"IMPACT_PYTEST": str(script)})
    assert run.returncode == 7, run.stderr
    assert legal in record.read_text().splitlines()
    # a file that is not there is pytest's to report, not an escape
    path.write_text(with_node_id(doc, "tests/not_yet/test_gone.py::test_x"))
    run = shop.impact("--impact", "saved/impact.json", env={"IMPACT_PYTEST": str(script)})
    assert run.returncode == 7, run.stderr


# --- whose history a saved decision belongs to ----------------------------------------------------------

def test_a_decision_from_another_repository_is_refused_unless_forced(shop, tmp_path):
    script, record = fake_pytest(tmp_path)
    edit_stock(shop)
    path, doc = save(shop)
    doc["base"]["commit"] = "0123456789abcdef0123456789abcdef01234567"
    path.write_text(json.dumps(doc))
    for args in (["--impact", "saved/impact.json"], ["select", "--impact", "saved/impact.json"]):
        assert_error(shop.impact(*args, env={"IMPACT_PYTEST": str(script)}), "saved/impact.json",
                     "0123456789abcdef0123456789abcdef01234567", "not in this repository", "--force")
    assert not record.exists()
    forced = shop.impact("--impact", "saved/impact.json", "--force", env={"IMPACT_PYTEST": str(script)})
    assert forced.returncode == 7, forced.stderr
    assert "impact: warning: saved/impact.json: its base commit" in forced.stderr and "(--force)" in forced.stderr


def test_a_decision_from_another_line_of_history_is_refused(shop):
    edit_stock(shop)
    save(shop)
    shop.git("stash")
    shop.git("checkout", "-q", "--orphan", "elsewhere")
    shop.commit("unrelated root")
    assert_error(shop.impact("--impact", "saved/impact.json"), "neither HEAD nor an ancestor of HEAD", "--force")


def test_a_decision_whose_base_is_an_ancestor_of_head_replays(shop):
    edit_stock(shop)
    save(shop)
    shop.commit("the change, committed")
    run = shop.impact("--impact", "saved/impact.json", "--dry-run")
    assert run.returncode == 0, run.stderr
    assert f"  {STOCK_TEST}\n" in run.stdout


def test_a_replayed_decision_keeps_its_base(shop):
    edit_stock(shop)
    _, doc = save(shop)
    again = shop.impact("select", "--impact", "saved/impact.json", "--format", "json")
    assert again.returncode == 0, again.stderr
    assert again.json["base"] == doc["base"]


def test_a_shallow_clone_without_the_base_says_how_to_fetch_it(shop, tmp_path):
    edit_stock(shop)
    path, doc = save(shop)
    shop.git("stash")
    shop.commit("one more")
    shop.commit("and another")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{shop.path}", str(clone)], check=True,
                   env=clean_env(), capture_output=True)
    (clone / "saved").mkdir()
    (clone / "saved" / "impact.json").write_text(path.read_text())
    run = subprocess.run([IMPACT, "--impact", "saved/impact.json"], cwd=clone, env=clean_env(), capture_output=True,
                         text=True)
    line = assert_error(run, "shallow clone", "git fetch --deepen=", "--unshallow")
    # and the fix works
    subprocess.run(["git", "-C", str(clone), "fetch", "-q", "--unshallow"], check=True, env=clean_env(),
                   capture_output=True)
    run = subprocess.run([IMPACT, "--impact", "saved/impact.json", "--dry-run"], cwd=clone, env=clean_env(),
                         capture_output=True, text=True)
    assert run.returncode == 0, (line, run.stderr)


# --- size (issue 11: replay of 500,000 node ids took 80 s, quadratic in the count) ----------------------

def cpu_seconds_to_replay(shop, path, doc, count):
    """The CPU time (not wall time: the machine may be busy) of one dry-run replay of `count` node ids."""
    doc["selected"] = [{"node_id": f"tests/inventory/test_stock.py::test_level[{i}]", "chain": [], "note": None}
                       for i in range(count)]
    path.write_text(json.dumps(doc))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = shop.impact("--impact", "saved/impact.json", "--dry-run", timeout=1800)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("tests/inventory/test_stock.py::test_level[") == 2 * count  # selection and argv
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def test_replay_time_is_linear_in_the_node_ids(shop):
    # Thirty times the node ids: linear takes at most thirty times as long (measured: 33 in a Debug build,
    # the fixed start-up cost included), quadratic far more (the old reader: 190). The bound sits
    # between, well away from both, so that timing noise cannot flip it.
    edit_stock(shop)
    path, doc = save(shop)
    small = cpu_seconds_to_replay(shop, path, doc, 10_000)
    large = cpu_seconds_to_replay(shop, path, doc, 300_000)
    assert large < 80 * max(small, 0.05), (small, large)
