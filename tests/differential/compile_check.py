#!/usr/bin/env python3
"""Differential check of impact's compile check against CPython's own compile().

impact decides in C++, from the tree-sitter tree and the bytes, whether CPython would compile a file
(docs/selection.md, syntax-error). This script asks the interpreter running it: it compiles every
file of a corpus with compile() and compares with impact_compile_check (tests/differential/
compile_check_main.cpp). The corpus: the standard library and installed packages on this machine,
the repository's fixtures, and invalid variants generated from them (tokens inserted and deleted,
lines re-indented, bytes re-encoded).

Every file impact calls "compiles" that CPython refuses is a miss: impact would narrow a selection
past a broken import. The script exits 1 when there is one. The other disagreement (impact says
"does not compile" or "may not compile", CPython compiles it) only over-selects, and is counted.

    /usr/bin/python3 tests/differential/compile_check.py --checker build-dev/tests/impact_compile_check
    ... --quick        a bounded run for ctest (a few hundred files and mutants)
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPORA = [Path(f"/usr/lib/python3.{sys.version_info.minor}"), Path("/usr/lib/python3/dist-packages"), REPO / "fixtures"]
MAX_BYTES = 1_000_000

# Fragments inserted by the mutator: Python 2 syntax, misplaced keywords, stray brackets and operators.
INSERTIONS = [
    "print 'x'\n", "exec 'x = 1'\n", "x = 0777\n", "x = 1 <> 2\n", "x = `y`\n", "break\n", "continue\n",
    "return 1\n", "yield 1\n", "await x\n", "async for x in y: pass\n", "nonlocal x\n", "from __future__ import division\n",
    "(", ")", "[", "]", "{", "}", ":", ",", "=", "*", "**", "lambda", "def", "class", "import", "if", "else",
    "$", "?", "!", "\\", "'", '"', '"""', "\t", " ", "\x00", "\x0b", "\u00a0", "x := 1\n", "del f()\n",
    "f(a=1, 2)\n", "def f(a, a): pass\n", "def f(a=1, b): pass\n", "1 = x\n", "None = 1\n", "x += 1, 2\n",
    "*a = b\n", "raise E, 'm'\n", "except E, e:\n", "10L", "0x", "1__0", "ur''", "b'\u00e9'", "'\\x1'",
    "f'{}'", "f'}'", "global x\n", "import *\n", "try:\n    pass\n", "match x:\n    case y: pass\n    case z: pass\n",
    "with (a as b): pass\n", "def f[T](): pass\n", "type X = int\n", "except* E:\n", "case _:\n",
    "[y := 0 for y in z]\n", "[x for x in (y := z)]\n", "[(w := x) for x in z]\n",
]


def cpython_compiles(data: bytes, name: str) -> tuple[bool, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(data, name, "exec", dont_inherit=True)
            return True, ""
        except (SyntaxError, ValueError, UnicodeError, RecursionError, MemoryError, OverflowError) as e:
            return False, f"{type(e).__name__}: {e}"


def corpus(limit: int, rng: random.Random) -> list[Path]:
    files = []
    for root in CORPORA:
        if root.is_dir():
            files.extend(p for p in sorted(root.rglob("*.py")) if p.is_file() and not p.is_symlink())
    files = [p for p in files if p.stat().st_size <= MAX_BYTES]
    if limit and len(files) > limit:
        files = rng.sample(files, limit)
    return files


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random invalid-looking variant: a fragment inserted, a slice deleted, a line re-indented,
    or the bytes re-encoded."""
    kind = rng.randrange(6)
    lines = data.split(b"\n")
    if kind == 0 or not data:
        fragment = rng.choice(INSERTIONS).encode("utf-8")
        if rng.random() < 0.5 and lines:  # at a line start, indented like the line
            i = rng.randrange(len(lines))
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines.insert(i, indent + fragment.rstrip(b"\n"))
            return b"\n".join(lines)
        at = rng.randrange(len(data) + 1)
        return data[:at] + fragment + data[at:]
    if kind == 1:  # delete a slice: a token or a few
        at = rng.randrange(len(data))
        return data[:at] + data[at + rng.randint(1, 12):]
    if kind == 2:  # re-indent a line: tabs for spaces, one space more or less
        i = rng.randrange(len(lines))
        line = lines[i]
        body = line.lstrip(b" \t")
        indent = line[: len(line) - len(body)]
        choice = rng.randrange(4)
        if choice == 0:
            indent = indent.replace(b"        ", b"\t").replace(b"    ", b"\t")
        elif choice == 1:
            indent = indent + b" "
        elif choice == 2:
            indent = indent[:-1]
        else:
            indent = b"\t" + indent
        lines[i] = indent + body
        return b"\n".join(lines)
    if kind == 3:  # re-encode
        text = data.decode("utf-8", "replace")
        choice = rng.randrange(5)
        if choice == 0:
            return text.encode("latin-1", "replace") + "\n# é\n".encode("latin-1")
        if choice == 1:
            return b"# -*- coding: latin-1 -*-\n" + text.encode("latin-1", "replace")
        if choice == 2:
            return b"\xef\xbb\xbf# coding: latin-1\n" + data
        if choice == 3:
            return text.encode("utf-16")
        return data.replace(b"\n", b"\r", rng.randint(1, 3))
    if kind == 4:  # a stray byte
        at = rng.randrange(len(data) + 1)
        return data[:at] + bytes([rng.choice([0, 0x0B, 0x80, 0xC3, 0xFF, 0x24, 0x3F, 0x60])]) + data[at:]
    # nest brackets or blocks past CPython's limits
    i = rng.randrange(len(lines))
    depth = rng.choice([150, 199, 200, 201, 250])
    if rng.random() < 0.5:
        lines.insert(i, b"x = " + b"(" * depth + b"1" + b")" * depth)
    else:
        n = rng.choice([18, 19, 20, 21, 25])
        block = [b"    " * k + b"for x%d in y:" % k for k in range(n)] + [b"    " * n + b"pass"]
        lines = lines[: i] + block + lines[i:] if not lines[i].startswith((b" ", b"\t")) else lines + block
    return b"\n".join(lines)


NAMES = ["a", "b", "c", "_", "__debug__"]
LITERALS = ["1", "-1", "1.0", "0x1", "1_0", "True", "False", "None", "'a'", '"a"', "b'a'", "f'a'", "rb'a'", "1j",
            "-1j", "1+2j", "1-2j", "-1+0j", "1j+1", "1+1", "'a' 'b'", "'ab'", "'\\x61'", "r'a'", "2**64", "18446744073709551616"]


def random_pattern(rng: random.Random, depth: int = 0) -> str:
    """One random match pattern from a grammar close to CPython's, valid or not: captures, literals,
    value patterns, sequences with stars, groups, or-patterns, `as`, class and mapping patterns."""
    kind = rng.randrange(10) if depth < 3 else rng.randrange(3)
    if kind == 0:
        return rng.choice(NAMES)
    if kind == 1:
        return rng.choice(LITERALS)
    if kind == 2:
        return rng.choice(["x.y", "m.C.k", "x.y"])
    if kind == 3 or kind == 4:
        items = []
        for _ in range(rng.randrange(4)):
            items.append(rng.choice(["*a", "*_", "*b", "**a"]) if rng.random() < 0.25 else random_pattern(rng, depth + 1))
        body = ", ".join(items) + ("," if items and rng.random() < 0.3 else "")
        return f"[{body}]" if kind == 3 else f"({body})"
    if kind == 5:
        return f"({random_pattern(rng, depth + 1)})"
    if kind == 6:
        return " | ".join(random_pattern(rng, depth + 1) for _ in range(rng.randint(2, 3)))
    if kind == 7:
        return f"{random_pattern(rng, depth + 1)} as {rng.choice(NAMES)}"
    if kind == 8:
        args = []
        for _ in range(rng.randrange(4)):
            if rng.random() < 0.5:
                args.append(f"{rng.choice(['k', 'j', 'k'])}={random_pattern(rng, depth + 1)}")
            else:
                args.append(random_pattern(rng, depth + 1))
        return f"C({', '.join(args)})"
    items = []
    for _ in range(rng.randrange(4)):
        if rng.random() < 0.15:
            items.append(rng.choice(["**r", "**_", "**s"]))
        else:
            key = rng.choice(LITERALS + ["x.y", "x.y", "a", "_"])
            items.append(f"{key}: {random_pattern(rng, depth + 1)}")
    return "{" + ", ".join(items) + "}"


def random_match(rng: random.Random) -> bytes:
    cases = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.2:
            head = ", ".join(rng.choice([random_pattern(rng, 1), "*a", "*_"]) for _ in range(rng.randint(1, 3))) + ","
        else:
            head = random_pattern(rng)
        guard = " if y" if rng.random() < 0.2 else ""
        cases.append(f"    case {head}{guard}:\n        pass\n")
    return ("match x:\n" + "".join(cases)).encode()


def run_checker(checker: str, paths: list[Path]) -> dict[str, tuple[str, str, int, int, int]]:
    out = subprocess.run([checker], input="\n".join(str(p) for p in paths) + "\n", capture_output=True, text=True,
                         check=True, errors="surrogateescape")
    verdicts = {}
    for line in out.stdout.splitlines():
        verdict, issue, ln, minor, needs_line, path = line.split("\t", 5)
        verdicts[path] = (verdict, issue, int(ln), int(minor), int(needs_line))
    return verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checker", required=True, help="the impact_compile_check binary")
    parser.add_argument("--quick", action="store_true", help="200 files and 200 mutants (ctest)")
    parser.add_argument("--files", type=int, default=0, help="sample this many corpus files (0: all)")
    parser.add_argument("--mutants", type=int, default=3000, help="invalid variants to generate")
    parser.add_argument("--patterns", type=int, default=1500, help="random match statements to generate")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--keep", help="copy every miss here, to reproduce it")
    parser.add_argument("--show", type=int, default=20, help="misses to print")
    parser.add_argument("--show-widened", type=int, default=0, help="widened cases to print")
    args = parser.parse_args()
    if args.quick:
        args.files, args.mutants, args.patterns = args.files or 200, min(args.mutants, 200), min(args.patterns, 300)
    rng = random.Random(args.seed)
    minor = sys.version_info.minor
    started = time.monotonic()

    files = corpus(args.files, rng)
    with tempfile.TemporaryDirectory(prefix="impact-diff-") as tmp:
        cases: list[tuple[Path, bytes, str]] = []  # (path given to the checker, bytes, origin)
        for p in files:
            cases.append((p, p.read_bytes(), str(p)))
        sources = [c for c in cases if c[1]]
        for k in range(args.mutants):
            origin, data, name = rng.choice(sources)
            mutant = mutate(data, rng)
            path = Path(tmp) / f"m{k}.py"
            path.write_bytes(mutant)
            cases.append((path, mutant, f"mutant {k} of {name}"))
        for k in range(args.patterns):
            data = random_match(rng)
            path = Path(tmp) / f"p{k}.py"
            path.write_bytes(data)
            cases.append((path, data, f"pattern {k}: {data.decode()!r}"))
        verdicts = run_checker(args.checker, [c[0] for c in cases])
        counts = {"agree_compiles": 0, "agree_fails": 0, "over": 0, "miss": 0}
        misses = []
        widened_cases = []
        widened: dict[str, int] = {}
        for path, data, origin in cases:
            verdict, issue, line, needs, needs_line = verdicts[str(path)]
            impact_ok = verdict == "compiles" and needs <= minor
            ok, error = cpython_compiles(data, str(path))
            if impact_ok and ok:
                counts["agree_compiles"] += 1
            elif not impact_ok and not ok:
                counts["agree_fails"] += 1
            elif not impact_ok:
                counts["over"] += 1
                why = issue if verdict != "compiles" else f"needs 3.{needs}"
                widened[why] = widened.get(why, 0) + 1
                widened_cases.append((origin, why))
            else:
                counts["miss"] += 1
                misses.append((origin, error, path, data))
        if args.keep:
            Path(args.keep).mkdir(parents=True, exist_ok=True)
            for k, (origin, error, path, data) in enumerate(misses):
                Path(args.keep, f"miss{k}.py").write_bytes(data)
    total = sum(counts.values())
    agree = counts["agree_compiles"] + counts["agree_fails"]
    print(f"python 3.{minor}: {len(files)} files, {args.mutants} mutants, {args.patterns} match statements, {total} cases in {time.monotonic() - started:.1f} s")
    print(f"agreement {agree}/{total} = {100.0 * agree / max(total, 1):.2f}%: both compile {counts['agree_compiles']}, "
          f"both refuse {counts['agree_fails']}")
    print(f"impact widens (CPython compiles, impact says it may not): {counts['over']}")
    for why, n in sorted(widened.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d}  {why}")
    for origin, why in widened_cases[: args.show_widened]:
        print(f"  WIDENED {origin}: {why}")
    print(f"misses (impact says it compiles, CPython refuses): {counts['miss']}")
    for origin, error, path, data in misses[: args.show]:
        print(f"  MISS {origin}: {error}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
