#!/usr/bin/env python3
"""The shared cache's pull at scale (docs/performance.md, "The shared cache"): a remote of 200 segments,
each the size a run of the 20,000-test index benchmark pushes, merged into an empty local cache.

Each segment holds the durations of all 20,000 tests (a whole-suite run: the largest a run pushes) and
the facts of the files that run parsed: the first segment every module's (a cold job), each later one
those of the --changed-files modules edited since the push before (a job after a pull parses only
what changed). The segments are pushed by impact itself (`impact select --cache-push`), so their
layout is the real one; their durations are written into the cache's durations.json first, stamped a
little in the future so that the push counts them as measured by its run.

Measured: the pull alone (the milliseconds impact prints for it) into a fresh clone's empty cache, the
median of --runs runs, and the whole `impact select --cache-pull` against the same command on the
clone with its cache already pulled (the analysis then parses nothing).

Usage: /usr/bin/python3 tests/bench/cache_pull_bench.py [--impact BIN] [--segments 200] [--tests 20000]
                                                        [--modules 2000] [--changed-files 20] [--runs 5]
                                                        [--workdir DIR]
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@impact.invalid", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "bench@impact.invalid", "GIT_CONFIG_NOSYSTEM": "1"}


def env():
    out = {k: v for k, v in os.environ.items() if not k.startswith("IMPACT_")}
    out.update(GIT_ENV)
    return out


def run(argv, cwd):
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=env(), capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"cache_pull_bench: {' '.join(map(str, argv))} failed ({result.returncode}):\n{result.stderr}")
    return result


def module_text(k, version):
    body = "\n\n".join(f"def f{j}(x):\n    a = x + {k * 10 + j}\n    return a * {version + 2}\n" for j in range(10))
    return f"import os\n\nVALUE = {k}\n\n\n{body}"


def make_repo(path, modules):
    path.mkdir(parents=True)
    run(["git", "init", "-q", "-b", "main"], path)
    (path / "pyproject.toml").write_text("[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\"src\"]\n")
    (path / ".gitignore").write_text(".impact_cache/\n")
    (path / "src" / "pkg").mkdir(parents=True)
    (path / "src" / "pkg" / "__init__.py").write_text("")
    (path / "tests").mkdir()
    for k in range(modules):
        (path / "src" / "pkg" / f"m{k}.py").write_text(module_text(k, 0))
        if k % 4 == 0:
            (path / "tests" / f"test_m{k}.py").write_text(f"from pkg import m{k}\n\n\ndef test_f0():\n    assert m{k}.f0(1)\n")
    run(["git", "add", "-A"], path)
    run(["git", "commit", "-q", "-m", "base"], path)


def durations_doc(tests, at, seed):
    ids = {f"tests/test_m{(i // 10) * 4}.py::test_case_{i % 10}": {"seconds": round(0.001 + ((i * 7919 + seed) % 997) / 1000, 6),
                                                                  "at": at} for i in range(tests)}
    return {"schema": "impact.durations", "version": 1, "tests": ids}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--impact", default=str(ROOT / "build" / "src" / "impact"))
    parser.add_argument("--segments", type=int, default=200)
    parser.add_argument("--tests", type=int, default=20000)
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--changed-files", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir")
    args = parser.parse_args()
    args.impact = str(Path(args.impact).resolve())
    work = Path(args.workdir or tempfile.mkdtemp(prefix="impact-cache-bench-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    job, remote = work / "job", work / "remote"
    make_repo(job, args.modules)
    cache = job / ".impact_cache"
    future = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
    start = time.perf_counter()
    for s in range(args.segments):
        if s > 0:  # the files this job changed since the last push: their new facts go into its segment
            for c in range(args.changed_files):
                k = (s * args.changed_files + c) % args.modules
                (job / "src" / "pkg" / f"m{k}.py").write_text(module_text(k, s))
        at = (future + datetime.timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        cache.mkdir(exist_ok=True)
        (cache / "durations.json").write_text(json.dumps(durations_doc(args.tests, at, s)))
        out = run([args.impact, "select", "--cache-remote", remote, "--cache-push"], job)
        if "pushed segment" not in out.stderr:
            sys.exit(f"cache_pull_bench: segment {s} was not pushed:\n{out.stderr}")
    push_seconds = time.perf_counter() - start
    files = sorted((remote / "segments").glob("*.seg"))
    sizes = [f.stat().st_size for f in files]

    fresh = work / "fresh"
    run(["git", "clone", "-q", job, fresh], work)
    pull_ms, pulled_select, warm_select = [], [], []
    for _ in range(args.runs):
        shutil.rmtree(fresh / ".impact_cache", ignore_errors=True)
        t = time.perf_counter()
        out = run([args.impact, "select", "--cache-remote", remote, "--cache-pull"], fresh)
        pulled_select.append(time.perf_counter() - t)
        m = re.search(r"pulled (?:the base and )?(\d+) segment\(s\).*\((\d+) ms\)", out.stderr)
        if not m or int(m.group(1)) != args.segments:
            sys.exit(f"cache_pull_bench: unexpected pull:\n{out.stderr}")
        pull_ms.append(int(m.group(2)))
        t = time.perf_counter()
        run([args.impact, "select"], fresh)
        warm_select.append(time.perf_counter() - t)
    print(f"| segments | {len(files)} ({statistics.median(sizes) / 1e6:.2f} MB median, {max(sizes) / 1e6:.2f} MB largest, "
          f"{sum(sizes) / 1e6:.0f} MB in all) |")
    print(f"| durations per segment | {args.tests} |")
    print(f"| facts per segment | every module's ({args.modules + args.modules // 4 + 1} files) in the first, "
          f"{args.changed_files} in each later one |")
    print(f"| pushing them all (one `impact select --cache-push` each) | {push_seconds:.1f} s |")
    print(f"| the pull alone, into an empty cache (median of {args.runs}) | {statistics.median(pull_ms):.0f} ms "
          f"(min {min(pull_ms)}, max {max(pull_ms)}) |")
    print(f"| `impact select --cache-pull`, empty cache | {statistics.median(pulled_select) * 1000:.0f} ms |")
    print(f"| `impact select` after it (warm) | {statistics.median(warm_select) * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
