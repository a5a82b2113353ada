"""Monorepo mode and the pre-commit hook, and --impact (docs/monorepo.md, "The pre-commit hook" and
"Replaying a saved decision"): the hook `impact install-hook` writes at a monorepo root runs
`impact --staged` from the root, which runs each project's part of the staged change as its own
pytest; a saved decision is not replayed in monorepo mode: one line, exit 2, nothing runs."""
import os
import subprocess

from harness import IMPACT, clean_env, make_repo
from test_monorepo import FILES


def commit(repo):
    """git commit with the hooks enabled: (exit code, output). git sends a hook's stdout to stderr."""
    result = subprocess.run(["git", "commit", "-q", "-m", "change"], cwd=str(repo.path), capture_output=True,
                            text=True, env=clean_env(), timeout=300)
    return result.returncode, result.stdout + result.stderr


def head(repo):
    return repo.git("rev-parse", "HEAD").strip()


def test_the_hook_at_a_monorepo_root_runs_each_projects_part_of_the_staged_change(tmp_path):
    mono = make_repo(tmp_path, files=FILES)
    run = mono.impact("install-hook", cwd=mono.path / "libs/a")  # from inside a project: the repository's hook
    assert run.returncode == 0, run.stderr
    hook = mono.path / ".git/hooks/pre-commit"
    assert hook.read_text().rstrip().splitlines()[-1] == f"exec '{os.path.realpath(IMPACT)}' --staged"
    assert "monorepo" in run.stderr and "5 project(s)" in run.stderr

    # a staged change that breaks libs/a: libs/a's selection and its dependents run, each in its
    # folder; the commit is stopped
    before = head(mono)
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return a - b")
    mono.git("add", "-A")
    code, output = commit(mono)
    assert code == 1, output
    for project in ("libs/a", "libs/b", "services/api"):
        assert f"==== {project} (" in output
    assert "==== libs/c (" not in output and "==== tools/tox (" not in output
    assert "3 project(s) ran (0 passed, 3 failed, 0 interrupted), 2 skipped" in output
    assert head(mono) == before

    # fixed and staged; a breaking change of libs/c left unstaged is not what the commit holds
    mono.replace("libs/a/src/liba/core.py", "return a - b", "return b + a")
    mono.git("add", "-A")
    mono.replace("libs/c/tests/test_alone.py", "assert True", "assert False")
    code, output = commit(mono)
    assert code == 0, output
    assert "3 project(s) ran (3 passed, 0 failed, 0 interrupted), 2 skipped" in output
    assert "==== libs/c (" not in output
    assert head(mono) != before

    # a staged change that cannot affect a test: nothing runs and the commit goes through
    mono.write("README.md", "# a monorepo, documented\n")
    mono.git("add", "README.md")
    code, output = commit(mono)
    assert code == 0, output
    assert "nothing to run in 5 project(s)" in output


def test_a_saved_decision_is_not_replayed_in_monorepo_mode(tmp_path):
    mono = make_repo(tmp_path, files=FILES)
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return a - b")  # would fail if anything ran
    saved = mono.impact("--dry-run", "--format", "json")
    assert saved.returncode == 0, saved.stderr
    plan = tmp_path / "plan.json"
    plan.write_text(saved.stdout)
    single = tmp_path / "single.json"
    single.write_text(mono.impact("--format", "json", "-C", "libs/a").stdout)
    for args in (["--impact", str(plan)], ["--impact", str(plan), "-C", "libs/a"],
                 ["--impact", str(single), "--project", "libs/a"], ["select", "--impact", str(plan)]):
        run = mono.impact(*args)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and "--impact" in lines[0] and "monorepo mode" in lines[0], run.stderr
        assert "impact --changed" in lines[0]  # the fix: decide again
        assert "==== " not in run.stdout and "passed" not in run.stdout and "failed" not in run.stdout
