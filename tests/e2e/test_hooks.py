"""Pre-commit: `impact --staged` looks at what the commit will contain; `impact install-hook` writes a plain
git pre-commit hook where git looks for hooks (core.hooksPath, a worktree's common folder), idempotently,
refusing to replace a different hook unless --force; the shipped .pre-commit-hooks.yaml is valid for the
pre-commit framework and its entry works."""
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from gitutil import ALPHA, PROJECT, assert_error, rev
from harness import IMPACT, ROOT, clean_env, selected_files


def project(repo_factory):
    return repo_factory(files=PROJECT)


def hook_path(repo):
    return repo.path / ".git/hooks/pre-commit"


def commit(repo, *args, cwd=None):
    """git commit with the hooks enabled: (exit code, output). git sends a hook's stdout to stderr."""
    result = subprocess.run(["git", "commit", "-q", "-m", "change", *args], cwd=str(cwd or repo.path),
                            capture_output=True, text=True, env=clean_env(), timeout=300)
    return result.returncode, result.stdout + result.stderr


def break_alpha(repo):
    repo.replace("src/pkg/alpha.py", "return 1", "return 2")


# --- --staged -----------------------------------------------------------------------------------------

def test_staged_selects_only_what_is_staged(repo_factory):
    repo = project(repo_factory)
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    repo.git("add", "src/pkg/alpha.py")
    repo.replace("src/pkg/beta.py", "return 2", "return 2 + 0")  # not staged
    staged = repo.decide("--staged")
    assert staged["base"]["mode"] == "staged"
    assert [f["path"] for f in staged["changed_files"]] == ["src/pkg/alpha.py"]
    assert selected_files(staged) == ALPHA
    assert len(selected_files(repo.decide())) == 2  # the working tree has both


def test_staged_sees_a_change_that_is_staged_and_then_reverted_in_the_working_tree(repo_factory):
    repo = project(repo_factory)
    break_alpha(repo)
    repo.git("add", "-A")
    repo.replace("src/pkg/alpha.py", "return 2", "return 1")
    assert selected_files(repo.decide("--staged")) == ALPHA
    assert repo.decide()["decision"] == "nothing"


# --- install-hook ---------------------------------------------------------------------------------------

def test_install_hook_writes_an_executable_hook_and_is_idempotent(repo_factory):
    repo = project(repo_factory)
    run = repo.impact("install-hook")
    assert run.returncode == 0, run.stderr
    hook = hook_path(repo)
    assert str(hook) in run.stderr
    text = hook.read_text()
    assert text.startswith("#!/bin/sh\n")
    # impact is not on PATH here, so the hook names this binary by its full path.
    assert text.rstrip().splitlines()[-1] == f"exec '{os.path.realpath(IMPACT)}' --staged"
    assert os.access(hook, os.X_OK)
    before = hook.stat()

    again = repo.impact("install-hook")
    assert again.returncode == 0 and "nothing to do" in again.stderr
    assert hook.read_text() == text and hook.stat().st_mtime_ns == before.st_mtime_ns


def test_install_hook_names_impact_when_path_finds_this_binary(repo_factory, tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(os.path.realpath(IMPACT), bindir / "impact")
    repo = project(repo_factory)
    run = repo.impact("install-hook", env={"PATH": f"{bindir}:/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert hook_path(repo).read_text().rstrip().splitlines()[-1] == "exec impact --staged"


def test_install_hook_refuses_a_different_hook_unless_forced(repo_factory):
    repo = project(repo_factory)
    hook = hook_path(repo)
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho mine\n")
    hook.chmod(0o755)
    assert_error(repo.impact("install-hook"), str(hook), "already there", "--force")
    assert hook.read_text() == "#!/bin/sh\necho mine\n"

    forced = repo.impact("install-hook", "--force")
    assert forced.returncode == 0, forced.stderr
    assert "--staged" in hook.read_text()
    backup = hook.with_name("pre-commit.impact-backup")
    assert backup.read_text() == "#!/bin/sh\necho mine\n"
    assert repo.impact("install-hook").returncode == 0  # now identical: idempotent again


def test_install_hook_force_never_overwrites_an_earlier_backup(repo_factory):
    # install --force over the user's hook, the user puts another hook back, install --force again: both of
    # the user's hooks survive, numbered, and each run says where the old hook went.
    repo = project(repo_factory)
    hook = hook_path(repo)
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho original\n")
    first = repo.impact("install-hook", "--force")
    assert first.returncode == 0, first.stderr
    assert f"moved the old hook to {hook.with_name('pre-commit.impact-backup')}" in first.stderr
    hook.write_text("#!/bin/sh\necho second\n")
    refused = repo.impact("install-hook")
    assert_error(refused, "--force", "pre-commit.impact-backup.1")
    second = repo.impact("install-hook", "--force")
    assert second.returncode == 0, second.stderr
    assert f"moved the old hook to {hook.with_name('pre-commit.impact-backup.1')}" in second.stderr
    assert hook.with_name("pre-commit.impact-backup").read_text() == "#!/bin/sh\necho original\n"
    assert hook.with_name("pre-commit.impact-backup.1").read_text() == "#!/bin/sh\necho second\n"
    assert "--staged" in hook.read_text()


def test_install_hook_makes_its_own_hook_executable_again(repo_factory):
    repo = project(repo_factory)
    assert repo.impact("install-hook").returncode == 0
    hook_path(repo).chmod(0o644)  # git ignores a hook that is not executable
    run = repo.impact("install-hook")
    assert run.returncode == 0 and "executable" in run.stderr
    assert os.access(hook_path(repo), os.X_OK)
    assert not hook_path(repo).with_name("pre-commit.impact-backup").exists()


def test_the_hook_stops_a_commit_whose_staged_change_breaks_a_test(repo_factory):
    repo = project(repo_factory)
    assert repo.impact("install-hook").returncode == 0
    head = rev(repo.path)
    break_alpha(repo)
    repo.git("add", "-A")
    code, output = commit(repo)
    assert code != 0
    assert "1 failed" in output and "test_alpha.py" in output
    assert rev(repo.path) == head  # no commit was made

    # --no-verify skips the hook, as with any git hook.
    assert commit(repo, "--no-verify")[0] == 0


def test_the_hook_runs_only_the_tests_of_the_staged_change(repo_factory):
    repo = project(repo_factory)
    assert repo.impact("install-hook").returncode == 0
    head = rev(repo.path)
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    repo.git("add", "src/pkg/alpha.py")
    repo.replace("src/pkg/beta.py", "return 2", "return 3")  # would fail test_beta, but is not committed
    code, output = commit(repo)
    assert code == 0, output
    assert "1 passed" in output and "test_beta" not in output
    assert rev(repo.path) != head


def test_install_hook_respects_core_hooks_path(repo_factory):
    repo = project(repo_factory)
    repo.git("config", "core.hooksPath", ".githooks")
    run = repo.impact("install-hook", cwd=repo.path / "src")  # from a subfolder: still relative to the root
    assert run.returncode == 0, run.stderr
    hook = repo.path / ".githooks/pre-commit"
    assert hook.exists() and not hook_path(repo).exists()
    break_alpha(repo)
    repo.git("add", "-A")
    assert commit(repo)[0] != 0  # git runs it from there


def test_install_hook_from_a_worktree_writes_to_the_common_hooks_folder(repo_factory, tmp_path):
    repo = project(repo_factory)
    worktree = tmp_path / "wt"
    repo.git("worktree", "add", "-q", "-b", "feature", str(worktree))
    run = repo.impact("install-hook", cwd=worktree)
    assert run.returncode == 0, run.stderr
    assert hook_path(repo).exists()
    assert not (worktree / ".git").is_dir()
    (worktree / "src/pkg/alpha.py").write_text("def alpha():\n    return 2\n")
    subprocess.run(["git", "add", "-A"], cwd=worktree, env=clean_env(), check=True)
    result = subprocess.run(["git", "commit", "-q", "-m", "x"], cwd=worktree, capture_output=True, text=True,
                            env=clean_env(), timeout=300)
    assert result.returncode != 0 and "1 failed" in result.stderr


def test_install_hook_outside_a_repository_is_an_error(tmp_path):
    result = subprocess.run([IMPACT, "install-hook"], cwd=tmp_path, capture_output=True, text=True, env=clean_env())
    assert result.returncode == 2
    assert result.stderr.startswith("impact: error: ")


# --- .pre-commit-hooks.yaml -----------------------------------------------------------------------------

def hooks_yaml():
    with open(ROOT / ".pre-commit-hooks.yaml") as f:
        return yaml.safe_load(f)


def test_pre_commit_hooks_yaml_declares_the_hook():
    [hook] = hooks_yaml()
    assert hook["id"] == "impact"
    assert hook["language"] == "system"
    assert hook["entry"] == "impact --staged"
    assert hook["pass_filenames"] is False
    assert hook["always_run"] is True
    assert hook["name"]
    # Only keys the pre-commit framework knows.
    assert set(hook) <= {"id", "name", "entry", "language", "files", "exclude", "types", "types_or",
                         "exclude_types", "always_run", "fail_fast", "verbose", "pass_filenames",
                         "require_serial", "description", "language_version", "minimum_pre_commit_version",
                         "args", "stages", "log_file", "additional_dependencies"}


def test_pre_commit_entry_works(repo_factory):
    [hook] = hooks_yaml()
    argv = shlex.split(hook["entry"])
    assert argv[0] == "impact"
    repo = project(repo_factory)
    argv = [IMPACT, *argv[1:]]
    break_alpha(repo)
    repo.git("add", "-A")
    result = subprocess.run(argv, cwd=repo.path, capture_output=True, text=True, env=clean_env(), timeout=300)
    assert result.returncode == 1 and "1 failed" in result.stdout
    repo.git("reset", "-q", "--hard")
    repo.write("src/pkg/unused.py", "X = 1\n")
    repo.git("add", "-A")
    result = subprocess.run(argv, cwd=repo.path, capture_output=True, text=True, env=clean_env(), timeout=300)
    assert result.returncode == 0 and "nothing to run" in result.stderr


@pytest.mark.skipif(shutil.which("pre-commit", path="/usr/bin:/bin:/usr/local/bin") is None,
                    reason="the pre-commit framework is not installed")
def test_pre_commit_framework_runs_the_hook(repo_factory, tmp_path):
    # A repository holding just the hook definition, as pre-commit would clone it.
    hooks_repo = repo_factory(files={".pre-commit-hooks.yaml": (ROOT / ".pre-commit-hooks.yaml").read_text()})
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(os.path.realpath(IMPACT), bindir / "impact")
    repo = project(repo_factory)
    repo.write(".pre-commit-config.yaml", f"repos:\n  - repo: {hooks_repo.path}\n    rev: {rev(hooks_repo.path)}\n"
                                          "    hooks:\n      - id: impact\n")
    repo.commit("pre-commit config")
    env = clean_env({"PATH": f"{bindir}:/usr/bin:/bin", "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")})
    break_alpha(repo)
    repo.git("add", "-A")
    result = subprocess.run(["pre-commit", "run"], cwd=repo.path, capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed" in result.stdout
    repo.git("reset", "-q", "--hard")
    result = subprocess.run(["pre-commit", "run"], cwd=repo.path, capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_hook_sees_what_commit_dash_a_stages(repo_factory):
    repo = project(repo_factory)
    assert repo.impact("install-hook").returncode == 0
    head = rev(repo.path)
    break_alpha(repo)  # not staged: `git commit -a` stages it into a temporary index for the hook
    code, output = commit(repo, "-a")
    assert code != 0, output
    assert rev(repo.path) == head
