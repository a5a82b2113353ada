"""Every subcommand, from the one table that declares them (src/app/commands.cpp): its --help lists
the options of impact it reads, and each one that prints a result honours --format json."""
import json

import pytest

from harness import make_repo


def shop(tmp_path):
    repo = make_repo(tmp_path, "shop")
    repo.replace("src/shop/inventory/stock.py", "return LEVELS.get(sku, 0)", "return LEVELS.get(sku, 0) - 1")
    return repo


# The subcommand, and options it reads that its --help must list (docs/cli.md, Subcommands).
HELP = [
    (["select"], ["--changed", "--staged", "--format", "--mode", "--impact", "--no-index"]),
    (["audit"], ["--changed", "--staged", "--format", "--impact"]),
    (["changes"], ["--changed", "--staged", "--format"]),
    (["explain"], ["--changed", "--staged", "--format", "--mode", "--file-level"]),
    (["config"], ["--mode", "--strict", "--pytest-command", "--format"]),
    (["doctor"], ["--format", "--pytest-command", "--ignore", "--mode", "-C"]),
    (["facts"], ["-C"]),
    (["index"], ["--from", "--measured-at", "--pytest-command"]),
    (["index", "status"], ["--format"]),
    (["index", "merge"], ["--output"]),
    (["install-hook"], ["--force"]),
    (["projects"], ["--format", "--project", "-C"]),
]


@pytest.mark.parametrize("words,flags", HELP, ids=[" ".join(w) for w, _ in HELP])
def test_help_of_a_subcommand_lists_the_options_it_reads(tmp_path, words, flags):
    run = make_repo(tmp_path, "shop").impact(*words, "--help")
    assert run.returncode == 0, run.stderr
    for flag in flags:
        assert f"  {flag}" in run.stdout or f",{flag}" in run.stdout, f"{' '.join(words)} --help lacks {flag}:\n{run.stdout}"


# Every subcommand that prints a result on stdout (audit and index status have tests of their own in
# test_audit.py and test_index.py; index, index merge and install-hook print only to stderr).
JSON = [
    (["select"], "impact.decision"),
    (["changes"], "impact.changes"),
    (["explain", "tests/test_cart.py::test_total"], "impact.explain"),
    (["explain", "tests/inventory/test_stock.py"], "impact.explain"),
    (["config"], "impact.config"),
    (["projects"], "impact.projects"),
]


@pytest.mark.parametrize("words,schema", JSON, ids=[" ".join(w) for w, _ in JSON])
def test_every_subcommand_that_prints_honours_format_json(tmp_path, words, schema):
    run = shop(tmp_path).impact(*words, "--format", "json")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc.get("schema", schema) == schema


def test_facts_prints_json_whatever_the_format(tmp_path):
    repo = shop(tmp_path)
    for fmt in ("text", "json"):
        run = repo.impact("facts", "src/shop/inventory/stock.py", "--format", fmt)
        assert run.returncode == 0, run.stderr
        assert "imports" in json.loads(run.stdout)


def test_explain_json_says_selected_or_skipped_with_the_chain(tmp_path):
    repo = shop(tmp_path)
    selected = repo.impact("explain", "tests/inventory/test_stock.py", "--format", "json").json
    assert selected["schema"] == "impact.explain" and selected["version"] == 1
    assert selected["outcome"] == "selected" and selected["skipped"] is None
    assert selected["selected"] and all(t["chain"] for t in selected["selected"])
    skipped = repo.impact("explain", "tests/test_cart.py::test_total", "--format", "json").json
    assert skipped["selected"] == [] and skipped["skipped"]["kind"] in ("no_static_path", "file_level")
    assert skipped["skipped"]["detail"]
    changed = repo.impact("explain", "src/shop/inventory/stock.py", "--format", "json").json
    assert [c["path"] for c in changed["changed"]] == ["src/shop/inventory/stock.py"]
