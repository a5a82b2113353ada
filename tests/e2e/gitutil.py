"""Helpers shared by test_git_edges.py and test_ci_base.py: a small two-module project, git plumbing for
repositories that are not made by make_repo (clones, worktrees, submodules), and checks of impact's
`changes` output and of its one-line errors."""
import re
import subprocess
from pathlib import Path

from harness import Repo, clean_env, git

# A project small enough that every selection is obvious: test_alpha imports pkg.alpha, test_beta
# imports pkg.beta, nothing else imports anything.
PROJECT = {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "src/pkg/__init__.py": "",
    "src/pkg/alpha.py": "def alpha():\n    return 1\n",
    "src/pkg/beta.py": "def beta():\n    return 2\n",
    "tests/test_alpha.py": "from pkg.alpha import alpha\n\n\ndef test_alpha():\n    assert alpha() == 1\n",
    "tests/test_beta.py": "from pkg.beta import beta\n\n\ndef test_beta():\n    assert beta() == 2\n",
}

ALPHA = ["tests/test_alpha.py"]
BETA = ["tests/test_beta.py"]
BOTH = sorted(ALPHA + BETA)


def run_git(path, *args, check=True):
    """git -C path ... with the harness's environment (identity, no system config)."""
    return git(path, *args, check=check)


def rev(path, name="HEAD"):
    return run_git(path, "rev-parse", "--verify", "-q", f"{name}^{{commit}}").strip()


def changes(repo, *args, env=None, cwd=None):
    """`impact changes --format json` as a dict (asserts a clean exit)."""
    run = repo.impact("changes", "--format", "json", *args, env=env, cwd=cwd)
    assert run.returncode == 0, f"impact changes failed ({run.returncode}): {run.stderr}"
    return run.json


def files_by_path(doc):
    """path -> entry, for `impact changes` ("files") and for a decision ("changed_files")."""
    entries = doc["files"] if "files" in doc else doc["changed_files"]
    by_path = {}
    for entry in entries:
        assert entry["path"] not in by_path, f"{entry['path']} listed twice: {entries}"
        by_path[entry["path"]] = entry
    return by_path


def paths(doc):
    return sorted(files_by_path(doc))


def git_hunks(path, *diff_args, file=None):
    """The hunks `git diff -U0` reports, as [old_start, old_count, new_start, new_count] lists: the
    reference impact's hunks must equal."""
    args = ["diff", "-U0", "--no-color", "--no-ext-diff", *diff_args]
    if file is not None:
        args += ["--", file]
    out = run_git(path, *args)
    hunks = []
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", out, re.M):
        old_start, old_count, new_start, new_count = m.groups()
        hunks.append([int(old_start), int(old_count if old_count is not None else 1),
                      int(new_start), int(new_count if new_count is not None else 1)])
    return hunks


def assert_error(run, *words):
    """Exit 2, nothing on stdout, exactly one line on stderr starting 'impact: error: ' that contains
    every word (case-insensitive). Returns the message."""
    assert run.returncode == 2, f"exit {run.returncode}, stdout={run.stdout!r}, stderr={run.stderr!r}"
    assert run.stdout == "", f"an error must print nothing on stdout: {run.stdout!r}"
    lines = run.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    line = lines[0]
    assert line.startswith("impact: error: "), line
    for word in words:
        assert word.lower() in line.lower(), f"{word!r} not in {line!r}"
    return line


def clone(source, target, *args):
    """git clone of `source` (a path) into `target`, returning a Repo; extra args go to git clone."""
    result = subprocess.run(["git", "clone", "-q", *args, str(source), str(target)], capture_output=True,
                            text=True, env=clean_env())
    assert result.returncode == 0, f"git clone failed: {result.stderr}"
    repo = Repo(Path(target))
    repo.git("config", "core.autocrlf", "false")
    return repo


def decision_summary(decision):
    """What must not depend on where impact was started: the decision, the files, the selection, argv."""
    return {
        "decision": decision["decision"],
        "reason": decision["reason"],
        "base": decision["base"],
        "changed_files": sorted((f["path"], f["status"], f["kind"]) for f in decision["changed_files"]),
        "selected": sorted(t["node_id"] for t in decision["selected"]),
        "argv": decision["argv"],
    }
