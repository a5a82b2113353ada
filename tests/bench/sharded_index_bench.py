#!/usr/bin/env python3
"""Sharded coverage through the shared cache (issue 15, docs/performance.md "Sharded coverage"): the
20,000-test index benchmark's synthetic coverage data (tests/bench/index_bench.py) split into N parts by
test contexts, as N CI shards would each have recorded it; each part indexed in its own clone with
`impact index --from PART --measured-at HEAD --cache-push --cache-remote R`; then a fresh clone pulls
the remote (`impact --changed --dry-run --cache-pull`) and its selections, on the index benchmark's
three changes (a typical function, the busiest one, the core one every test runs), are compared with
those of a clone whose index was built from the whole data at once (`impact index --from WHOLE`).

A part holds whole test files (contiguous ranges, as a shard split by file would), every context of
their tests (setup, run, teardown) and the rows recorded outside any test (module-level lines run at
import: every shard records them).

Compared: the selected node ids of `impact --changed --dry-run --format json` (timings dropped), per
change. Printed: equal/different per change, and the times of each part's index + push, of the pull,
and of the whole index.

Usage: /usr/bin/python3 tests/bench/sharded_index_bench.py [--impact BIN] [--parts 4] [--tests 20000]
                                                            [--files 5000] [--workdir DIR]
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from bench_proc import clone, timed_run
from index_bench import generate, write_coverage

ROOT = Path(__file__).resolve().parents[2]


def run(argv, cwd):
    return timed_run("sharded_index_bench", argv, cwd)


def split(whole, parts_dir, n_parts, n_test_files):
    """N copies of the data, each keeping the contexts of one contiguous range of test files (and "")."""
    paths = []
    per_part = (n_test_files + n_parts - 1) // n_parts
    for k in range(n_parts):
        path = parts_dir / f"part{k + 1}.sqlite"
        shutil.copyfile(whole, path)
        db = sqlite3.connect(path)
        keep = {f"tests/test_{t:04d}.py" for t in range(k * per_part, min((k + 1) * per_part, n_test_files))}
        kept = [(cid,) for cid, name in db.execute("SELECT id, context FROM context")
                if not name or name.split("::", 1)[0] in keep]
        db.execute("CREATE TEMP TABLE kept (id integer primary key)")
        db.executemany("INSERT INTO kept VALUES (?)", kept)
        db.execute("DELETE FROM line_bits WHERE context_id NOT IN (SELECT id FROM kept)")
        db.execute("DELETE FROM context WHERE id NOT IN (SELECT id FROM kept)")
        db.commit()
        db.execute("VACUUM")
        db.close()
        paths.append(path)
    return paths


def selection(impact, repo, extra=()):
    """(selected node ids, the run's stderr, the coverage stage's ms)."""
    _, result = run([impact, "--changed", "--dry-run", "--format", "json", *extra], repo)
    doc = json.loads(result.stdout)
    return [s["node_id"] for s in doc["selected"]], result.stderr, doc["timings_ms"].get("coverage")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tests", type=int, default=20000)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--parts", type=int, default=4)
    parser.add_argument("--impact", default=os.environ.get("IMPACT_BIN", str(ROOT / "build/src/impact")))
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    impact = str(Path(args.impact).resolve())
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="impact-sharded-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"workdir: {workdir}")

    t0 = time.perf_counter()
    repo, tests, n_test_files, conftest_setup = generate(workdir, args.files, args.tests)
    whole = workdir / "coverage.sqlite"
    contexts, rows = write_coverage(whole, repo, args.files, tests, n_test_files, conftest_setup)
    parts = split(whole, workdir, args.parts, n_test_files)
    print(f"generated: {len(tests)} tests in {n_test_files} files, {args.files} modules; whole data "
          f"{whole.stat().st_size / 1e6:.1f} MB ({contexts} contexts, {rows} rows), split into {len(parts)} "
          f"parts in {time.perf_counter() - t0:.1f} s")

    remote = workdir / "remote"
    rows_out = []  # (what, seconds, note)
    for k, part in enumerate(parts):
        shard = clone(repo, workdir / f"shard{k + 1}")
        seconds, result = run([impact, "index", "--from", part, "--measured-at", "HEAD", "--cache-push",
                               "--cache-remote", remote], shard)
        pushed = re.search(r"shared cache: (pushed [^\n]*|nothing new[^\n]*)", result.stderr)
        rows_out.append((f"part {k + 1}: index --from + push", seconds,
                         f"{part.stat().st_size / 1e6:.1f} MB data; {pushed.group(1) if pushed else '?'}"))

    whole_clone = clone(repo, workdir / "whole")
    seconds, _ = run([impact, "index", "--from", whole, "--measured-at", "HEAD"], whole_clone)
    rows_out.append(("whole data: index --from", seconds, f"{whole.stat().st_size / 1e6:.1f} MB data"))

    pulled = clone(repo, workdir / "pulled")
    start = time.perf_counter()
    _, stderr, _ = selection(impact, pulled, ["--cache-pull", "--cache-remote", remote])
    seconds = time.perf_counter() - start
    line = re.search(r"shared cache: (pulled[^\n]*)", stderr)
    rows_out.append(("fresh clone: --changed --dry-run --cache-pull (no change)", seconds,
                     line.group(1).replace(str(remote), "R") if line else "?"))
    m = re.search(r"\((\d+(?:\.\d+)?) ms\)", line.group(1)) if line else None
    if m:
        rows_out.append(("  of which the pull", float(m.group(1)) / 1000, ""))

    for clone_dir in (whole_clone, pulled):
        _, status = run([impact, "index", "status"], clone_dir)
        print(f"index status ({clone_dir.name}):\n  " + status.stdout.strip().replace("\n", "\n  "))

    # The index benchmark's changes: a typical function, the busiest one, the core one.
    by_function = {}
    for node_id, _rel, _n, _start, calls in tests:
        for m_k in calls:
            by_function.setdefault(m_k, set()).add(node_id)
    typical = sorted(by_function, key=lambda mk: len(by_function[mk]))[len(by_function) // 2]
    busiest = max((mk for mk in by_function if mk != (0, 0)), key=lambda mk: len(by_function[mk]))
    results = []
    for label, (m, k) in (("typical", typical), ("busiest", busiest), ("core", (0, 0))):
        chosen = {}
        for clone_dir in (whole_clone, pulled):
            target = clone_dir / f"src/pkg/m{m:04d}.py"
            original = target.read_text()
            target.write_text(original.replace(f"    a = x + {k}\n", f"    a = x + {k} + 1\n", 1))
            chosen[clone_dir.name] = selection(impact, clone_dir)[0]
            target.write_text(original)
        a, b = chosen["whole"], chosen["pulled"]
        verdict = "equal" if a == b else (f"DIFFERENT (whole {len(a)}, pulled {len(b)}; "
                                          f"{len(set(a) - set(b))} only in whole, {len(set(b) - set(a))} only in pulled)")
        results.append(a == b)
        print(f"{label} change (m{m:04d}.f{k}, run by {len(by_function[(m, k)])} tests): whole {len(a)} "
              f"selected, pulled {len(b)}: {verdict}")
        if a != b:
            for node in sorted(set(a) ^ set(b))[:5]:
                print(f"    {'only in whole ' if node in a else 'only in pulled'} {node}")

    print()
    print("| step | seconds | |")
    print("| --- | --- | --- |")
    for what, seconds, note in rows_out:
        print(f"| {what} | {seconds:.2f} | {note} |")
    if args.workdir is None:
        shutil.rmtree(workdir)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
