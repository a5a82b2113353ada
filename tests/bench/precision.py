#!/usr/bin/env python3
"""Precision benchmark of impact on a real project: how much of the suite does impact select per seeded
edit, cold (static) and warm (with the coverage index), against a per-test coverage oracle, and does
any of the three miss a test the edit breaks?

    /usr/bin/python3 tests/bench/precision.py /tmp/prec/toolz --impact /work/baseline/impact \\
        --operators all --mutants 1 --seed 1 --json /tmp/prec/toolz.json
    /usr/bin/python3 tests/bench/precision.py --table /tmp/prec/*.json     # the docs/precision.md table
    /usr/bin/python3 tests/bench/precision.py --chains /tmp/prec/toolz.json # why impact selected more

It reuses mutate_project.py's edits (every operator: `--list-operators`) and its suite runner. For a git
repository with a clean work tree it

1. runs the whole suite once and records every node id's outcome (tests not passing are ignored);
2. runs it again under coverage.py with pytest-cov's per-test contexts (`--cov-context=test`, the
   project's own coverage configuration ignored): the **oracle's** data;
3. builds impact's coverage index once on the base (`impact index`, in a cache folder of its own);
4. per edit: writes it, and asks impact for its decision twice (`--dry-run --format json`): **static**
   (`--no-index`, an empty cache folder: a new user's first run) and **index** (the index of step 3
   and its warm cache); computes the **oracle**'s selection; runs the whole suite; restores the file.

The oracle (issue 13): the base lines of the change are the modified and deleted lines, and for an
inserted line the base lines just before and after it in the same block (its statement list, found by
the inserted line's indentation: the statement before it and the statement after it). A base line
stands for its whole statement (a compound statement: its header, decorators included) because
coverage records a multi-line statement under any of its lines. The oracle selects the tests whose
`|run` context executed one of those lines; it selects **everything** when one of them ran under any
other context (the empty context: import and collection; a `|setup` or `|teardown` phase: fixtures), or
when one of them ran and is not inside a function body (module level, a class body, a `def` line,
its decorators and defaults: they run at import, and a module imported during one test's call is
used by later tests too). A line that never ran selects nothing. When the
inserted line has no executable neighbour in its block (a body that is only a docstring) the oracle
cannot tell and selects everything (`oracle_note` says so).

The share of an edit is the share of the baseline-passing tests a selection holds: a node id counts
the tests it names or prefixes (a file, a class, a function without its parameters), `run_all` is 1.0,
nothing is 0.0. A **miss** is a test that passed at baseline, does not pass under the edit, is not
in the selection, and still fails when re-run alone (mutate_project.py's check); tests that only fail
in the full session are counted apart. An oracle miss means the oracle or the edit is wrong: it is
printed as ORACLE MISS and should be investigated, not averaged.
"""
from __future__ import annotations

import argparse
import ast
import atexit
import difflib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutate_project as mp  # noqa: E402

PYTHON = mp.PYTHON
MODES = ("static", "index", "oracle")


# ------------------------------------------------------------------------------------------- oracle


def oracle_contexts(runner: mp.Runner, workdir: Path) -> dict[str, dict[int, set[str]]]:
    """Runs the suite under pytest-cov with per-test contexts; returns file (repository-relative) ->
    line -> contexts that executed it."""
    data = workdir / "oracle.coverage"
    rc = workdir / "oracle.coveragerc"
    rc.write_text(f"[run]\nbranch = False\ndata_file = {data}\n", encoding="utf-8")
    saved = runner.pytest_args
    runner.pytest_args = saved + [f"--cov={runner.repo}", "--cov-context=test", "--cov-report=",
                                  f"--cov-config={rc}", "--cov-fail-under=0"]
    try:
        run = runner.pytest([], whole_suite=True)
    finally:
        runner.pytest_args = saved
    if run.timed_out or not data.exists():
        sys.exit(f"precision: the oracle's coverage run failed:\n{run.output_tail}")
    import coverage  # Debian's python3-coverage

    cov = coverage.Coverage(data_file=str(data), config_file=str(rc))
    cov.load()
    measured = cov.get_data()
    root = runner.repo.resolve()
    out: dict[str, dict[int, set[str]]] = {}
    for fname in measured.measured_files():
        try:
            rel = Path(fname).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        by_line = measured.contexts_by_lineno(fname)
        out[rel] = {ln: set(ctxs) for ln, ctxs in by_line.items()}
    return out


def statement_lists(tree: ast.AST):
    """Every statement list of the tree (bodies, else/finally branches, handlers, match cases)."""
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                yield node, stmts


def header_span(stmt: ast.stmt) -> tuple[int, int]:
    """The lines a statement executes as itself: all of a simple statement; a compound statement's
    header, decorators included."""
    first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
    body = getattr(stmt, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        return first, max(stmt.lineno, body[0].lineno - 1)
    return first, stmt.end_lineno or stmt.lineno


class BaseFile:
    """A base version of a file: which statement a line belongs to, and whether it runs at import."""

    def __init__(self, text: str):
        self.tree = ast.parse(text)
        self.lines = text.splitlines()
        self.bodies: list[tuple[int, int]] = []   # function bodies' line spans (lambda: none)
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.bodies.append((node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno))

    def in_function_body(self, line: int) -> bool:
        return any(a <= line <= b for a, b in self.bodies)

    def statement_of(self, line: int) -> ast.stmt | None:
        """The innermost statement whose own lines (header_span) hold `line`; else (an `else:` or `finally:`
        line) the innermost statement holding it."""
        for span in (header_span, lambda s: (s.lineno, s.end_lineno or s.lineno)):
            best, width = None, 0
            for node in ast.walk(self.tree):
                if isinstance(node, ast.stmt):
                    a, b = span(node)
                    if a <= line <= b and (best is None or b - a <= width):
                        best, width = node, b - a
            if best is not None:
                return best
        return None

    def insertion_neighbours(self, before: int, indent: int) -> list[ast.stmt]:
        """The statements just before and after a line inserted before base line `before` (1-based; one past
        the end for an append) at `indent` columns: its block is the statement list at that indentation
        holding the position."""
        chosen = None
        for _, stmts in statement_lists(self.tree):
            if stmts[0].col_offset != indent:
                continue
            first, last = stmts[0].lineno, stmts[-1].end_lineno or stmts[-1].lineno
            inside = first <= before <= last
            if inside or before == last + 1 or (before < first and self._header_only_between(before, first)):
                if chosen is None or inside:
                    chosen = stmts
        if chosen is None:
            return []
        prev = [s for s in chosen if (s.end_lineno or s.lineno) < before]
        nxt = [s for s in chosen if s.lineno >= before]
        return ([prev[-1]] if prev else []) + ([nxt[0]] if nxt else [])

    def _header_only_between(self, a: int, b: int) -> bool:
        """Lines a..b-1 hold nothing but blanks and comments."""
        return all(not ln.strip() or ln.strip().startswith("#") for ln in self.lines[a - 1:b - 1])


def changed_base_lines(base: str, new: str) -> tuple[list[int], list[tuple[int, int]]]:
    """(modified or deleted base lines, inserted lines as (base line they precede, indentation))."""
    a, b = base.splitlines(), new.splitlines()
    changed, inserted = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            changed += range(i1 + 1, i2 + 1)
        elif tag == "insert":
            for j in range(j1, j2):
                line = b[j]
                if line.strip() and not line.strip().startswith("#"):
                    inserted.append((i1 + 1, len(line) - len(line.lstrip(" \t"))))
    return changed, inserted


def is_docstring_stmt(stmt: ast.stmt) -> bool:
    return mp.is_docstring(stmt)


@dataclass
class OracleAnswer:
    decision: str               # "run_all" or "selected"
    tests: set[str]
    lines: list[int]            # the base lines looked up
    note: str = ""


def oracle_select(path: str, base: str, new: str, contexts: dict[str, dict[int, set[str]]]) -> OracleAnswer:
    try:
        bf = BaseFile(base)
    except SyntaxError:
        return OracleAnswer("run_all", set(), [], "the base file does not parse")
    changed, inserted = changed_base_lines(base, new)
    stmts: list[ast.stmt] = []
    for line in changed:
        s = bf.statement_of(line)
        if s is not None:
            stmts.append(s)
    for before, indent in inserted:
        near = [s for s in bf.insertion_neighbours(before, indent) if not is_docstring_stmt(s)]
        if not near:
            return OracleAnswer("run_all", set(), [], f"no executable neighbour for a line inserted before line {before}")
        stmts += near
    lines = sorted({ln for s in stmts for ln in range(header_span(s)[0], header_span(s)[1] + 1)})
    by_line = contexts.get(path, {})
    tests: set[str] = set()
    for s in stmts:
        a, b = header_span(s)
        if not bf.in_function_body(a) and any(by_line.get(ln) for ln in range(a, b + 1)):
            return OracleAnswer("run_all", set(), lines, f"line {a} ran at import (not in a function body)")
    for ln in lines:
        for ctx in by_line.get(ln, ()):
            if not ctx.endswith("|run"):
                return OracleAnswer("run_all", set(), lines, f"line {ln} ran outside a test's call ({ctx or 'no test'})")
            tests.add(ctx[:-len("|run")])
    return OracleAnswer("selected", tests, lines)


# -------------------------------------------------------------------------------------------- impact


def impact_env(runner: mp.Runner, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in runner.env.items() if not k.startswith("IMPACT_")}
    env["IMPACT_CACHE"] = str(cache)
    return env


def run_impact(runner: mp.Runner, impact_bin: str, cache: Path, extra: list[str]) -> tuple[dict | None, float, str]:
    start = time.perf_counter()
    proc = subprocess.run([impact_bin, "--dry-run", "--format", "json",
                           "--pytest-command", json.dumps([PYTHON, "-m", "pytest"])] + extra,
                          cwd=runner.repo, env=impact_env(runner, cache), capture_output=True, text=True, timeout=900)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        return None, seconds, proc.stderr.strip()
    try:
        return json.loads(proc.stdout), seconds, proc.stderr.strip()
    except json.JSONDecodeError as e:
        return None, seconds, f"bad JSON from impact: {e}"


def build_index(runner: mp.Runner, impact_bin: str, cache: Path, pytest_args: list[str]) -> str:
    proc = subprocess.run([impact_bin, "--pytest-command", json.dumps([PYTHON, "-m", "pytest"]), "index", "--",
                           "-p", "no:cacheprovider"] + pytest_args,
                          cwd=runner.repo, env=impact_env(runner, cache), capture_output=True, text=True, timeout=3600)
    if not (cache / "coverage-index.sqlite").exists():
        sys.exit(f"precision: impact index wrote no index (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return "\n".join(line for line in proc.stderr.splitlines() if line.startswith("impact:"))


# --------------------------------------------------------------------------------------------- edits


@dataclass
class Selection:
    decision: str = ""
    reason: str | None = None
    tests: int = 0                 # baseline-passing tests held
    share: float = 0.0
    seconds: float = 0.0
    uncovered: list[str] = field(default_factory=list)   # broken tests not held
    misses: list[str] = field(default_factory=list)      # ... that fail alone too
    note: str = ""
    document: dict | None = None   # impact's JSON (static and index)


@dataclass
class EditResult:
    edit: str
    op: str
    desc: str
    path: str
    line: int
    diff: str = ""
    broken: list[str] = field(default_factory=list)
    session_only: list[str] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    oracle_lines: list[int] = field(default_factory=list)
    static: Selection = field(default_factory=Selection)
    index: Selection = field(default_factory=Selection)
    oracle: Selection = field(default_factory=Selection)
    suite_seconds: float = 0.0
    error: str | None = None


def impact_selection(doc: dict, seconds: float, passing: set[str]) -> Selection:
    decision, ids, _ = mp.selection_of(doc)
    held = mp.count_covered(decision, ids, passing)
    return Selection(decision, doc.get("reason"), held, held / len(passing), seconds, document=doc)


def holds(sel: Selection, test: str) -> bool:
    if sel.decision == "run_all":
        return True
    if sel.decision != "selected" or not sel.document:
        return False
    return mp.covers([s["node_id"] for s in sel.document.get("selected", [])], test)


def choose_edits(repo: Path, operators: list[str], per_op: int, seed: int, includes: list[str],
                 excludes: list[str]) -> tuple[list[mp.Mutant], dict[str, str], dict[str, int]]:
    files = mp.source_files(repo, includes, excludes)
    texts = {p: (repo / p).read_text(encoding="utf-8") for p in files}
    pools: dict[str, list[mp.Mutant]] = {}
    for op in operators:
        if op == "raise":
            pools[op] = [m for p in files for m in mp.function_mutants(p, texts[p])]
            continue
        op_files = mp.test_support_files(repo, includes, excludes, op) if op in ("fixture", "helper") else files
        for p in op_files:
            texts.setdefault(p, (repo / p).read_text(encoding="utf-8"))
        pools[op] = [m for p in op_files for m in mp.op_mutants(op, p, texts[p])]
    rng = random.Random(seed)
    chosen = []
    for op in operators:
        chosen += rng.sample(pools[op], min(per_op, len(pools[op])))
    chosen.sort(key=lambda m: (m.path, m.line, m.op))
    return chosen, texts, {op: len(pools[op]) for op in operators}


# ------------------------------------------------------------------------------------------- summary


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def summarize(results: list[EditResult], baseline: dict) -> dict:
    ok = [r for r in results if not r.error]
    out = {"suite tests (passing at baseline)": baseline["passing"],
           "baseline suite seconds": round(baseline["seconds"], 1),
           "edits": len(results), "edits with errors": len(results) - len(ok),
           "breaking edits": sum(1 for r in ok if r.broken)}
    for mode in MODES:
        shares = [getattr(r, mode).share for r in ok]
        out[f"misses {mode}"] = sum(len(getattr(r, mode).misses) for r in ok)
        out[f"edits with misses {mode}"] = sum(1 for r in ok if getattr(r, mode).misses)
        out[f"mean share {mode}"] = round(statistics.mean(shares), 4) if shares else None
        out[f"median share {mode}"] = round(statistics.median(shares), 4) if shares else None
        out[f"run_all {mode}"] = sum(1 for r in ok if getattr(r, mode).decision == "run_all")
    out["ratio static/oracle (means)"] = ratio(out["mean share static"], out["mean share oracle"])
    out["ratio index/oracle (means)"] = ratio(out["mean share index"], out["mean share oracle"])
    narrow = [r for r in ok if r.oracle.decision != "run_all"]
    out["edits the oracle narrows"] = len(narrow)
    for mode in MODES:
        shares = [getattr(r, mode).share for r in narrow]
        out[f"mean share {mode}, oracle narrows"] = round(statistics.mean(shares), 4) if shares else None
    out["session-only failures (not misses)"] = sum(len(r.session_only) for r in ok)
    out["unverified uncovered failures"] = sum(len(r.unverified) for r in ok)
    for mode in ("static", "index"):
        times = [getattr(r, mode).seconds * 1000 for r in ok]
        out[f"median impact ms {mode}"] = round(statistics.median(times), 1) if times else None
    return out


def print_results(results: list[EditResult], summary: dict, out=sys.stdout) -> None:
    head = f"{'#':>3} {'edit':<56} {'broken':>6} {'static':>7} {'index':>7} {'oracle':>7} {'miss s/i/o':>10}"
    print(head, file=out)
    print("-" * len(head), file=out)
    for i, r in enumerate(results, 1):
        if r.error:
            print(f"{i:>3} {mp.short(r.edit, 56):<56} error: {r.error}", file=out)
            continue
        misses = "/".join(str(len(getattr(r, m).misses)) for m in MODES)
        print(f"{i:>3} {mp.short(r.edit, 56):<56} {len(r.broken):>6} {r.static.share:>7.3f} {r.index.share:>7.3f} "
              f"{r.oracle.share:>7.3f} {misses:>10}", file=out)
    for r in results:
        for mode in MODES:
            for t in getattr(r, mode).misses:
                print(f"{'ORACLE MISS' if mode == 'oracle' else 'MISS ' + mode}  {r.edit}: {t}", file=out)
    print(file=out)
    for key, value in summary.items():
        print(f"{key:<36} {value}", file=out)


def print_table(paths: list[Path]) -> None:
    """The markdown table of docs/precision.md, one row per project's JSON."""
    print("| project | tests | edits | breaking | misses static / index / oracle | mean share static / index / oracle "
          "| median share static / index / oracle | static/oracle | index/oracle | oracle narrows: edits, mean share "
          "static / index / oracle |")
    print("| --- | ---: | ---: | ---: | --- | --- | --- | ---: | ---: | --- |")
    for p in paths:
        d = json.loads(p.read_text(encoding="utf-8"))
        results = [EditResult(**{k: v for k, v in e.items() if k not in MODES},
                              **{m: Selection(**e[m]) for m in MODES}) for e in d["edits"]]
        s = summarize(results, {"passing": d["baseline"]["passing"], "seconds": d["baseline"]["seconds"]})
        f = lambda key: " / ".join(f"{s[key.format(m)]:.2f}" if s[key.format(m)] is not None else "-"  # noqa: E731
                                   for m in MODES)
        print(f"| {Path(d['repo']).name} | {s['suite tests (passing at baseline)']} | {s['edits']} | "
              f"{s['breaking edits']} | {' / '.join(str(s[f'misses {m}']) for m in MODES)} | {f('mean share {}')} | "
              f"{f('median share {}')} | {s['ratio static/oracle (means)']} | {s['ratio index/oracle (means)']} | "
              f"{s['edits the oracle narrows']}: {f('mean share {}, oracle narrows')} |")


def print_chains(paths: list[Path], gap: float) -> None:
    """Why impact selected more than the oracle: per edit where its share exceeds the oracle's by `gap` or
    more, each changed file's effect and fallback, and the evidence chains' relations, most frequent first."""
    for p in paths:
        d = json.loads(p.read_text(encoding="utf-8"))
        print(f"== {Path(d['repo']).name}")
        for e in d["edits"]:
            if e.get("error"):
                continue
            for mode in ("static", "index"):
                sel = e[mode]
                if sel["share"] - e["oracle"]["share"] < gap:
                    continue
                doc = sel["document"] or {}
                print(f"-- {e['edit']} ({e['desc']}): {mode} {sel['share']:.3f}, oracle {e['oracle']['share']:.3f}")
                for cf in doc.get("changed_files", []):
                    print(f"   {cf.get('path')}: {cf.get('effect')} [fallback: {cf.get('fallback')}]")
                tally: dict[str, int] = {}
                for t in doc.get("selected", []):
                    hops = t.get("chain") or []
                    key = " > ".join(f"{h['relation']}({h.get('symbol') or h['path']})" for h in hops[-3:])
                    tally[key] = tally.get(key, 0) + 1
                for key, n in sorted(tally.items(), key=lambda kv: -kv[1])[:5]:
                    print(f"   {n:5d} ...{key}")


# ---------------------------------------------------------------------------------------------- main


def run_edit(m: mp.Mutant, original: str, runner: mp.Runner, impact_bin: str, index_cache: Path, workdir: Path,
             contexts: dict, passing: set[str], alone_cap: int) -> EditResult:
    new = m.apply(original)
    r = EditResult(m.label, m.op, m.desc, m.path, m.line,
                   diff="".join(difflib.unified_diff(original.splitlines(keepends=True), new.splitlines(keepends=True),
                                                     f"a/{m.path}", f"b/{m.path}")))
    cold = Path(tempfile.mkdtemp(prefix="cold-", dir=workdir))
    try:
        for mode, cache, extra in (("static", cold, ["--no-index"]), ("index", index_cache, [])):
            doc, seconds, err = run_impact(runner, impact_bin, cache, extra)
            if doc is None:
                r.error = f"impact ({mode}) failed: {err[:300]}"
                return r
            setattr(r, mode, impact_selection(doc, seconds, passing))
    finally:
        shutil.rmtree(cold, ignore_errors=True)
    ans = oracle_select(m.path, original, new, contexts)
    held = len(passing) if ans.decision == "run_all" else mp.count_covered("selected", sorted(ans.tests), passing)
    r.oracle = Selection(ans.decision, None, held, held / len(passing), note=ans.note,
                         document={"selected": [{"node_id": t} for t in sorted(ans.tests)]})
    r.oracle_lines = ans.lines
    run = runner.pytest([], whole_suite=True)
    r.suite_seconds = run.seconds
    if run.timed_out:
        r.error = "the suite timed out under the edit"
        return r
    r.broken = sorted(passing - run.passed())
    for mode in MODES:
        sel = getattr(r, mode)
        sel.uncovered = [t for t in r.broken if not holds(sel, t)]
    uncovered = sorted({t for mode in MODES for t in getattr(r, mode).uncovered})
    if uncovered:
        fail, ok, unknown = mp.check_alone(runner, uncovered, alone_cap)
        r.session_only, r.unverified = sorted(ok), sorted(unknown)
        for mode in MODES:
            sel = getattr(r, mode)
            sel.misses = sorted(set(sel.uncovered) & set(fail))
    return r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", type=Path, nargs="?", help="a git repository with a clean work tree")
    ap.add_argument("--table", type=Path, nargs="+", help="print the markdown table of these --json files and exit")
    ap.add_argument("--chains", type=Path, nargs="+",
                    help="print why impact selected more than the oracle (evidence chains) in these --json files")
    ap.add_argument("--gap", type=float, default=0.15, help="--chains: share above the oracle's to explain")
    ap.add_argument("--impact", default=str(Path(__file__).resolve().parents[2] / "build" / "src" / "impact"))
    ap.add_argument("--operators", default="all", help="comma-separated operators of mutate_project.py (default all)")
    ap.add_argument("--mutants", type=int, default=1, help="edits per operator (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--include", action="append", default=[], help="glob of source files to edit (repeatable)")
    ap.add_argument("--exclude", action="append", default=[], help="glob of files never to edit (repeatable)")
    ap.add_argument("--pytest-arg", action="append", default=[], help="an extra pytest argument for every run")
    ap.add_argument("--env", action="append", default=[], help="KEY=VALUE for pytest's environment (repeatable)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per pytest run (default: 1200 for the baseline, then max(120, 5 x baseline))")
    ap.add_argument("--alone-cap", type=int, default=25, help="uncovered broken tests re-run one by one per edit")
    ap.add_argument("--json", type=Path, help="write the full results here")
    args = ap.parse_args()
    if args.table or args.chains:
        print_table(args.table) if args.table else print_chains(args.chains, args.gap)
        return 0
    if args.repo is None:
        ap.error("the repository is required")
    # The oracle reads Python lines: the edits of files that are not Python are mutate_project.py's alone.
    python_operators = [o for o in mp.OPERATORS if o not in mp.TEXT_OPERATORS]
    operators = python_operators if args.operators.strip() == "all" else \
        [o.strip() for o in args.operators.split(",") if o.strip()]
    if not operators or any(o not in python_operators for o in operators):
        ap.error(f"operators: choose among {', '.join(python_operators)}")
    repo = args.repo.resolve()
    if not (repo / ".git").exists():
        ap.error(f"{repo} is not a git work tree")
    if mp.git_dirty(repo):
        ap.error(f"{repo} has changes (impact compares with HEAD); commit or stash them")
    impact_bin = str(Path(args.impact).resolve())
    if not os.access(impact_bin, os.X_OK):
        ap.error(f"impact binary not found: {impact_bin}")
    env = dict(item.partition("=")[::2] for item in args.env)
    workdir = Path(tempfile.mkdtemp(prefix="impact-precision-"))
    atexit.register(shutil.rmtree, workdir, True)  # also on a signal before the edits start
    current: dict[str, str] = {}  # a file currently edited -> its base text

    def restore(*_):
        for path, text in current.items():
            (repo / path).write_text(text, encoding="utf-8")
            mp.drop_bytecode(repo / path)
        current.clear()

    def on_signal(signum, frame):
        restore()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    runner = mp.Runner(repo, workdir, args.pytest_arg, [], env, args.timeout or 1200)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731

    log(f"baseline: the whole suite of {repo}")
    base = runner.pytest([], whole_suite=True)
    if base.timed_out:
        sys.exit("precision: the baseline suite timed out")
    if args.timeout is None:
        runner.timeout = max(120.0, 5 * base.seconds)
    passing = base.passed()
    if not passing:
        sys.exit(f"precision: no test passes at baseline:\n{base.output_tail}")
    baseline = {"passing": len(passing), "seconds": base.seconds,
                "failing_ids": sorted(n for n, o in base.results.items() if o in ("failed", "error")),
                "collect_errors": base.collect_errors}
    log(f"baseline: {len(passing)} passing, {len(baseline['failing_ids'])} failing, {base.seconds:.1f}s")
    log("oracle: the suite under coverage with per-test contexts")
    contexts = oracle_contexts(runner, workdir)
    index_cache = workdir / "index-cache"
    index_cache.mkdir()
    log("index: impact index")
    index_log = build_index(runner, impact_bin, index_cache, args.pytest_arg)
    log(index_log)
    if mp.git_dirty(repo):
        sys.exit(f"precision: the work tree changed while indexing: {mp.git_dirty(repo)[:5]}")

    excludes = args.exclude + mp.DEFAULT_EXCLUDES
    chosen, texts, pool_sizes = choose_edits(repo, operators, args.mutants, args.seed, args.include, excludes)
    log(f"edits: {len(chosen)} (" + ", ".join(f"{op} {sum(1 for m in chosen if m.op == op)}/{pool_sizes[op]}"
                                              for op in operators) + ")")
    results: list[EditResult] = []
    try:
        for i, m in enumerate(chosen, 1):
            original = texts[m.path]
            current[m.path] = original
            (repo / m.path).write_text(m.apply(original), encoding="utf-8")
            mp.drop_bytecode(repo / m.path)
            try:
                r = run_edit(m, original, runner, impact_bin, index_cache, workdir, contexts, passing, args.alone_cap)
            finally:
                restore()
            results.append(r)
            if r.error:
                log(f"[{i}/{len(chosen)}] {m.label}: error: {r.error}")
                continue
            log(f"[{i}/{len(chosen)}] {m.label} ({m.desc}): broken={len(r.broken)} share static={r.static.share:.3f} "
                f"index={r.index.share:.3f} oracle={r.oracle.share:.3f} misses="
                + "/".join(str(len(getattr(r, x).misses)) for x in MODES) + f" suite={r.suite_seconds:.1f}s")
    finally:
        restore()
        if mp.git_dirty(repo):
            log("warning: the work tree is not clean after the run")

    summary = summarize(results, baseline)
    print_results(results, summary)
    if args.json:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
        doc = {"repo": str(repo), "commit": commit, "argv": sys.argv, "impact": impact_bin, "index": index_log,
               "baseline": baseline, "summary": summary, "edits": [asdict(r) for r in results]}
        args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 1 if any(summary[f"misses {m}"] for m in MODES) else 0


if __name__ == "__main__":
    sys.exit(main())
