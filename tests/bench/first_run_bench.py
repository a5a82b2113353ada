#!/usr/bin/env python3
"""A CI job's first run after a pull (issue 15, docs/performance.md "A CI job's first run"): on the
10,000-module benchmark repository (tests/bench/generate_repo.py), one job decides cold and pushes what
it learnt to a shared cache; a fresh clone (empty .impact_cache/) with the same one-line change then
decides with `--cache-pull`. Its time is set against the warm time in the first clone and the cold time.

    /usr/bin/python3 tests/bench/first_run_bench.py --impact BIN [--repo /tmp/impact-bench] [--runs 5]
                                                    [--workdir DIR]

--repo is only cloned (its committed state), never written; it is generated into the work folder when
it does not exist. The change is run_bench.py's "module-level constant (mid-level module)" (file
level: the module's importers are selected). Steps:

  1. clone A, change applied; cold (--cold-runs runs): `impact --changed --dry-run`, A's cache deleted
     before each run;
  2. warm: the same command in A, cache kept (the first run after the cold ones is untimed);
  3. seed: A's cache deleted, then one cold `impact --changed --dry-run --cache-push --cache-remote R`
     (a CI job that starts cold and pushes: the remote gets the facts of every file it parsed);
  4. pulled: for each run, a fresh clone B with the same change, timed
     `impact --changed --dry-run --cache-pull --cache-remote R --timings` (stderr kept: the pull's own
     line and the stage times), and then the same command without --cache-pull in B (warm again).

Times are medians (the cold one of --cold-runs runs, the others of --runs); every pulled run must
decide as the cold one did.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_proc import clone, timed_run

HERE = Path(__file__).resolve().parent
# run_bench.py's "module-level constant (mid-level module)": file level, every importer is selected.
CHANGE = ("src/app/pkg050/sub03/mod007.py", "LIMIT = ", "LIMIT = 1 + ")


def timed(argv, cwd):
    return timed_run("first_run_bench", argv, cwd, system_path_first=True)


def fresh_clone(source, where):
    clone(source, where)
    path, old, new = CHANGE
    target = where / path
    target.write_text(target.read_text().replace(old, new, 1))
    return where


def decision(stdout):
    """The dry run's summary and the argv it would run: what must not differ between the runs."""
    return re.sub(r" in \d+ ms", "", stdout.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impact", default=os.environ.get("IMPACT_BIN", "build/src/impact"))
    ap.add_argument("--repo", type=Path, default=Path("/tmp/impact-bench"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cold-runs", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args()
    impact = str(Path(args.impact).resolve())
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="impact-first-run-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"workdir: {workdir}")
    source = args.repo
    if not source.exists():
        source = workdir / "generated"
        subprocess.run([sys.executable, HERE / "generate_repo.py", "--out", source], check=True)

    cmd = [impact, "--changed", "--dry-run"]
    a = fresh_clone(source, workdir / "a")
    cache = a / ".impact_cache"
    colds = []
    for _ in range(args.cold_runs):
        shutil.rmtree(cache, ignore_errors=True)
        t, result = timed(cmd, a)
        colds.append(t)
    expected = decision(result.stdout)
    timed(cmd, a)
    warms = [timed(cmd, a)[0] for _ in range(args.runs)]

    remote = workdir / "remote"
    shutil.rmtree(cache, ignore_errors=True)
    seed, result = timed(cmd + ["--cache-push", "--cache-remote", remote], a)
    pushed = re.search(r"shared cache: ([^\n]*)", result.stderr)
    size = sum(p.stat().st_size for p in remote.rglob("*.seg"))

    pulls, pull_ms, after = [], [], []
    runs = []  # (seconds, stderr)
    for k in range(args.runs):
        b = fresh_clone(source, workdir / "b")
        t, result = timed(cmd + ["--cache-pull", "--cache-remote", remote, "--timings"], b)
        if decision(result.stdout) != expected:
            sys.exit(f"first_run_bench: the pulled run decided otherwise:\n{result.stdout}\nwarm:\n{expected}")
        pulls.append(t)
        runs.append((t, result.stderr))
        m = re.search(r"shared cache: pulled[^\n]*\((\d+(?:\.\d+)?) ms\)", result.stderr)
        pull_ms.append(float(m.group(1)) if m else float("nan"))
        after.append(timed(cmd, b)[0])

    med = statistics.median
    files = sum(1 for p in a.rglob("*.py") if ".git" not in p.parts)
    print(f"repository: {files} Python files; change: {CHANGE[0]} (module-level constant); {args.runs} runs, medians")
    print(f"first line of the decision: {expected.splitlines()[0] if expected else ''}")
    print(f"seed: {pushed.group(1).replace(str(remote), 'R') if pushed else '?'}; remote {size / 1e6:.1f} MB")
    print()
    print("| run | seconds (min to max) |")
    print("| --- | --- |")
    print(f"| cold: empty cache | {med(colds):.3f} ({min(colds):.3f} to {max(colds):.3f}) |")
    print(f"| warm: same clone, cache kept | {med(warms):.3f} ({min(warms):.3f} to {max(warms):.3f}) |")
    print(f"| seed: cold run with --cache-push (one run) | {seed:.3f} |")
    print(f"| **pulled: fresh clone, --cache-pull** | **{med(pulls):.3f}** ({min(pulls):.3f} to {max(pulls):.3f}) |")
    print(f"| of which the pull (impact's own figure) | {med(pull_ms) / 1000:.3f} |")
    print(f"| the fresh clone's next run (warm) | {med(after):.3f} |")
    print()
    ratio = med(pulls) / med(warms)
    print(f"pulled / warm: {ratio:.2f}x (target: within 2x); pulled / cold: {med(pulls) / med(colds):.2f}x")
    median_run = sorted(runs)[len(runs) // 2]
    print("\nstderr of the median pulled run (--timings):")
    print("  " + median_run[1].strip().replace("\n", "\n  "))
    if args.workdir is None:
        shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
