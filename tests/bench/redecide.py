#!/usr/bin/env python3
"""Replay the edits of a precision.py run with another impact binary, static only (cold cache, no
index), and compare: the share of the suite it selects per edit against the recorded static and
oracle shares, and whether it leaves out a test the edit broke (the broken tests precision.py
recorded when it ran the suite under that edit).

    /usr/bin/python3 tests/bench/redecide.py /tmp/prec/click.json /tmp/prec/click build-dev/src/impact \
        --env PYTHONPATH=src

With `--index FILE` (a coverage-index.sqlite that `impact index` built on the same checkout) the
decisions use that index, and the recorded index share is the one compared.

A cheap check of a rule change: no suite runs, one impact decision per edit. The repository must be
the clean checkout precision.py ran on (the same commit); every edit is applied with `git apply` and
undone with `git checkout -- .`. Exit 1 when a broken test is not selected.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutate_project as mp  # noqa: E402

PYTHON = "/usr/bin/python3"


def passing_ids(repo: Path, env: dict[str, str]) -> set[str]:
    # -q prints one node id per line; a project whose addopts hold -v (tabulate, marshmallow) needs -qq
    # for that, and with -q prints a tree, a few of whose lines hold "::": the longer list wins.
    best: set[str] = set()
    for quiet in ("--verbosity=-1", "-q", "-qq"):  # lark's addopts hold -q: --verbosity sets it whatever they say
        out = subprocess.run([PYTHON, "-m", "pytest", "--collect-only", quiet, "-p", "no:cacheprovider"], cwd=repo,
                             env=env, capture_output=True, text=True).stdout
        ids = {line.strip() for line in out.splitlines() if "::" in line and " " not in line.strip()}
        if len(ids) > len(best):
            best = ids
    return best


def decide(repo: Path, impact: str, env: dict[str, str], index: Path | None) -> dict | None:
    cache = tempfile.mkdtemp(prefix="redecide-")
    if index is not None:
        shutil.copy(index, Path(cache) / "coverage-index.sqlite")
    try:
        proc = subprocess.run([impact, "--changed", "--dry-run", "--format", "json",
                               *(["--no-index"] if index is None else []),
                               "--pytest-command", json.dumps([PYTHON, "-m", "pytest"])],
                              cwd=repo, env={**env, "IMPACT_CACHE": cache}, capture_output=True, text=True, timeout=900)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if proc.returncode != 0:
        print(f"  impact failed: {proc.stderr.strip()[-300:]}")
        return None
    return json.loads(proc.stdout)


def fallbacks(doc: dict) -> str:
    """Why the index did not answer for each changed Python file ("coverage" where it did)."""
    return ", ".join(f.get("fallback") or f.get("source", "?") for f in doc.get("changed_files", [])
                     if f["path"].endswith(".py"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="a precision.py --json file")
    ap.add_argument("repo", type=Path, help="the checkout it ran on")
    ap.add_argument("impact", help="the impact binary to replay the edits with")
    ap.add_argument("--env", action="append", default=[], help="KEY=VALUE for pytest and impact (PYTHONPATH=src)")
    ap.add_argument("--index", type=Path, help="decide with this coverage index (compares the recorded index share)")
    ap.add_argument("--why", action="store_true", help="print each changed file's effect under its edit")
    args = ap.parse_args()
    recorded = "static" if args.index is None else "index"
    env = {k: v for k, v in os.environ.items() if not k.startswith("IMPACT_")}
    for kv in args.env:
        key, _, value = kv.partition("=")
        env[key] = value
    run = json.loads(args.run.read_text())
    passing = passing_ids(args.repo, env)
    rows, misses = [], 0
    for edit in run["edits"]:
        if edit.get("error"):
            continue
        subprocess.run(["git", "checkout", "-q", "--", "."], cwd=args.repo, check=True)
        applied = subprocess.run(["git", "apply", "-"], input=edit["diff"], cwd=args.repo, text=True, capture_output=True)
        if applied.returncode != 0:
            print(f"{edit['edit']}: the edit does not apply ({applied.stderr.strip()[:200]})")
            continue
        try:
            doc = decide(args.repo, args.impact, env, args.index)
        finally:
            subprocess.run(["git", "checkout", "-q", "--", "."], cwd=args.repo, check=True)
        if doc is None:
            continue
        decision, ids, _ = mp.selection_of(doc)
        share = mp.count_covered(decision, ids, passing) / len(passing)
        selected = [s["node_id"] for s in doc.get("selected", [])]
        # A broken id that precision.py could not verify alone (a parametrized id made of the time of
        # day, gone from the next collection) is no test to select.
        unverified = set(edit.get("unverified", []))
        left_out = [t for t in edit["broken"]
                    if t not in unverified and decision != "run_all" and not mp.covers(selected, t)]
        misses += len(left_out)
        rows.append((edit[recorded]["share"], share, edit["oracle"]["share"]))
        print(f"{edit['edit'][:72]:72} recorded {edit[recorded]['share']:.3f} now {share:.3f} "
              f"oracle {edit['oracle']['share']:.3f}" + (f"  MISSES {left_out[:3]}" if left_out else "")
              + (f"  [{fallbacks(doc)}]" if args.index is not None else ""))
        if args.why:
            for f in doc.get("changed_files", []):
                print(f"    {f['path']}: {(f.get('effect') or '')[:400]}")
    if rows:
        mean = [sum(r[i] for r in rows) / len(rows) for i in range(3)]
        print(f"edits {len(rows)}  mean share: recorded {recorded} {mean[0]:.3f}, now {mean[1]:.3f}, oracle {mean[2]:.3f}  "
              f"misses {misses}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
