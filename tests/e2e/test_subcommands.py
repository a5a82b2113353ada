"""Every subcommand, from the one table that declares them (src/app/commands.cpp): its --help lists
the options of impact it reads."""
import pytest

from harness import make_repo


# The subcommand, and options it reads that its --help must list (docs/cli.md, Subcommands).
HELP = [
    (["select"], ["--changed", "--staged", "--format", "--mode", "--impact", "--no-index"]),
    (["audit"], ["--changed", "--staged", "--format", "--impact"]),
    (["changes"], ["--changed", "--staged", "--format"]),
    (["explain"], ["--changed", "--staged", "--format", "--mode", "--file-level"]),
    (["config"], ["--mode", "--strict", "--pytest-command", "--format"]),
    (["facts"], ["-C"]),
    (["index"], ["--from", "--measured-at", "--pytest-command"]),
    (["index", "status"], ["--format"]),
    (["index", "merge"], ["--output"]),
    (["install-hook"], ["--force"]),
]


@pytest.mark.parametrize("words,flags", HELP, ids=[" ".join(w) for w, _ in HELP])
def test_help_of_a_subcommand_lists_the_options_it_reads(tmp_path, words, flags):
    run = make_repo(tmp_path, "shop").impact(*words, "--help")
    assert run.returncode == 0, run.stderr
    for flag in flags:
        assert f"  {flag}" in run.stdout or f",{flag}" in run.stdout, f"{' '.join(words)} --help lacks {flag}:\n{run.stdout}"
