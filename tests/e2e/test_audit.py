"""`impact audit` end to end: the whole suite runs once under real pytest, and a test that failed although
the selection skips it is a miss, reported with its evidence, exit 1. Failures the selection runs are
caught, not missed. The planted miss is a saved decision edited to leave out a breaking test."""
import json
import subprocess

import pytest

from harness import IMPACT, clean_env, edit_stock, shop_ignoring_saved

STOCK_TEST = "tests/inventory/test_stock.py::test_level"
RESERVE_TEST = "tests/inventory/test_reserve.py::test_can_reserve"
SHOP_TESTS = 10


@pytest.fixture
def shop(tmp_path):
    return shop_ignoring_saved(tmp_path)


def plant_miss(repo):
    """A saved decision for the stock change that leaves out the test the change breaks."""
    run = repo.impact("select", "--format", "json")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert STOCK_TEST in [t["node_id"] for t in doc["selected"]]
    doc["selected"] = [t for t in doc["selected"] if t["node_id"] != STOCK_TEST]
    (repo.path / "saved").mkdir(exist_ok=True)
    (repo.path / "saved" / "impact.json").write_text(json.dumps(doc, indent=2))


def audit_json(repo, *args):
    run = repo.impact("audit", *args, "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    return run, json.loads(run.stdout)


class TestCleanAudit:
    def test_a_selection_that_runs_every_failing_test_exits_0(self, shop):
        edit_stock(shop)
        run = shop.impact("audit")
        assert run.returncode == 0, run.stdout + run.stderr
        out = run.stdout
        assert "selection: selected, 2 node id(s)" in out
        assert f"  {'ran (whole suite)':<24} {SHOP_TESTS:>7} {1:>7}\n" in out
        assert f"  {'selected':<24} {2:>7} {1:>7}\n" in out
        assert f"  {'skipped by selection':<24} {SHOP_TESTS - 2:>7} {0:>7}\n" in out
        assert "1 selected test(s) failed: the selection runs them, so they are caught, not missed" in out
        assert "result: no misses" in out
        assert "MISS" not in out
        # pytest's own report goes to stderr, so stdout is the audit alone
        assert "test_stock.py F" in run.stderr

    def test_the_json_document(self, shop):
        edit_stock(shop)
        run, doc = audit_json(shop)
        assert run.returncode == 0
        assert set(doc) == {"schema", "version", "impact_version", "selection", "base", "changed_files", "pytest",
                            "counts", "tests", "misses", "unmatched", "result"}
        assert doc["schema"] == "impact.audit" and doc["version"] == 1
        assert doc["selection"] == {"file": None, "decision": "selected", "reason": None, "detail": None,
                                    "node_ids": [RESERVE_TEST, STOCK_TEST]}
        assert doc["base"]["mode"] == "working_tree" and len(doc["base"]["commit"]) == 40
        assert doc["changed_files"] == ["src/shop/inventory/stock.py"]
        assert doc["pytest"]["exit_code"] == 1
        assert doc["pytest"]["source"] == "pytest on PATH"
        assert "-p" in doc["pytest"]["argv"] and "impact_audit_plugin" in doc["pytest"]["argv"]
        assert doc["counts"] == {"ran": SHOP_TESTS, "failed": 1, "selected": 2, "selected_failed": 1,
                                 "skipped": SHOP_TESTS - 2, "skipped_failed": 0, "misses": 0}
        tests = {t["node_id"]: t for t in doc["tests"]}
        assert len(tests) == SHOP_TESTS
        assert tests[STOCK_TEST] == {"node_id": STOCK_TEST, "outcome": "failed", "collection_error": False,
                                     "selected": True}
        assert tests[RESERVE_TEST]["outcome"] == "passed" and tests[RESERVE_TEST]["selected"]
        assert sum(t["selected"] for t in doc["tests"]) == 2
        assert doc["misses"] == [] and doc["unmatched"] == []
        assert doc["result"] == "no_misses"

    def test_the_json_written_into_the_working_tree_is_not_a_change(self, shop):
        edit_stock(shop)
        with open(shop.path / "audit.json", "w") as out:
            run = subprocess.run([IMPACT, "audit", "--format", "json"], stdout=out, stderr=subprocess.PIPE,
                                 cwd=shop.path, env=clean_env(), timeout=300)
        assert run.returncode == 0, run.stderr
        doc = json.loads(shop.read("audit.json"))
        assert doc["selection"]["decision"] == "selected"  # not run_all for an untracked audit.json
        assert doc["changed_files"] == ["audit.json", "src/shop/inventory/stock.py"]

    def test_run_all_cannot_miss(self, shop):
        edit_stock(shop)
        shop.commit("break stock")  # the breakage is in HEAD now: no change reaches it
        shop.write("src/shop/_speedups.c", "int speed(void) { return 1; }\n")  # built into code: it runs everything
        run, doc = audit_json(shop)
        assert run.returncode == 0
        assert doc["selection"]["decision"] == "run_all"
        assert doc["counts"]["failed"] == 1 and doc["counts"]["skipped"] == 0 and doc["misses"] == []


class TestMisses:
    def test_a_planted_miss_is_reported_with_its_evidence_and_exits_1(self, shop):
        edit_stock(shop)
        plant_miss(shop)
        run = shop.impact("audit", "--impact", "saved/impact.json")
        assert run.returncode == 1, run.stdout + run.stderr
        out = run.stdout
        assert "audited: the saved decision saved/impact.json" in out
        assert f"  MISS {STOCK_TEST} (failed)\n" in out
        # the chain that should have reached it: the analysis of the same change selects it
        assert ("    the analysis of the change selects it: tests/inventory/test_stock.py:test_level (references, "
                "line 4) → src/shop/inventory/stock.py:level [implementation]") in out
        assert f"  {'skipped by selection':<24} {SHOP_TESTS - 1:>7} {1:>7}\n" in out
        assert "result: 1 miss(es)" in out

    def test_a_planted_miss_in_json(self, shop):
        edit_stock(shop)
        plant_miss(shop)
        run, doc = audit_json(shop, "--impact", "saved/impact.json")
        assert run.returncode == 1
        assert doc["selection"]["file"] == "saved/impact.json"
        assert doc["selection"]["node_ids"] == [RESERVE_TEST]
        assert doc["counts"]["misses"] == 1 and doc["counts"]["skipped_failed"] == 1
        assert doc["result"] == "misses"
        [miss] = doc["misses"]
        assert miss["node_id"] == STOCK_TEST and miss["outcome"] == "failed"
        evidence = miss["evidence"]
        assert evidence["kind"] == "selected_by_analysis"
        assert evidence["chain"][0]["path"] == "tests/inventory/test_stock.py"
        assert evidence["chain"][-1] == {"path": "src/shop/inventory/stock.py", "symbol": "level",
                                         "relation": "implementation", "line": 7}
        assert evidence["detail"][0].startswith("the analysis of the change selects it")

    def test_nothing_selected_and_failing_tests_are_all_misses(self, shop):
        # Both failures are already committed: the working tree has no change, so nothing is selected.
        edit_stock(shop)
        shop.write("tests/test_broken.py", "import shop.no_such_module\n\n\ndef test_x():\n    pass\n")
        shop.commit("break things")
        run, doc = audit_json(shop)
        assert run.returncode == 1
        assert doc["selection"]["decision"] == "nothing" and doc["selection"]["reason"] == "no_changes"
        misses = {m["node_id"]: m for m in doc["misses"]}
        assert set(misses) == {STOCK_TEST, "tests/test_broken.py"}
        # a file that cannot be collected does not stop the run: the other tests still ran
        assert misses["tests/test_broken.py"]["collection_error"] is True
        assert misses["tests/test_broken.py"]["outcome"] == "error"
        assert doc["counts"]["ran"] == SHOP_TESTS + 1
        assert misses[STOCK_TEST]["evidence"]["kind"] == "no_changes"
        text = shop.impact("audit")
        assert text.returncode == 1
        assert "  MISS tests/test_broken.py (error, could not be collected)\n" in text.stdout

    def test_a_selection_that_names_no_collected_test_is_reported(self, shop):
        edit_stock(shop)
        run = shop.impact("select", "--format", "json")
        doc = json.loads(run.stdout)
        doc["selected"].append({"node_id": "tests/test_gone.py::test_nothing", "chain": [], "note": None})
        (shop.path / "saved").mkdir(exist_ok=True)
        (shop.path / "saved" / "impact.json").write_text(json.dumps(doc))
        run, audit = audit_json(shop, "--impact", "saved/impact.json")
        assert run.returncode == 0
        assert audit["unmatched"] == ["tests/test_gone.py::test_nothing"]


def test_audit_has_no_dry_run(shop):
    run = shop.impact("audit", "--dry-run")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("impact: error: audit runs the whole suite, so there is no dry run of it")
