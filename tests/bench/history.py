#!/usr/bin/python3
"""Replays a project's recent history as uncommitted changes and records what impact decides for
each commit: how many end in run_all (and why), nothing, or a selection, and, with --run-suite, whether
any test the commit broke was left out (a miss).

    tests/bench/history.py REPO --impact BIN [--impact OTHER_BIN ...] [--commits 40] [--run-suite]

REPO is a git repository (a clone is made in a temporary folder; REPO is never touched). For each of
the last N commits on the first-parent line, the work tree is set to the commit's first parent and
the commit's files are written over it (deleted files removed), so that `impact --changed` sees the
commit's whole change. Each binary decides with `--dry-run --format json` and a cache folder of its
own. With --run-suite the suite runs at the parent and at the commit (`python -m pytest -q -rfE`); a
test that passes at the parent and fails at the commit is broken, and a broken test that the
decision does not run is a miss."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

PYTEST = ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", "--tb=no"]


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=check).stdout


def set_state(work, commit, parent):
    git(work, "checkout", "-q", "--force", parent)
    git(work, "clean", "-fdxq", "-e", ".impact_cache")
    git(work, "checkout", commit, "--", ".")
    git(work, "reset", "-q")  # the commit's files, unstaged: what a developer has before committing
    for path in git(work, "diff", "--name-only", "--diff-filter=D", parent, commit).splitlines():
        target = work / path
        if target.is_file() or target.is_symlink():
            target.unlink()


def decide(binary, work, cache):
    env = dict(os.environ, IMPACT_CACHE=str(cache), NO_COLOR="1", PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
    run = subprocess.run([binary, "--changed", "--dry-run", "--format", "json"], cwd=work, capture_output=True,
                         text=True, env=env)
    if run.returncode != 0:
        return {"decision": "error", "reason": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "?",
                "selected": []}
    return json.loads(run.stdout)


def failures(work):
    run = subprocess.run(PYTEST, cwd=work, capture_output=True, text=True)
    out = set()
    for line in run.stdout.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            out.add(line.split(" ", 1)[1].split(" - ", 1)[0].strip())
    return out


def runs(decision, node):
    if decision["decision"] == "run_all":
        return True
    for t in decision.get("selected", []):
        sel = t["node_id"]
        if node == sel or node.startswith(sel + "::") or node.startswith(sel + "["):
            return True
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--impact", action="append", required=True, help="a binary (repeat to compare)")
    parser.add_argument("--commits", type=int, default=40)
    parser.add_argument("--run-suite", action="store_true")
    options = parser.parse_args()
    binaries = [os.path.abspath(b) for b in options.impact]
    with tempfile.TemporaryDirectory(prefix="impact-history-") as scratch:
        scratch = Path(scratch)
        work = scratch / "work"
        subprocess.run(["git", "clone", "-q", options.repo, str(work)], check=True)
        commits = git(work, "rev-list", "--first-parent", f"-n{options.commits}", "HEAD").split()
        tally = [Counter() for _ in binaries]
        misses = [0 for _ in binaries]
        for commit in commits:
            parents = git(work, "rev-list", "--parents", "-n1", commit).split()[1:]
            if not parents:
                continue
            parent = parents[0]
            if options.run_suite:
                set_state(work, parent, parent)
                before = failures(work)
            set_state(work, commit, parent)
            broken = failures(work) - before if options.run_suite else set()
            cells = []
            for i, binary in enumerate(binaries):
                d = decide(binary, work, scratch / f"cache-{i}")
                key = d["decision"] if d["decision"] != "run_all" else f"run_all:{d.get('reason')}"
                tally[i][key] += 1
                missed = sorted(n for n in broken if not runs(d, n))
                misses[i] += len(missed)
                cells.append(f"{key}({len(d.get('selected', []))})" + (f" MISSED {missed}" if missed else ""))
            subject = git(work, "log", "-1", "--format=%s", commit).strip()[:50]
            print(f"{commit[:8]} broken={len(broken):<3} " + "  |  ".join(cells) + f"  {subject}", flush=True)
        for i, binary in enumerate(binaries):
            total = sum(tally[i].values())
            run_all = sum(v for k, v in tally[i].items() if k.startswith("run_all"))
            print(f"\n{binary}: {run_all} of {total} commits run_all; misses: {misses[i]}")
            for key, count in tally[i].most_common():
                print(f"  {count:3}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
