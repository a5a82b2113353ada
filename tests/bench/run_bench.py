#!/usr/bin/env python3
"""impact's benchmark: a generated repository of realistic size, a one-line change, and the time of
`impact --changed --dry-run` cold (empty cache) and warm, against what tree-sitter alone needs to
parse the same files on the same cores, measured in the same rounds (the machine is noisy, so ratios
measured side by side are what count).

    tests/bench/run_bench.py --build build --repo /tmp/impact-bench --rounds 3 [--real /path/to/sympy:sympy/core/cache.py]

Prints a markdown table (the one in docs/performance.md). Builds the repository with
tests/bench/generate_repo.py when it does not exist.

Warm runs are also measured against `git status --porcelain` side by side: in each round every change
kind gets a different edit (the round's number is part of it), impact and git are run once untimed (the
changed file's facts enter the cache; the page cache is hot), then `--pairs` alternating pairs are timed
(impact first in one pair, git first in the next); the round's ratio is the median of impact's times
over the median of git's. The kinds are visited in a different order each round. `--real REPO:FILE`
adds a real repository (a git clone at a clean commit; sympy is the one of docs/performance.md) with
one change kind: a module-level assignment appended to FILE.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def timed(argv, cwd, env=None):
    start = time.perf_counter()
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"run_bench: {' '.join(map(str, argv))} failed ({result.returncode}):\n{result.stderr}")
    return elapsed, result.stdout


def parse_floor_seconds(parse_floor, repo, threads):
    _, out = timed([parse_floor, repo, str(threads)], cwd=repo)
    for line in out.splitlines():
        if line.startswith("tree-sitter parse only:"):
            return float(line.split(":")[1].split("s")[0])
    sys.exit("run_bench: unexpected parse_floor output:\n" + out)


def side_by_side(cmd, repo, env, pairs):
    """impact and `git status --porcelain` alternating; (median impact seconds, median git seconds, ratio)."""
    git = ["git", "status", "--porcelain"]
    timed(cmd, repo, env)
    timed(git, repo, env)
    ours, theirs = [], []
    for k in range(pairs):
        order = [(cmd, ours), (git, theirs)]
        for argv, out in (order if k % 2 == 0 else order[::-1]):
            out.append(timed(argv, repo, env)[0])
    mine, gits = statistics.median(ours), statistics.median(theirs)
    return mine, gits, mine / gits


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="the build folder (with src/impact and tests/parse_floor)")
    ap.add_argument("--repo", default="/tmp/impact-bench")
    ap.add_argument("--modules", type=int, default=10000)
    ap.add_argument("--tests", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warm-runs", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=5, help="alternating impact/git pairs per change kind and round")
    ap.add_argument("--no-cold", action="store_true", help="skip the parse floor and the cold run")
    ap.add_argument("--real", action="append", default=[], metavar="REPO:FILE",
                    help="a real repository, and the Python file (relative) a module-level line is appended to")
    args = ap.parse_args()

    build = Path(args.build).resolve()
    impact = build / "src" / "impact"
    parse_floor = build / "tests" / "parse_floor"
    repo = Path(args.repo)
    if not repo.exists():
        subprocess.run([sys.executable, HERE / "generate_repo.py", "--out", repo, "--modules", str(args.modules),
                        "--tests", str(args.tests)], check=True)
    subprocess.run(["git", "-C", repo, "checkout", "-q", "--", "."], check=True)

    env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
    for var in ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "IMPACT_CACHE"):
        env.pop(var, None)
    threads = os.cpu_count() or 1
    size = sum(p.stat().st_size for p in repo.rglob("*.py") if ".git" not in p.parts)
    files = sum(1 for p in repo.rglob("*.py") if ".git" not in p.parts)
    cmd = [impact, "--changed", "--dry-run"]

    # Three one-line changes: module-level code (file level: every importer), a function body in a
    # mid-level module (symbol level, the common case), and a function body in a core module imported
    # almost everywhere (symbol level, the walk's worst case).
    # `{n}` is the round's number: a different edit each round (each one parsed afresh).
    changes = {
        "module-level constant (mid-level module)": ("src/app/pkg050/sub03/mod007.py", "LIMIT = ", "LIMIT = {n} + "),
        "function body (mid-level module)": ("src/app/pkg050/sub03/mod007.py", "    return value\n",
                                             "    value += {n}\n    return value\n"),
        "function body (core module)": ("src/app/pkg000/sub00/mod001.py", "    return value\n",
                                        "    value += {n}\n    return value\n"),
    }

    def apply(change, n=1, where=repo):
        subprocess.run(["git", "-C", where, "checkout", "-q", "--", "."], check=True)
        path, old, new = change
        target = where / path
        text = target.read_text()
        target.write_text(text + new.format(n=n) if old is None else text.replace(old, new.format(n=n), 1))

    kinds = [(name, repo, change) for name, change in changes.items()]
    reals = []
    for spec in args.real:
        where, _, path = spec.partition(":")
        where = Path(where).resolve()
        subprocess.run(["git", "-C", where, "checkout", "-q", "--", "."], check=True)
        real_files = sum(1 for _ in where.rglob("*.py"))
        reals.append(f"{where.name}: {real_files} Python files")
        kinds.append((f"{where.name}: module-level line appended to {path}", where,
                      (path, None, "\n_impact_bench_{n} = {n}\n")))
    pairs = {name: [] for name, _, _ in kinds}

    floors, colds, statuses = [], [], []
    warms = {name: [] for name in changes}
    summaries = {}
    for r in range(args.rounds):
        if not args.no_cold:
            floors.append(parse_floor_seconds(parse_floor, repo, threads))
            apply(changes["module-level constant (mid-level module)"], r + 1)
            shutil.rmtree(repo / ".impact_cache", ignore_errors=True)
            colds.append(timed(cmd, repo, env)[0])
        for name, change in changes.items():
            apply(change, r + 1)
            warms[name].append(min(timed(cmd, repo, env)[0] for _ in range(args.warm_runs)))
            _, out = timed(cmd, repo, env)
            summaries[name] = out.split("impact: ", 1)[1].split("\n", 1)[0]
        statuses.append(min(timed(["git", "status", "--porcelain"], repo, env)[0] for _ in range(3)))
        # Side by side with git, a different edit than the runs above, in a different order each round.
        for k in range(len(kinds)):
            name, where, change = kinds[(r + k) % len(kinds)]
            apply(change, 100 + r, where)
            pairs[name].append(side_by_side(cmd, where, env, args.pairs))
            if where != repo:
                _, out = timed(cmd, where, env)
                summaries[name] = out.split("impact: ", 1)[1].split("\n", 1)[0]
    for _, where, _ in kinds:
        subprocess.run(["git", "-C", where, "checkout", "-q", "--", "."], check=True)

    med = statistics.median
    print(f"repository: {files} Python files, {size / 1e6:.1f} MB ({args.modules} modules, {args.tests} test files)")
    print(f"machine: {threads} cores; {args.rounds} rounds, warm = best of {args.warm_runs} per round; medians")
    print()
    print("| measure | seconds |")
    print("| --- | --- |")
    if not args.no_cold:
        print(f"| tree-sitter alone, parse every file ({threads} threads) | {med(floors):.2f} |")
        print(f"| impact --changed --dry-run, cold (empty cache) | {med(colds):.2f} |")
        ratios = [c / f for c, f in zip(colds, floors)]
        print(f"| cold / parse floor (median of the rounds' ratios; lowest to highest) | {med(ratios):.2f}x "
              f"({min(ratios):.2f}x to {max(ratios):.2f}x) |")
    for name in changes:
        print(f"| impact --changed --dry-run, warm: {name} | {med(warms[name]):.3f} |")
    print(f"| git status --porcelain (for scale) | {med(statuses):.3f} |")
    print()
    print(f"Side by side with `git status --porcelain` ({args.pairs} alternating pairs per change kind and round, "
          "a different edit each round; medians; the ratio is the median of the rounds' ratios)")
    for line in reals:
        print(f"(real repository {line})")
    print()
    print("| change | impact s | git status s | ratio (lowest to highest) |")
    print("| --- | --- | --- | --- |")
    for name, _, _ in kinds:
        rows = pairs[name]
        ratios = [row[2] for row in rows]
        print(f"| {name} | {med(row[0] for row in rows):.3f} | {med(row[1] for row in rows):.3f} | "
              f"{med(ratios):.2f}x ({min(ratios):.2f}x to {max(ratios):.2f}x) |")
    print()
    for name, _, _ in kinds:
        print(f"- {name}: {summaries.get(name, '')}")


if __name__ == "__main__":
    main()
