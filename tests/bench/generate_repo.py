#!/usr/bin/env python3
"""Generate a synthetic Python project of realistic shape for impact's benchmarks.

The project has `--modules` source modules in a two-level package tree under src/ and `--tests` test
files under tests/, with conftest.py files, fixtures, classes, methods and functions that call into
other modules. Imports follow a layered, skewed fan-out: a few "core" modules are imported by many
others (as utilities are in real code), most by a handful, and tests import the modules they test plus
a few helpers. Everything is deterministic for a given --seed. The result is committed to a fresh git
repository so that impact can diff against it.

    tests/bench/generate_repo.py --out /tmp/bench-repo --modules 10000 --tests 2000
"""
import argparse
import os
import random
import subprocess
import sys

WORDS = ("account order invoice customer product cart payment shipment catalog report metric event "
         "session token ledger budget review ticket policy region vendor stock price coupon refund "
         "channel message profile audit record schedule task queue worker cache index search filter").split()


def module_path(i, per_pkg, per_sub):
    pkg, rest = divmod(i, per_pkg)
    sub, mod = divmod(rest, per_sub)
    return f"pkg{pkg:03d}", f"sub{sub:02d}", f"mod{mod:03d}"


def dotted(i, per_pkg, per_sub):
    p, s, m = module_path(i, per_pkg, per_sub)
    return f"app.{p}.{s}.{m}"


def pick_imports(rng, i, n_modules, fanout):
    """Modules import from lower-numbered ones (a layered DAG), skewed towards the core (low ids)."""
    if i == 0:
        return []
    chosen = set()
    for _ in range(fanout):
        if rng.random() < 0.35:
            target = int(rng.paretovariate(1.2)) - 1  # heavy head: core modules
        else:
            target = rng.randrange(max(0, i - 400), i)  # neighbours in the same area
        if 0 <= target < i:
            chosen.add(target)
    return sorted(chosen)


def function_body(rng, calls, width):
    lines = []
    for k in range(width):
        w = rng.choice(WORDS)
        lines.append(f"    {w}_{k} = value * {rng.randint(2, 97)} + {rng.randint(0, 1000)}")
        lines.append(f"    if {w}_{k} % {rng.randint(2, 9)} == 0:")
        lines.append(f"        value += {w}_{k} // {rng.randint(2, 9)}  # keep the {w} in range")
    for alias, name in calls:
        lines.append(f"    value += {alias}.{name}(value) if value < 10_000 else 0")
    lines.append("    return value")
    return lines


def gen_module(rng, i, n_modules, per_pkg, per_sub, fanout):
    imports = pick_imports(rng, i, n_modules, fanout)
    out = [f'"""Module {dotted(i, per_pkg, per_sub)}: {" ".join(rng.sample(WORDS, 6))}."""',
           "from __future__ import annotations", "", "import functools", "import logging", ""]
    aliases = []
    for t in imports:
        alias = f"m{t}"
        out.append(f"from {dotted(t, per_pkg, per_sub).rsplit('.', 1)[0]} import {module_path(t, per_pkg, per_sub)[2]} as {alias}")
        aliases.append(alias)
    out += ["", "log = logging.getLogger(__name__)", f"LIMIT = {rng.randint(10, 1000)}", ""]
    for f in range(5):
        calls = [(a, f"func{rng.randint(0, 3)}") for a in rng.sample(aliases, min(len(aliases), 2))]
        out.append("")
        out.append(f"def func{f}(value: int = 0) -> int:")
        out.append(f'    """Compute the {rng.choice(WORDS)} value for step {f}."""')
        out += function_body(rng, calls, 4)
        out.append("")
    for c in range(2):
        out.append("")
        out.append(f"class {rng.choice(WORDS).capitalize()}Service{c}:")
        out.append(f'    """Service for {rng.choice(WORDS)} handling."""')
        out.append("")
        out.append("    def __init__(self, limit: int = LIMIT) -> None:")
        out.append("        self.limit = limit")
        out.append("        self.items: list[int] = []")
        for m in range(4):
            out.append("")
            out.append(f"    def method{m}(self, value: int) -> int:")
            out.append("        if value > self.limit:")
            out.append("            log.debug('over limit: %s', value)")
            out.append("            return self.limit")
            out.append(f"        return func{m}(value) + len(self.items)")
        out.append("")
        out.append("    @functools.cached_property")
        out.append("    def total(self) -> int:")
        out.append("        return sum(self.items)")
        out.append("")
    return "\n".join(out) + "\n"


def gen_test(rng, j, n_modules, per_pkg, per_sub):
    targets = sorted({rng.randrange(n_modules) for _ in range(rng.randint(1, 4))})
    out = [f'"""Tests {j}."""', "import pytest", ""]
    for t in targets:
        out.append(f"from {dotted(t, per_pkg, per_sub).rsplit('.', 1)[0]} import {module_path(t, per_pkg, per_sub)[2]} as m{t}")
    out += ["", "", "@pytest.fixture", "def base_value():", f"    return {rng.randint(1, 50)}", ""]
    for k in range(8):
        t = rng.choice(targets)
        out.append("")
        out.append(f"def test_{rng.choice(WORDS)}_{k}(base_value):")
        out.append(f"    result = m{t}.func{rng.randint(0, 3)}(base_value)")
        out.append("    assert isinstance(result, int)")
        out.append(f"    assert result >= 0 or result < 0  # {rng.choice(WORDS)}")
    out.append("")
    out.append("")
    out.append(f"class Test{rng.choice(WORDS).capitalize()}{j}:")
    for k in range(4):
        t = rng.choice(targets)
        out.append(f"    def test_service_{k}(self, base_value):")
        out.append(f"        assert m{t}.func{rng.randint(0, 3)}(base_value) is not None")
        out.append("")
    return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--modules", type=int, default=10000)
    ap.add_argument("--tests", type=int, default=2000)
    ap.add_argument("--fanout", type=int, default=6, help="import attempts per module")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    per_sub = 10
    per_pkg = 100
    if os.path.exists(args.out) and os.listdir(args.out):
        sys.exit(f"generate_repo: {args.out} is not empty; pass a new directory")
    src = os.path.join(args.out, "src")
    write(os.path.join(src, "app", "__init__.py"), '"""The generated application."""\n')
    for i in range(args.modules):
        p, s, m = module_path(i, per_pkg, per_sub)
        pkg_dir = os.path.join(src, "app", p)
        if not os.path.exists(os.path.join(pkg_dir, "__init__.py")):
            write(os.path.join(pkg_dir, "__init__.py"), f'"""Package {p}."""\n')
        if not os.path.exists(os.path.join(pkg_dir, s, "__init__.py")):
            write(os.path.join(pkg_dir, s, "__init__.py"), "")
        write(os.path.join(pkg_dir, s, m + ".py"), gen_module(rng, i, args.modules, per_pkg, per_sub, args.fanout))
    tests = os.path.join(args.out, "tests")
    write(os.path.join(tests, "conftest.py"), "import pytest\n\n\n@pytest.fixture\ndef limit():\n    return 10\n")
    for j in range(args.tests):
        group = f"group{j // 100:02d}"
        if j % 100 == 0:
            write(os.path.join(tests, group, "conftest.py"),
                  "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _env(monkeypatch):\n    monkeypatch.setenv('APP_ENV', 'test')\n")
        write(os.path.join(tests, group, f"test_t{j:05d}.py"), gen_test(rng, j, args.modules, per_pkg, per_sub))
    write(os.path.join(args.out, "pyproject.toml"),
          '[project]\nname = "app"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n')
    write(os.path.join(args.out, ".gitignore"), "__pycache__/\n.impact_cache/\n.pytest_cache/\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")
    subprocess.run(["git", "init", "-q", "-b", "main", args.out], check=True, env=env)
    subprocess.run(["git", "-C", args.out, "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", args.out, "commit", "-q", "-m", "generated"], check=True, env=env)
    total = 0
    for root, _, files in os.walk(args.out):
        if ".git" in root.split(os.sep):
            continue
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files if f.endswith(".py"))
    print(f"generated {args.modules} modules and {args.tests} test files, {total / 1e6:.1f} MB of Python, in {args.out}")


if __name__ == "__main__":
    main()
