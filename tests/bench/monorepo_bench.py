#!/usr/bin/env python3
"""Time impact's decision on a generated monorepo (docs/performance.md, "Monorepo mode").

Generates `--projects` projects under projects/pNN, each a generate_repo.py project of `--modules`
modules and `--tests` test files (its own pyproject.toml with [tool.pytest.ini_options], distribution
pNN), the first `--dependents` of the others declaring p00, commits them as one repository, changes one
line of a module of p00, and times `impact --dry-run --format json` cold (no cache anywhere) and warm
(the median of `--runs`), and `impact projects` (discovery alone). Each figure is wall time and, in
brackets, CPU time (user + system, of impact and its children): on a loaded machine the CPU time is
the one to compare.

    /usr/bin/python3 tests/bench/monorepo_bench.py --out /tmp/mono-bench --impact build-rel/src/impact \
        --projects 40 --modules 250 --tests 50

Prints one line per figure and exits 1 when the decision is not what the layout implies (p00 selected
from its own analysis, its dependents run whole, the others skipped).
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")


def generate(out, projects, modules, tests, dependents):
    root = Path(out)
    if root.exists() and any(root.iterdir()):
        sys.exit(f"monorepo_bench: {out} is not empty; pass a new directory")
    for i in range(projects):
        name = f"p{i:02d}"
        target = root / "projects" / name
        subprocess.run([sys.executable, str(HERE / "generate_repo.py"), "--out", str(target), "--modules",
                        str(modules), "--tests", str(tests), "--seed", str(i + 1)], check=True,
                       stdout=subprocess.DEVNULL)
        shutil.rmtree(target / ".git")
        deps = '["p00"]' if 1 <= i <= dependents else "[]"
        (target / "pyproject.toml").write_text(
            f'[project]\nname = "{name}"\nversion = "0.1.0"\ndependencies = {deps}\n\n'
            '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n')
    (root / "README.md").write_text("# generated monorepo\n")
    (root / ".gitignore").write_text("__pycache__/\n.impact_cache/\n.pytest_cache/\n")
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=GIT_ENV)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=GIT_ENV)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "generated"], check=True, env=GIT_ENV)


def change_one_line(root):
    """Appends a statement to the body of p00's first module's first function."""
    module = Path(root) / "projects/p00/src/app/pkg000/sub00/mod001.py"
    lines = module.read_text().splitlines(keepends=True)
    for n, line in enumerate(lines):
        if line.startswith("def "):
            lines.insert(n + 1, "    _bench_marker = 1\n")
            break
    module.write_text("".join(lines))


def clear_caches(root):
    for cache in Path(root).rglob(".impact_cache"):
        shutil.rmtree(cache)


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv, cwd):
    """(wall ms, CPU ms, stdout) of one run."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    run = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    ms = (time.perf_counter() - start) * 1000
    cpu_ms = (cpu_of_children() - cpu) * 1000
    if run.returncode != 0:
        sys.exit(f"monorepo_bench: {' '.join(argv)} exited {run.returncode}: {run.stderr}")
    return ms, cpu_ms, run.stdout


def medians(runs):
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--impact", required=True, help="the impact binary to time")
    ap.add_argument("--projects", type=int, default=40)
    ap.add_argument("--modules", type=int, default=250, help="modules per project")
    ap.add_argument("--tests", type=int, default=50, help="test files per project")
    ap.add_argument("--dependents", type=int, default=5, help="projects that declare p00")
    ap.add_argument("--runs", type=int, default=5, help="warm runs (the median is printed)")
    args = ap.parse_args()
    impact = str(Path(args.impact).resolve())
    generate(args.out, args.projects, args.modules, args.tests, args.dependents)
    files = sum(1 for p in Path(args.out).rglob("*.py") if ".git" not in p.parts)
    change_one_line(args.out)
    decide = [impact, "--dry-run", "--format", "json"]
    clear_caches(args.out)
    cold, cold_cpu, out = timed(decide, args.out)
    doc = json.loads(out)
    runs = {p["path"]: (p["run"], p["why"]) for p in doc["projects"]}
    expected = {f"projects/p{i:02d}": ("all", "depends_on_changed") if 1 <= i <= args.dependents
                else ("none", "unchanged") for i in range(1, args.projects)}
    wrong = {k: v for k, v in expected.items() if runs.get(k) != v}
    if runs.get("projects/p00", ("", ""))[1] != "changed" or wrong:
        sys.exit(f"monorepo_bench: unexpected decision: p00 {runs.get('projects/p00')}, others {wrong}")
    warm, warm_cpu = medians([timed(decide, args.out) for _ in range(args.runs)])
    discovery, discovery_cpu = medians([timed([impact, "projects"], args.out) for _ in range(args.runs)])
    print(f"monorepo: {args.projects} projects, {files} Python files, one line of projects/p00 changed")
    print(f"decide cold: {cold:.0f} ms ({cold_cpu:.0f} ms CPU)")
    print(f"decide warm: {warm:.0f} ms ({warm_cpu:.0f} ms CPU; medians of {args.runs})")
    print(f"impact projects: {discovery:.0f} ms ({discovery_cpu:.0f} ms CPU; medians of {args.runs})")


if __name__ == "__main__":
    main()
