#!/usr/bin/env python3
"""The coverage index at scale: a generated project of 5,000 modules and 20,000 tests, a coverage.py
database (schema 7, numbits, pytest-cov contexts) describing a run of it, and three measurements:

  1. `impact index --from` build time, and the index's size on disk;
  2. the lookup for a one-file change: `impact --changed --dry-run` with the index against --no-index,
     and the time of the coverage stage alone (the JSON's timings_ms);
  3. what that lookup reads of the index file (pread calls, via strace): it must be that file's rows,
     not the index.

Usage: /usr/bin/python3 tests/bench/index_bench.py [--tests 20000] [--files 5000] [--impact BIN]
                                                   [--workdir DIR] [--runs 5]
The figures are in docs/coverage.md. Nothing here runs pytest: the coverage data is synthetic, shaped
like a real pytest-cov --cov-context=test run (every test runs its own test function, a fixture in its
setup phase, and a dozen modules it imports; module-level lines run at import, outside any test).
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run_bench import timed

ROOT = Path(__file__).resolve().parents[2]

FUNCTIONS = 10        # per module
BODY = [              # a function body: 7 lines, one branch
    "    a = x + {k}",
    "    b = a * 2",
    "    if b > 1000:",
    "        b -= 1",
    "    c = b + 3",
    "    d = c - a",
    "    return d",
]
TESTS_PER_FILE = 20
MODULES_PER_TEST = 12  # modules a test calls into (2 of its file's own, 10 shared utilities), and the core

# coverage.py's schema 7 (coverage/sqldata.py).
SCHEMA = """
CREATE TABLE coverage_schema (version integer);
CREATE TABLE meta (key text, value text, unique (key));
CREATE TABLE file (id integer primary key, path text, unique (path));
CREATE TABLE context (id integer primary key, context text, unique (context));
CREATE TABLE line_bits (file_id integer, context_id integer, numbits blob, unique (file_id, context_id));
CREATE TABLE arc (file_id integer, context_id integer, fromno integer, tono integer,
                  unique (file_id, context_id, fromno, tono));
CREATE TABLE tracer (file_id integer primary key, tracer text);
"""


def nums_to_numbits(nums):
    """coverage.numbits.nums_to_numbits."""
    if not nums:
        return b""
    b = bytearray(max(nums) // 8 + 1)
    for num in nums:
        b[num // 8] |= 1 << num % 8
    return bytes(b)


def module_source(m):
    lines = [f'"""Module {m}."""']
    for k in range(FUNCTIONS):
        lines += ["", "", f"def f{k}(x):"] + [line.format(k=k) for line in BODY]
    return "\n".join(lines) + "\n"


def function_lines(k):
    """(def line, [body lines]) of function f{k} in module_source()."""
    first = 1 + k * (len(BODY) + 3) + 3
    body = list(range(first + 1, first + 1 + len(BODY)))
    return first, [n for n in body if n != first + 4]  # `b -= 1` never runs (b stays small)


def module_level_lines():
    return [1] + [function_lines(k)[0] for k in range(FUNCTIONS)]


def generate(workdir, n_files, n_tests, seed=4):
    rng = random.Random(seed)
    repo = workdir / "repo"
    if repo.exists():
        shutil.rmtree(repo)
    (repo / "src/pkg").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n')
    (repo / ".gitignore").write_text(".impact_cache/\n__pycache__/\n")
    (repo / "src/pkg/__init__.py").write_text("")
    for m in range(n_files):
        (repo / f"src/pkg/m{m:04d}.py").write_text(module_source(m))
    (repo / "tests/conftest.py").write_text("import pytest\n\n\n@pytest.fixture(autouse=True)\ndef ready():\n"
                                            "    state = {}\n    return state\n")
    conftest_setup_lines = [6, 7]
    n_test_files = (n_tests + TESTS_PER_FILE - 1) // TESTS_PER_FILE
    utilities = list(range(n_files))
    tests = []  # (node id, test file, body lines in the test file, [(module, function)])
    for t_file in range(n_test_files):
        own = [(t_file * 5 + i) % n_files for i in range(5)]
        calls_of_file, body = [], []
        count = min(TESTS_PER_FILE, n_tests - t_file * TESTS_PER_FILE)
        lines = []
        for j in range(count):
            mods = rng.sample(own, 2) + rng.sample(utilities[1:], MODULES_PER_TEST - 2)
            # Every test also goes through the core (m0000.f0): the hot file of a real suite.
            calls = [(0, 0)] + [(m, rng.randrange(1, FUNCTIONS) if m == 0 else rng.randrange(FUNCTIONS)) for m in mods]
            calls_of_file.append(calls)
        imported = sorted({m for calls in calls_of_file for m, _ in calls})
        lines += [f"from pkg import m{m:04d}" for m in imported]
        for j, calls in enumerate(calls_of_file):
            lines += ["", "", f"def test_{j}():"]
            start = len(lines) + 1
            lines += [f"    assert m{m:04d}.f{k}({j}) is not None" for m, k in calls]
            rel = f"tests/test_{t_file:04d}.py"
            tests.append((f"{rel}::test_{j}", rel, len(lines) - start + 1, start, calls))
        (repo / f"tests/test_{t_file:04d}.py").write_text("\n".join(lines) + "\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "generated"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
    return repo, tests, n_test_files, conftest_setup_lines


def write_coverage(path, repo, n_files, tests, n_test_files, conftest_setup_lines):
    if path.exists():
        path.unlink()
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO coverage_schema VALUES (7)")
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("version", "7.2.7"), ("has_arcs", "0"),
                                                     ("when", "2026-01-01 00:00:00")])
    file_id = {}

    def fid(rel):
        if rel not in file_id:
            file_id[rel] = len(file_id) + 1
            db.execute("INSERT INTO file (id, path) VALUES (?, ?)", (file_id[rel], str(repo / rel)))
        return file_id[rel]

    context_id = {}

    def cid(name):
        if name not in context_id:
            context_id[name] = len(context_id) + 1
            db.execute("INSERT INTO context (id, context) VALUES (?, ?)", (context_id[name], name))
        return context_id[name]

    rows = []
    outside = cid("")
    module_level = nums_to_numbits(module_level_lines())
    for m in range(n_files):
        rows.append((fid(f"src/pkg/m{m:04d}.py"), outside, module_level))
    rows.append((fid("tests/conftest.py"), outside, nums_to_numbits([1, 3, 4, 5])))
    for node_id, rel, n_lines, start, calls in tests:
        setup = cid(f"{node_id}|setup")
        run = cid(f"{node_id}|run")
        cid(f"{node_id}|teardown")
        rows.append((fid("tests/conftest.py"), setup, nums_to_numbits(conftest_setup_lines)))
        rows.append((fid(rel), run, nums_to_numbits(list(range(start, start + n_lines)))))
        per_module = {}
        for m, k in calls:
            per_module.setdefault(m, set()).update(function_lines(k)[1])
        for m, lines in per_module.items():
            rows.append((fid(f"src/pkg/m{m:04d}.py"), run, nums_to_numbits(sorted(lines))))
    for t_file in range(n_test_files):
        rel = f"tests/test_{t_file:04d}.py"
        text = (repo / rel).read_text().splitlines()
        level = [i + 1 for i, line in enumerate(text) if line.startswith(("from ", "def "))]
        rows.append((fid(rel), outside, nums_to_numbits(level)))
    # pytest-cov writes one row per (file, context): merge duplicates as coverage.py would.
    merged = {}
    for f, c, bits in rows:
        key = (f, c)
        if key in merged:
            a, b = merged[key], bits
            n = max(len(a), len(b))
            merged[key] = bytes(x | y for x, y in zip(a.ljust(n, b"\0"), b.ljust(n, b"\0")))
        else:
            merged[key] = bits
    db.executemany("INSERT INTO line_bits VALUES (?, ?, ?)", [(f, c, b) for (f, c), b in merged.items()])
    db.commit()
    db.close()
    return len(context_id), len(merged)


def index_reads(impact, repo, index_path):
    """pread64 calls and bytes on the index file during one lookup (strace), or None without strace."""
    if not shutil.which("strace"):
        return None
    with tempfile.NamedTemporaryFile(suffix=".strace") as log:
        subprocess.run(["strace", "-f", "-y", "-e", "trace=pread64", "-o", log.name, impact, "--changed", "--dry-run"],
                       cwd=repo, capture_output=True, check=True)
        calls = total = 0
        for line in Path(log.name).read_text().splitlines():
            if str(index_path) in line and "pread64(" in line:
                m = re.search(r"= (\d+)$", line)
                if m:
                    calls += 1
                    total += int(m.group(1))
    return calls, total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tests", type=int, default=20000)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--impact", default=os.environ.get("IMPACT_BIN", str(ROOT / "build/src/impact")))
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    impact = str(Path(args.impact).resolve())
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="impact-index-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"workdir: {workdir}")

    t0 = time.perf_counter()
    repo, tests, n_test_files, conftest_setup = generate(workdir, args.files, args.tests)
    data = workdir / "coverage.sqlite"
    contexts, rows = write_coverage(data, repo, args.files, tests, n_test_files, conftest_setup)
    print(f"generated: {args.files} modules, {len(tests)} tests in {n_test_files} files; coverage data "
          f"{data.stat().st_size / 1e6:.1f} MB ({contexts} contexts, {rows} line_bits rows) in "
          f"{time.perf_counter() - t0:.1f} s")

    built, _ = timed([impact, "index", "--from", str(data)], repo)
    index_path = repo / ".impact_cache/coverage-index.sqlite"
    print(f"impact index --from: {built:.2f} s; index {index_path.stat().st_size / 1e6:.1f} MB")
    _, status = timed([impact, "index", "status"], repo)
    print("  " + status.strip().replace("\n", "\n  "))

    # A one-line change inside a function body of a typical module, and of the busiest one.
    by_module = {}
    for node_id, rel, n_lines, start, calls in tests:
        for m, k in calls:
            by_module.setdefault((m, k), set()).add(node_id)
    typical = sorted(by_module, key=lambda mk: len(by_module[mk]))[len(by_module) // 2]
    busiest = max((mk for mk in by_module if mk != (0, 0)), key=lambda mk: len(by_module[mk]))
    dry_run = [impact, "--changed", "--dry-run", "--format", "json"]
    timed(dry_run + ["--no-index"], repo)  # warms the facts cache
    for label, (m, k) in (("typical", typical), ("busiest", busiest), ("core", (0, 0))):
        rel = repo / f"src/pkg/m{m:04d}.py"
        original = rel.read_text()
        rel.write_text(original.replace(f"    a = x + {k}\n", f"    a = x + {k} + 1\n", 1))
        timed(dry_run, repo)  # parses the changed file once
        warm, cold, stage = [], [], []
        for _ in range(args.runs):
            t, out = timed(dry_run, repo)
            warm.append(t)
            doc = json.loads(out)
            stage.append(doc["timings_ms"].get("coverage", float("nan")))
            t, out = timed(dry_run + ["--no-index"], repo)
            cold.append(t)
        source = next(f["source"] for f in doc["changed_files"])
        static = len(json.loads(out)["selected"])
        reads = index_reads(impact, repo, index_path)
        print(f"{label} change (m{m:04d}.f{k}, run by {len(by_module[(m, k)])} tests; source {source}): "
              f"selected {len(doc['selected'])} (static {static}); "
              f"--dry-run {statistics.median(warm) * 1000:.0f} ms with the index, "
              f"{statistics.median(cold) * 1000:.0f} ms with --no-index; coverage stage "
              f"{statistics.median(stage):.1f} ms")
        if reads:
            print(f"  index reads: {reads[0]} pread calls, {reads[1] / 1024:.0f} KiB of "
                  f"{index_path.stat().st_size / 1024:.0f} KiB")
        rel.write_text(original)
    if args.workdir is None:
        shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
