#!/usr/bin/env python3
"""Mutation benchmark of impact on a real project: does impact's selection hold every test a change
breaks, and how much does it select?

    /usr/bin/python3 tests/bench/mutate_project.py /tmp/proj/toolz --impact build/src/impact \\
        --mutants 40 --seed 1 --json /tmp/toolz.json

For a git repository with a clean work tree it

1. runs the project's whole suite once (`python -m pytest -p no:cacheprovider -q -rfE`, plus
   `--pytest-arg`s) and records every node id's outcome; tests failing at baseline are ignored;
2. picks `--mutants` mutants, a seeded random sample among the functions and methods of the
   project's non-test modules (Python's ast): a mutant inserts `raise RuntimeError("impact mutant")`
   as the first statement of the body, after the docstring. `--module-mutants` adds one module-level
   mutant per sampled file (the raise as the module's first statement). `--covered-only` samples only
   functions whose first statement runs in the baseline suite (measured with coverage);
3. per mutant: writes it, runs `impact --dry-run --format json` (timed), runs the whole suite once
   (with `--continue-on-collection-errors`), and restores the file;
4. a test breaks when it passed at baseline and does not pass under the mutant (failed, errored, or no
   longer collected). A broken test is covered when impact's decision is `run_all`, or a selected
   node id is the test itself or a prefix of it (a whole file, a class, a function without its
   parametrization). An uncovered broken test is re-run alone under the mutant: if it still fails it
   is a **miss**; if it passes alone it broke only because other test modules ran in the same
   session, and is reported apart (`session_only`);
5. prints a table and a summary (mutants, mutants with misses, misses, mean/median selected fraction,
   median impact time, and the same per operator); `--json FILE` writes everything, including impact's
   own document and the edit as a diff for every mutant with misses.

`--operators` picks other single edits than the raise (default `raise`, today's behaviour; `all` for every
one; `--list-operators` describes them), `--mutants` mutants per operator: flip a comparison or boolean
operator (`compare`), swap an arithmetic operator (`arith`), change a constant in a function (`const`),
a default value (`default`), a class-level attribute (`classattr`) or a module-level assignment
(`module`); the raise in a special method (`dunder`), a property (`property`), a nested function or a
lambda's body (`nested`); drop a decorator (`decorator`), `return x` -> `return None` (`return`), a
statement -> `pass` (`delete`), a new required parameter (`signature`); the raise in a pytest fixture or
conftest hook (`fixture`) or in a test-support function (`helper`: conftest.py helpers, non-test modules
under test folders). Every edit keeps the file valid Python (checked with `ast.parse`) and changes its
syntax tree. With `--covered-only` the edited line must run in the baseline suite.

Outcomes are read by a small pytest plugin written to a temporary folder (`-p`), not from pytest's
text output, so node ids with spaces or brackets are exact. Byte code of the mutated file is removed
before and after each run so that no stale `.pyc` is ever used.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import fnmatch
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, asdict
from pathlib import Path

PYTHON = "/usr/bin/python3"
MARKER = 'raise RuntimeError("impact mutant")'

PLUGIN = r'''
"""Records every node id's outcome for mutate_project.py."""
import json
import os

_OUT = os.environ["IMPACT_MUTATE_REPORT"]
_RESULTS = {}
_COLLECT_ERRORS = []


def pytest_runtest_logreport(report):
    previous = _RESULTS.get(report.nodeid)
    if report.failed:
        _RESULTS[report.nodeid] = "failed" if report.when == "call" else "error"
    elif report.skipped and previous is None:
        _RESULTS[report.nodeid] = "skipped"
    elif report.passed and report.when == "call" and previous is None:
        _RESULTS[report.nodeid] = "passed"


def pytest_collectreport(report):
    if report.failed:
        _COLLECT_ERRORS.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller writes
    with open(_OUT, "w", encoding="utf-8") as f:
        json.dump({"results": _RESULTS, "collect_errors": _COLLECT_ERRORS, "exitstatus": int(exitstatus)}, f)
'''

TEST_FILE_GLOBS = ["test_*.py", "*_test.py", "conftest.py", "tests.py"]
DEFAULT_EXCLUDES = ["test/*", "tests/*", "testing/*", "*/test/*", "*/tests/*", "*/testing/*", "docs/*", "doc/*",
                    "examples/*", "example/*", "bench/*", "benchmark/*", "benchmarks/*", "scripts/*", "tools/*",
                    "setup.py", "noxfile.py", "fuzzer/*", "profiler/*", ".*"]


# ---------------------------------------------------------------------------------------------- runs


@dataclass
class SuiteRun:
    results: dict[str, str]
    collect_errors: list[str]
    exitstatus: int | None
    seconds: float
    timed_out: bool = False
    output_tail: str = ""

    def passed(self) -> set[str]:
        return {n for n, o in self.results.items() if o == "passed"}


class Runner:
    def __init__(self, repo: Path, workdir: Path, pytest_args: list[str], suite_args: list[str], env: dict[str, str],
                 timeout: float):
        self.repo = repo
        self.workdir = workdir
        self.pytest_args = pytest_args
        self.suite_args = suite_args
        self.timeout = timeout
        (workdir / "impact_mutate_plugin.py").write_text(PLUGIN, encoding="utf-8")
        self.env = dict(os.environ)
        for key in list(self.env):
            if key.startswith(("PYTEST_", "IMPACT_", "COV_CORE_")) or key in ("CI", "GITHUB_ACTIONS", "GITLAB_CI"):
                del self.env[key]
        self.env.update(env)
        path = [str(workdir)] + ([self.env["PYTHONPATH"]] if self.env.get("PYTHONPATH") else [])
        self.env["PYTHONPATH"] = os.pathsep.join(path)
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.counter = 0

    def pytest(self, targets: list[str], whole_suite: bool, prefix: list[str] | None = None) -> SuiteRun:
        self.counter += 1
        report = self.workdir / f"report-{self.counter}.json"
        env = dict(self.env, IMPACT_MUTATE_REPORT=str(report))
        argv = (prefix or [PYTHON]) + ["-m", "pytest", "-p", "no:cacheprovider", "-p", "impact_mutate_plugin",
                                       "-q", "-rfE", "--continue-on-collection-errors"] + self.pytest_args
        if whole_suite:
            argv += self.suite_args
        argv += ["--"] + targets if targets else []
        start = time.perf_counter()
        try:
            proc = subprocess.run(argv, cwd=self.repo, env=env, capture_output=True, text=True, timeout=self.timeout,
                                  start_new_session=True)
            out, code, timed_out = proc.stdout + proc.stderr, proc.returncode, False
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            code, timed_out = None, True
        seconds = time.perf_counter() - start
        data = {"results": {}, "collect_errors": [], "exitstatus": code}
        if report.exists():
            data = json.loads(report.read_text(encoding="utf-8"))
            report.unlink()
        return SuiteRun(data["results"], data["collect_errors"], data.get("exitstatus", code), seconds, timed_out,
                        "\n".join(out.splitlines()[-15:]))

    def impact(self, impact_bin: str, impact_args: list[str]) -> tuple[dict | None, float, str]:
        env = {k: v for k, v in self.env.items() if not k.startswith("IMPACT_")}
        start = time.perf_counter()
        proc = subprocess.run([impact_bin, "--dry-run", "--format", "json"] + impact_args, cwd=self.repo, env=env,
                              capture_output=True, text=True, timeout=600)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            return None, seconds, proc.stderr.strip()
        try:
            return json.loads(proc.stdout), seconds, proc.stderr.strip()
        except json.JSONDecodeError as e:
            return None, seconds, f"bad JSON from impact: {e}"


# ------------------------------------------------------------------------------------------- mutants


@dataclass
class Mutant:
    path: str            # repository-relative
    qualname: str        # "<module>" for a module-level mutant
    line: int            # 1-based line the raise is inserted before (other operators: the edited line)
    indent: str
    probe_line: int = 0  # the body's first statement (0: none), for --covered-only
    op: str = "raise"    # the operator (see OPERATORS); "raise" inserts MARKER before `line`
    start: int = -1      # other operators: replace text[start:end] (character offsets) by `new`
    end: int = -1
    new: str = ""
    desc: str = ""       # what the edit does, for people

    @property
    def label(self) -> str:
        if self.op == "raise":
            return f"{self.path}:{self.qualname}"
        return f"{self.path}:{self.qualname}@{self.op}:{self.line}"

    def apply(self, text: str) -> str:
        if self.start >= 0:
            return text[:self.start] + self.new + text[self.end:]
        lines = text.splitlines(keepends=True)
        newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        lines.insert(self.line - 1, f"{self.indent}{MARKER}{newline}")
        return "".join(lines)


def leading_ws(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def function_mutants(path: str, text: str) -> list[Mutant]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    lines = text.splitlines()
    out: list[Mutant] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{prefix}{child.name}"
                m = body_mutant(path, child, lines, qual)
                if m:
                    out.append(m)
                visit(child, qual + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif not isinstance(child, ast.Lambda):
                visit(child, prefix)

    visit(tree, "")
    return out


def body_mutant(path: str, fn: ast.AST, lines: list[str], qual: str) -> Mutant | None:
    body = fn.body
    # The body must start on a line of its own.
    if body[0].lineno == fn.lineno or (fn.decorator_list and body[0].lineno <= fn.lineno):
        return None
    if is_docstring(body[0]):
        if len(body) > 1:
            first = body[1]
            if first.lineno == body[0].end_lineno:
                return None  # `"""doc"""; x = 1`
            return Mutant(path, qual, first.lineno, leading_ws(lines[first.lineno - 1]), first.lineno)
        # Only a docstring: insert after it, at its indentation (nothing to probe for coverage).
        return Mutant(path, qual, body[0].end_lineno + 1, leading_ws(lines[body[0].lineno - 1]), 0)
    first = body[0]
    return Mutant(path, qual, first.lineno, leading_ws(lines[first.lineno - 1]), first.lineno)


def module_mutant(path: str, text: str) -> Mutant | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    line = 1
    for stmt in tree.body:
        if is_docstring(stmt) and stmt is tree.body[0]:
            line = stmt.end_lineno + 1
            continue
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            line = stmt.end_lineno + 1
            continue
        break
    return Mutant(path, "<module>", line, "", 0)


# ------------------------------------------------------------------------------- further operators
#
# Each operator below makes realistic single edits of one file: it returns Mutants that replace one span
# of the text, and every mutant is kept only when the edited file still parses and its syntax tree differs
# from the original's (see `valid_mutants`). `raise` (the default) is the original operator above.

OPERATORS = {
    "raise": "insert `raise RuntimeError(...)` as a function's first statement (the original operator)",
    "const": "change a numeric, string, bytes or boolean constant inside a function body",
    "compare": "flip a comparison (== !=, < >=, is / is not, in / not in), a boolean operator (and/or) or drop a `not`"
               " inside a function",
    "arith": "swap an arithmetic operator (+ -, * //, / *, % //) inside a function",
    "default": "change a parameter's default value (a signature-line edit)",
    "classattr": "change the value of a class-level attribute / dataclass field default (class body, not a method)",
    "module": "change the value of a module-level assignment (constants, tables, __all__, aliases)",
    "dunder": "insert the raise into a special method (__eq__, __hash__, __iter__, __init__, __getattr__, ...)",
    "property": "insert the raise into a property / cached_property getter or setter",
    "nested": "insert the raise into a nested function, or replace a lambda's body by (1 / 0)",
    "decorator": "remove one decorator line from a function, method or class",
    "return": "change `return <expr>` into `return None` inside a function",
    "delete": "replace one simple statement of a function body by `pass`",
    "signature": "add a required positional parameter to a function or method",
    "fixture": "insert the raise into a pytest fixture (conftest.py or test module) or a conftest hook",
    "helper": "insert the raise into a function of a test-support module (conftest.py helpers, tests/**/helpers)",
    "data": "change one character of a file that is not Python and that code or tests may read (JSON, text, "
            "templates, SQL, YAML, CSV, ... under the package or the tests; documentation and configuration excluded)",
    "pin": "bump one pinned version (==X.Y) in a requirements file (requirements*.txt, requirements/*.txt)",
}


class Source:
    """One file's text with conversions from ast positions (UTF-8 byte columns) to character offsets."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def segment(self, node: ast.AST) -> str:
        a, b = self.span(node)
        return self.text[a:b]


def mutate_constant(value) -> str | None:
    """Source text of a different constant of the same kind, or None."""
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, int):
        return repr(value + 1)
    if isinstance(value, float):
        return repr(value * 2 + 1)
    if isinstance(value, str):
        return repr(value + "_mut") if value else repr("mut")
    if isinstance(value, bytes):
        return repr(value + b"_mut") if value else repr(b"mut")
    return None


def mutate_value(src: Source, node: ast.expr) -> tuple[str, str] | None:
    """(new text, description) for an assigned or default value."""
    if isinstance(node, ast.Constant):
        if node.value is None:
            return "0", "None -> 0"
        new = mutate_constant(node.value)
        return (new, f"{short(repr(node.value), 30)} -> {short(new, 30)}") if new is not None else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
        return repr(-node.operand.value + 1), "negative number + 1"
    return "None", f"{short(src.segment(node).replace(chr(10), ' '), 30)} -> None"


def fn_context(stack: list[ast.AST]) -> bool:
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) for n in stack)


def qualname_of(stack: list[ast.AST]) -> str:
    names = [n.name for n in stack if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return ".".join(names) or "<module>"


def walk_with_stack(tree: ast.AST):
    """Yields (node, stack of enclosing nodes) for every node, skipping annotations and f-strings."""
    def rec(node, stack):
        yield node, stack
        skip = set()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip.add(id(node.returns))
            for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + \
                    [x for x in (node.args.vararg, node.args.kwarg) if x]:
                skip.add(id(a.annotation))
        if isinstance(node, ast.AnnAssign):
            skip.add(id(node.annotation))
        if isinstance(node, ast.JoinedStr):
            return
        for child in ast.iter_child_nodes(node):
            if id(child) in skip or child is None:
                continue
            yield from rec(child, stack + [node])
    yield from rec(tree, [])


def body_stmts(fn) -> list[ast.stmt]:
    return fn.body[1:] if fn.body and is_docstring(fn.body[0]) else fn.body


def is_fixture_decorator(d: ast.expr) -> bool:
    target = d.func if isinstance(d, ast.Call) else d
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("fixture", "yield_fixture")


def decorator_names(fn) -> list[str]:
    out = []
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        out.append(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return out


# Operators that edit files that are not Python; precision.py leaves them out of "all" (its oracle reads
# Python lines only).
TEXT_OPERATORS = ("data", "pin")
DATA_EXTENSIONS = (".json", ".txt", ".html", ".htm", ".xml", ".yaml", ".yml", ".csv", ".tsv", ".sql", ".j2",
                   ".jinja", ".jinja2", ".tmpl", ".tpl", ".ini", ".cfg", ".md", ".rst", ".toml", ".svg", ".css",
                   ".js", ".po", ".diff", ".patch", ".in", ".out", ".expected", ".golden")
NOT_DATA_PREFIXES = ("docs/", "doc/", "documentation/", ".github/", ".gitlab/", "changelog.d/", "changes/",
                     "newsfragments/", "news/", "requirements/", ".circleci/")


def text_files(repo: Path, includes: list[str], excludes: list[str], op: str) -> list[str]:
    """Files the `data` operator edits (non-Python files below the root, outside documentation and CI folders)
    and the `pin` operator edits (requirements files)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True, check=True).stdout
    files = []
    for path in sorted(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p):
        name = path.rsplit("/", 1)[-1]
        if op == "pin":
            if not (fnmatch.fnmatch(name, "requirements*.txt") or path.startswith("requirements/") and
                    name.endswith(".txt")):
                continue
        else:
            if "/" not in path or path.startswith(NOT_DATA_PREFIXES) or not name.lower().endswith(DATA_EXTENSIONS):
                continue
            if name in ("setup.cfg", "tox.ini", "pyproject.toml", "MANIFEST.in") or name.startswith("requirements"):
                continue
        if includes and not any(fnmatch.fnmatch(path, g) for g in includes):
            continue
        if any(fnmatch.fnmatch(path, g) for g in excludes):
            continue
        full = repo / path
        if full.is_symlink() or not full.is_file() or full.stat().st_size > 1 << 20:
            continue
        try:
            full.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        files.append(path)
    return files


def text_mutants(op: str, path: str, text: str) -> list[Mutant]:
    """`data`: up to three lines of the file (spread over it, lines with a digit first), each with its first
    digit moved by one, else an `X` in its middle, so that a sample picks files, not lines of the longest
    file. `pin`: per `name==X.Y` line, the last number of the version moved by one."""
    out: list[Mutant] = []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        body = line.rstrip("\r\n")
        start = offset
        offset += len(line)
        if not body.strip():
            continue
        if op == "pin":
            m = re.match(r"^\s*([A-Za-z0-9_.\-\[\],]+)\s*==\s*([0-9][0-9.]*)", body)
            if not m:
                continue
            version = m.group(2)
            digits = re.search(r"(\d+)(?!.*\d)", version)
            at = start + m.start(2) + digits.start(1)
            new = str(int(digits.group(1)) + 1)
            out.append(Mutant(path, "<pins>", number, "", number, op=op, start=at, end=at + len(digits.group(1)),
                              new=new, desc=f"{m.group(1)}: {version} -> a newer pin"))
            continue
        digit = re.search(r"\d", body)
        if digit:
            at = start + digit.start()
            new = str((int(body[digit.start()]) + 1) % 10)
            out.append(Mutant(path, "<data>", number, "", number, op=op, start=at, end=at + 1, new=new,
                              desc=f"line {number}: a digit changed"))
        else:
            at = start + len(body) // 2
            out.append(Mutant(path, "<data>", number, "", number, op=op, start=at, end=at, new="X",
                              desc=f"line {number}: an X inserted"))
    if op == "data" and len(out) > 3:
        digits = [m for m in out if m.new != "X"]
        pool = digits if len(digits) >= 3 else out
        out = [pool[0], pool[len(pool) // 2], pool[-1]]
    return out


def op_mutants(op: str, path: str, text: str) -> list[Mutant]:
    if op in TEXT_OPERATORS:
        return text_mutants(op, path, text)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    src = Source(text)
    lines = text.splitlines()
    out: list[Mutant] = []

    def edit(node_or_span, new: str, stack, desc: str, line: int | None = None):
        a, b = node_or_span if isinstance(node_or_span, tuple) else src.span(node_or_span)
        ln = line or text.count("\n", 0, a) + 1
        out.append(Mutant(path, qualname_of(stack), ln, "", ln, op=op, start=a, end=b, new=new, desc=desc))

    def raise_into(fn, stack):
        m = body_mutant(path, fn, lines, qualname_of(stack + [fn]))
        if m:
            m.op = op
            m.desc = f"raise at the top of {fn.name}"
            out.append(m)

    is_test_file = any(fnmatch.fnmatch(path.rsplit("/", 1)[-1], g) for g in TEST_FILE_GLOBS)
    for node, stack in walk_with_stack(tree):
        infn = fn_context(stack)
        parent = stack[-1] if stack else None
        if op == "const" and infn and isinstance(node, ast.Constant) and not (
                isinstance(parent, ast.Expr) and is_docstring(parent)):
            if node.value is None or node.value is Ellipsis:
                continue
            new = mutate_constant(node.value)
            if new is not None:
                edit(node, new, stack, f"{short(repr(node.value), 30)} -> {short(new, 30)}")
        elif op == "compare" and infn and isinstance(node, ast.Compare):
            flips = {ast.Eq: ("==", "!="), ast.NotEq: ("!=", "=="), ast.Lt: ("<", ">="), ast.GtE: (">=", "<"),
                     ast.Gt: (">", "<="), ast.LtE: ("<=", ">")}
            first = node.ops[0]
            a = src.offset(node.left.end_lineno, node.left.end_col_offset)
            b = src.offset(node.comparators[0].lineno, node.comparators[0].col_offset)
            seg = text[a:b]
            if type(first) in flips:
                old_tok, new_tok = flips[type(first)]
                i = seg.find(old_tok)
                if i >= 0:
                    edit((a + i, a + i + len(old_tok)), new_tok, stack, f"{old_tok} -> {new_tok}")
            elif isinstance(first, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                pat = {ast.Is: (r"\bis\b", "is not"), ast.IsNot: (r"\bis\s+not\b", "is"),
                       ast.In: (r"\bin\b", "not in"), ast.NotIn: (r"\bnot\s+in\b", "in")}[type(first)]
                mm = re.search(pat[0], seg)
                if mm:
                    edit((a + mm.start(), a + mm.end()), pat[1], stack, f"{mm.group(0)} -> {pat[1]}")
        elif op == "compare" and infn and isinstance(node, ast.BoolOp):
            a = src.offset(node.values[0].end_lineno, node.values[0].end_col_offset)
            b = src.offset(node.values[1].lineno, node.values[1].col_offset)
            old_tok = "and" if isinstance(node.op, ast.And) else "or"
            mm = re.search(rf"\b{old_tok}\b", text[a:b])
            if mm:
                new_tok = "or" if old_tok == "and" else "and"
                edit((a + mm.start(), a + mm.end()), new_tok, stack, f"{old_tok} -> {new_tok}")
        elif op == "compare" and infn and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            a = src.offset(node.lineno, node.col_offset)
            b = src.offset(node.operand.lineno, node.operand.col_offset)
            if text[a:b].strip() == "not":
                edit((a, b), "", stack, "drop `not`")
        elif op == "arith" and infn and isinstance(node, (ast.BinOp, ast.AugAssign)):
            swaps = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "//"), ast.FloorDiv: ("//", "*"),
                     ast.Div: ("/", "*"), ast.Mod: ("%", "//")}
            if type(node.op) not in swaps:
                continue
            left, right = (node.left, node.right) if isinstance(node, ast.BinOp) else (node.target, node.value)
            a = src.offset(left.end_lineno, left.end_col_offset)
            b = src.offset(right.lineno, right.col_offset)
            old_tok, new_tok = swaps[type(node.op)]
            seg = text[a:b]
            i = seg.find(old_tok)
            if i >= 0 and not (old_tok == "/" and seg[i:i + 2] == "//"):
                edit((a + i, a + i + len(old_tok)), new_tok, stack, f"{old_tok} -> {new_tok}")
        elif op == "default" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for d in node.args.defaults + [k for k in node.args.kw_defaults if k is not None]:
                mv = mutate_value(src, d)
                if mv:
                    name = getattr(node, "name", "<lambda>")
                    edit(d, mv[0], stack + ([node] if not isinstance(node, ast.Lambda) else []),
                         f"default of {name}: {mv[1]}")
        elif op == "classattr" and isinstance(parent, ast.ClassDef) and isinstance(node, (ast.Assign, ast.AnnAssign)) \
                and node.value is not None:
            mv = mutate_value(src, node.value)
            if mv:
                target = src.segment(node.targets[0] if isinstance(node, ast.Assign) else node.target)
                edit(node.value, mv[0], stack, f"{parent.name}.{target}: {mv[1]}")
        elif op == "module" and isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and \
                not infn and not any(isinstance(n, ast.ClassDef) for n in stack):
            mv = mutate_value(src, node.value)
            if mv:
                target = src.segment(node.targets[0] if isinstance(node, ast.Assign) else node.target)
                edit(node.value, mv[0], stack, f"module {short(target, 30)}: {mv[1]}")
        elif op == "dunder" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                isinstance(parent, ast.ClassDef) and node.name.startswith("__") and node.name.endswith("__"):
            raise_into(node, stack)
        elif op == "dunder" and isinstance(node, ast.FunctionDef) and parent is tree and \
                node.name in ("__getattr__", "__dir__"):
            raise_into(node, stack)
        elif op == "property" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                isinstance(parent, ast.ClassDef) and any(
                    n in ("property", "cached_property", "setter", "getter", "deleter", "cachedproperty",
                          "lazy_property", "classproperty") for n in decorator_names(node)):
            raise_into(node, stack)
        elif op == "nested" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and infn:
            raise_into(node, stack)
        elif op == "nested" and isinstance(node, ast.Lambda):
            edit(node.body, "(1 / 0)", stack, "lambda body -> (1 / 0)")
        elif op == "decorator" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in node.decorator_list:
                first = lines[d.lineno - 1]
                if not first.lstrip().startswith("@"):
                    continue
                last = lines[d.end_lineno - 1]
                if src.offset(d.end_lineno, d.end_col_offset) - src.starts[d.end_lineno - 1] != len(last.rstrip()):
                    continue  # something after the decorator on its last line
                a, b = src.starts[d.lineno - 1], src.starts[d.end_lineno]
                edit((a, b), "", stack + [node], f"drop @{short(src.segment(d), 40)}", line=d.lineno)
        elif op == "return" and infn and isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            edit(node.value, "None", stack, f"return {short(src.segment(node.value).replace(chr(10), ' '), 30)}"
                                            " -> return None")
        elif op == "delete" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for st in body_stmts(node):
                if st.lineno != st.end_lineno or not isinstance(st, (ast.Expr, ast.Assign, ast.AugAssign,
                                                                      ast.AnnAssign, ast.Raise, ast.Assert)):
                    continue
                if isinstance(st, ast.Expr) and not isinstance(st.value, (ast.Call, ast.Await, ast.Yield)):
                    continue
                a, b = src.span(st)
                if text[b:b + 1] not in ("\n", "\r", "") or text[src.starts[st.lineno - 1]:a].strip():
                    continue  # `a; b` on one line
                edit((a, b), "pass", stack + [node], f"delete `{short(src.segment(st), 40)}`")
        elif op == "signature" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            if args.posonlyargs:
                continue
            in_class = isinstance(parent, ast.ClassDef)
            static = "staticmethod" in decorator_names(node)
            skip_first = in_class and not static and args.args and args.args[0].arg in ("self", "cls", "mcs", "klass")
            if in_class and not static and not skip_first:
                continue
            name_end = src.offset(node.lineno, node.col_offset)
            paren = text.find("(", name_end)
            if paren < 0:
                continue
            if skip_first:
                first = args.args[0]
                at = src.offset(first.end_lineno, first.end_col_offset)
                if first.annotation is not None:
                    at = src.offset(first.annotation.end_lineno, first.annotation.end_col_offset)
                edit((at, at), ", _impact_extra", stack + [node], f"add a required parameter to {node.name}",
                     line=node.lineno)
            else:
                empty = not (args.args or args.vararg or args.kwonlyargs or args.kwarg)
                edit((paren + 1, paren + 1), "_impact_extra" if empty else "_impact_extra, ", stack + [node],
                     f"add a required parameter to {node.name}", line=node.lineno)
        elif op == "fixture" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not infn and (
                any(is_fixture_decorator(d) for d in node.decorator_list) or
                (path.endswith("conftest.py") and node.name.startswith("pytest_"))):
            raise_into(node, stack)
        elif op == "helper" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not infn and \
                not any(is_fixture_decorator(d) for d in node.decorator_list) and not node.name.startswith("pytest_") \
                and (path.endswith("conftest.py") or not is_test_file):
            raise_into(node, stack)
    return valid_mutants(out, text, tree)


def valid_mutants(mutants: list[Mutant], text: str, tree: ast.AST) -> list[Mutant]:
    """Keeps the mutants whose edited file parses and means something else."""
    base = ast.dump(tree)
    out, seen = [], set()
    for m in mutants:
        new_text = m.apply(text)
        try:
            new_tree = ast.parse(new_text)
        except (SyntaxError, ValueError):
            continue
        if ast.dump(new_tree) == base or new_text in seen:
            continue
        seen.add(new_text)
        out.append(m)
    return out


def test_support_files(repo: Path, includes: list[str], excludes: list[str], op: str) -> list[str]:
    """Files the `fixture` and `helper` operators edit: conftest.py files and test modules (fixture), conftest.py
    files and non-test modules inside test folders (helper)."""
    files = []
    for path in tracked_python_files(repo):
        name = path.rsplit("/", 1)[-1]
        in_tests = any(fnmatch.fnmatch(path, g) for g in ("test/*", "tests/*", "testing/*", "*/test/*", "*/tests/*",
                                                           "*/testing/*"))
        is_test = any(fnmatch.fnmatch(name, g) for g in TEST_FILE_GLOBS)
        if op == "fixture" and not (name == "conftest.py" or is_test):
            continue
        if op == "helper" and not (name == "conftest.py" or (in_tests and not is_test)):
            continue
        if includes and not any(fnmatch.fnmatch(path, g) for g in includes):
            continue
        if any(fnmatch.fnmatch(path, g) for g in excludes) and not in_tests and name != "conftest.py":
            continue
        if (repo / path).is_symlink():
            continue
        files.append(path)
    return files


def tracked_python_files(repo: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--", "*.py"], cwd=repo, capture_output=True, check=True).stdout
    return sorted(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p)


def source_files(repo: Path, includes: list[str], excludes: list[str]) -> list[str]:
    files = []
    for path in tracked_python_files(repo):
        name = path.rsplit("/", 1)[-1]
        if any(fnmatch.fnmatch(name, g) for g in TEST_FILE_GLOBS):
            continue
        if includes and not any(fnmatch.fnmatch(path, g) for g in includes):
            continue
        if any(fnmatch.fnmatch(path, g) for g in excludes):
            continue
        if (repo / path).is_symlink():
            continue
        files.append(path)
    return files


def covered_lines(runner: Runner, files: list[str], workdir: Path) -> dict[str, set[int]]:
    """Lines each file runs during the baseline suite, from coverage.py (the project's own coverage
    configuration is ignored)."""
    rc = workdir / "coveragerc"
    rc.write_text("[run]\nbranch = False\n", encoding="utf-8")
    data = workdir / "coverage.data"
    run = runner.pytest([], whole_suite=False, prefix=[PYTHON, "-m", "coverage", "run", f"--rcfile={rc}",
                                                       f"--data-file={data}", f"--source={runner.repo}"])
    if run.timed_out:
        sys.exit("mutate_project: the coverage run timed out")
    import coverage  # Debian's python3-coverage

    cov = coverage.Coverage(data_file=str(data), config_file=str(rc))
    cov.load()
    measured = cov.get_data()
    out = {}
    for path in files:
        lines = measured.lines(str((runner.repo / path).resolve()))
        out[path] = set(lines or [])
    return out


# ----------------------------------------------------------------------------------------- selection


def covers(selected: list[str], node_id: str) -> bool:
    for sel in selected:
        if node_id == sel:
            return True
        if node_id.startswith(sel) and node_id[len(sel):len(sel) + 2] == "::":
            return True
        if node_id.startswith(sel) and node_id[len(sel):len(sel) + 1] == "[":
            return True
    return False


@dataclass
class MutantResult:
    mutant: str
    path: str
    qualname: str
    line: int
    decision: str = ""
    reason: str | None = None
    impact_seconds: float = 0.0
    selected_ids: int = 0
    selected_tests: int = 0        # baseline-passing tests the selection covers
    file_level_tests: int = 0      # the same for impact's file-level bound
    suite_tests: int = 0
    broken: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    session_only: list[str] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    suite_seconds: float = 0.0
    error: str | None = None
    impact_document: dict | None = None
    op: str = "raise"
    desc: str = ""
    diff: str = ""                 # the edit as a unified diff (kept for mutants with misses)

    @property
    def fraction(self) -> float:
        return self.selected_tests / self.suite_tests if self.suite_tests else 0.0


def selection_of(doc: dict) -> tuple[str, list[str], list[str]]:
    decision = doc.get("decision", "")
    ids = [s["node_id"] for s in doc.get("selected", [])]
    return decision, ids, list(doc.get("file_level") or [])


def count_covered(decision: str, ids: list[str], tests: set[str]) -> int:
    if decision == "run_all":
        return len(tests)
    if decision == "nothing":
        return 0
    by_file: dict[str, list[str]] = {}
    for sel in ids:
        by_file.setdefault(sel.split("::", 1)[0].split("[", 1)[0], []).append(sel)
    n = 0
    for t in tests:
        sels = by_file.get(t.split("::", 1)[0])
        if sels and covers(sels, t):
            n += 1
    return n


# -------------------------------------------------------------------------------------------- output


def short(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1):]


def print_table(results: list[MutantResult], summary: dict, out=sys.stdout) -> None:
    head = f"{'#':>3} {'mutant':<58} {'decision':<9} {'broken':>6} {'selected':>9} {'sel%':>6} {'file%':>6} " \
           f"{'miss':>4} {'sess':>4} {'ms':>6}"
    print(head, file=out)
    print("-" * len(head), file=out)
    for i, r in enumerate(results, 1):
        if r.error:
            print(f"{i:>3} {short(r.mutant, 58):<58} error: {r.error}", file=out)
            continue
        fl = r.file_level_tests / r.suite_tests * 100 if r.suite_tests else 0
        print(f"{i:>3} {short(r.mutant, 58):<58} {r.decision:<9} {len(r.broken):>6} {r.selected_tests:>9} "
              f"{r.fraction * 100:>5.1f}% {fl:>5.1f}% {len(r.misses):>4} {len(r.session_only):>4} "
              f"{r.impact_seconds * 1000:>6.0f}", file=out)
    for r in results:
        for m in r.misses:
            print(f"MISS     {r.mutant}: {m}", file=out)
        for m in r.session_only:
            print(f"SESSION  {r.mutant}: {m} (fails in the full run, passes alone)", file=out)
        for m in r.unverified:
            print(f"UNVERIFIED {r.mutant}: {m} (uncovered; could not be run alone)", file=out)
    print(file=out)
    for key, value in summary.items():
        print(f"{key:<32} {value}", file=out)


def summarize(results: list[MutantResult], baseline: dict) -> dict:
    ok = [r for r in results if not r.error]
    fractions = [r.fraction for r in ok]
    times = [r.impact_seconds * 1000 for r in ok]
    breaking = [r for r in ok if r.broken]
    return {
        "suite tests (passing at baseline)": baseline["passing"],
        "baseline failing/erroring (ignored)": baseline["failing"],
        "baseline suite seconds": round(baseline["seconds"], 1),
        "mutants": len(results),
        "mutants with errors": len(results) - len(ok),
        "mutants breaking tests": len(breaking),
        "mutants with misses": sum(1 for r in ok if r.misses),
        "total misses": sum(len(r.misses) for r in ok),
        "session-only failures (not misses)": sum(len(r.session_only) for r in ok),
        "unverified uncovered failures": sum(len(r.unverified) for r in ok),
        "decisions": {d: sum(1 for r in ok if r.decision == d) for d in sorted({r.decision for r in ok})},
        "mean selected fraction": round(statistics.mean(fractions), 4) if fractions else None,
        "median selected fraction": round(statistics.median(fractions), 4) if fractions else None,
        "mean file-level fraction": round(statistics.mean(r.file_level_tests / r.suite_tests for r in ok), 4)
        if ok else None,
        "mean selected / broken (breaking mutants)": round(statistics.mean(r.selected_tests / len(r.broken)
                                                                           for r in breaking), 1) if breaking else None,
        "median impact ms": round(statistics.median(times), 1) if times else None,
        "max impact ms": round(max(times), 1) if times else None,
        "per operator": {op: {"mutants": sum(1 for r in results if r.op == op),
                              "breaking": sum(1 for r in breaking if r.op == op),
                              "with misses": sum(1 for r in ok if r.op == op and r.misses),
                              "misses": sum(len(r.misses) for r in ok if r.op == op),
                              "session only": sum(len(r.session_only) for r in ok if r.op == op),
                              "mean selected fraction": round(statistics.mean(
                                  [r.fraction for r in ok if r.op == op] or [0.0]), 4)}
                         for op in sorted({r.op for r in results})},
    }


# ---------------------------------------------------------------------------------------------- main


def drop_bytecode(path: Path) -> None:
    cache = path.parent / "__pycache__"
    if cache.is_dir():
        for pyc in cache.glob(path.stem + ".*.pyc"):
            try:
                pyc.unlink()
            except OSError:
                pass


def git_dirty(repo: Path) -> list[str]:
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo, capture_output=True,
                         text=True, check=True).stdout
    return [line for line in out.splitlines() if line.strip()]


def check_alone(runner: Runner, candidates: list[str], cap: int) -> tuple[list[str], list[str], list[str]]:
    """Splits uncovered broken tests into (fail alone, pass alone, could not tell). Up to `cap` tests run
    one by one; the rest run together with the other candidates of their own test file only."""
    fail, ok, unknown = [], [], []
    singles = candidates[:cap]
    grouped: dict[str, list[str]] = {}
    for t in candidates[cap:]:
        grouped.setdefault(t.split("::", 1)[0], []).append(t)
    batches = [[t] for t in singles] + list(grouped.values())
    for batch in batches:
        run = runner.pytest(batch, whole_suite=False)
        file_errors = set(run.collect_errors)
        for t in batch:
            outcome = run.results.get(t)
            if outcome in ("failed", "error") or t.split("::", 1)[0] in file_errors:
                fail.append(t)
            elif outcome in ("passed", "skipped"):
                ok.append(t)
            else:
                unknown.append(t)
    return fail, ok, unknown


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", type=Path, nargs="?", help="a git repository with a clean work tree")
    ap.add_argument("--impact", default=str(Path(__file__).resolve().parents[2] / "build" / "src" / "impact"),
                    help="the impact binary (default: build/src/impact of this checkout)")
    ap.add_argument("--impact-arg", action="append", default=[], help="an extra argument for impact (repeatable)")
    ap.add_argument("--mutants", type=int, default=40,
                    help="mutants to sample (default 40); with --operators, per operator")
    ap.add_argument("--operators", default="raise",
                    help="comma-separated mutation operators (default: raise, the original behaviour); 'all' for "
                         "every one; --list-operators describes them")
    ap.add_argument("--list-operators", action="store_true", help="describe the operators and exit")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--module-mutants", action="store_true",
                    help="also one module-level mutant per file that has a sampled mutant")
    ap.add_argument("--covered-only", action="store_true",
                    help="sample only functions whose first statement runs in the baseline suite (coverage)")
    ap.add_argument("--include", action="append", default=[], help="glob of source files to mutate (repeatable)")
    ap.add_argument("--exclude", action="append", default=[], help="glob of files never to mutate (repeatable)")
    ap.add_argument("--no-default-excludes", action="store_true", help=f"do not exclude {DEFAULT_EXCLUDES}")
    ap.add_argument("--only", action="append", default=[],
                    help="mutate exactly this PATH:QUALNAME (repeatable; skips sampling)")
    ap.add_argument("--pytest-arg", action="append", default=[], help="an extra pytest argument for every run")
    ap.add_argument("--suite-arg", action="append", default=[],
                    help="an extra pytest argument for whole-suite runs only (e.g. -n2)")
    ap.add_argument("--env", action="append", default=[], help="KEY=VALUE for pytest's environment (repeatable)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per pytest run (default: 1200 for the baseline, then max(120, 5 x baseline))")
    ap.add_argument("--alone-cap", type=int, default=25,
                    help="uncovered broken tests re-run one by one per mutant; the rest per test file (default 25)")
    ap.add_argument("--json", type=Path, help="write the full results here")
    ap.add_argument("--allow-dirty", action="store_true", help="run even if the work tree has changes")
    args = ap.parse_args()
    if args.list_operators:
        for name, what in OPERATORS.items():
            print(f"{name:<10} {what}")
        return 0
    if args.repo is None:
        ap.error("the repository is required")
    operators = list(OPERATORS) if args.operators.strip() == "all" else \
        [o.strip() for o in args.operators.split(",") if o.strip()]
    unknown_ops = [o for o in operators if o not in OPERATORS]
    if unknown_ops or not operators:
        ap.error(f"unknown operator(s) {unknown_ops}; known: {', '.join(OPERATORS)}")

    repo = args.repo.resolve()
    if not (repo / ".git").exists():
        ap.error(f"{repo} is not a git work tree")
    dirty = git_dirty(repo)
    if dirty and not args.allow_dirty:
        ap.error(f"{repo} has changes (impact compares with HEAD); commit or stash them, or --allow-dirty:\n"
                 + "\n".join(dirty[:10]))
    impact_bin = str(Path(args.impact).resolve())
    if not os.access(impact_bin, os.X_OK):
        ap.error(f"impact binary not found: {impact_bin}")
    env = {}
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value

    workdir = Path(tempfile.mkdtemp(prefix="impact-mutate-"))
    runner = Runner(repo, workdir, args.pytest_arg, args.suite_arg, env, args.timeout or 1200)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731

    # 1. Baseline.
    log(f"baseline: running the whole suite of {repo}")
    base = runner.pytest([], whole_suite=True)
    if base.timed_out:
        sys.exit(f"mutate_project: the baseline suite timed out after {runner.timeout:.0f}s")
    if args.timeout is None:
        runner.timeout = max(120.0, 5 * base.seconds)
    passing = base.passed()
    if not passing:
        sys.exit(f"mutate_project: no test passes at baseline:\n{base.output_tail}")
    failing_base = {n for n, o in base.results.items() if o in ("failed", "error")}
    log(f"baseline: {len(passing)} passing, {len(failing_base)} failing, {len(base.collect_errors)} collection "
        f"errors, {base.seconds:.1f}s")
    baseline = {"passing": len(passing), "failing": len(failing_base), "collect_errors": base.collect_errors,
                "seconds": base.seconds, "failing_ids": sorted(failing_base)}

    # 2. Mutants.
    excludes = args.exclude + ([] if args.no_default_excludes else DEFAULT_EXCLUDES)
    files = source_files(repo, args.include, excludes)
    texts = {p: (repo / p).read_text(encoding="utf-8") for p in files}
    pools: dict[str, list[Mutant]] = {}
    for op in operators:
        if op == "raise":
            pools[op] = [m for p in files for m in function_mutants(p, texts[p])]
            continue
        op_files = test_support_files(repo, args.include, args.exclude, op) if op in ("fixture", "helper") else \
            text_files(repo, args.include, args.exclude, op) if op in TEXT_OPERATORS else files
        for p in op_files:
            if p not in texts:
                texts[p] = (repo / p).read_text(encoding="utf-8")
        pools[op] = [m for p in op_files for m in op_mutants(op, p, texts[p])]
    pool = [m for op in operators for m in pools[op]]
    if args.only:
        wanted = set(args.only)
        chosen = [m for m in pool if m.label in wanted]
        missing = wanted - {m.label for m in chosen}
        if missing:
            sys.exit(f"mutate_project: no such function: {sorted(missing)}")
    else:
        if args.covered_only:
            log("coverage: measuring which functions the suite runs")
            lines = covered_lines(runner, sorted(texts), workdir)
            for op in operators:
                pools[op] = [m for m in pools[op] if m.probe_line and m.probe_line in lines.get(m.path, ())]
            pool = [m for op in operators for m in pools[op]]
        rng = random.Random(args.seed)
        chosen = []
        for op in operators:
            chosen += rng.sample(pools[op], min(args.mutants, len(pools[op])))
        chosen.sort(key=lambda m: (m.path, m.line, m.op))
        if len(operators) > 1 or operators != ["raise"]:
            log("operators: " + ", ".join(f"{op} {sum(1 for m in chosen if m.op == op)}/{len(pools[op])}"
                                          for op in operators))
    if args.module_mutants:
        for path in sorted({m.path for m in chosen}):
            mm = module_mutant(path, texts[path])
            if mm:
                chosen.append(mm)
    log(f"mutants: {len(chosen)} of {len(pool)} candidate functions in {len(files)} files")

    # 3. Each mutant.
    results: list[MutantResult] = []
    current: dict[str, str] = {}  # a file currently mutated -> its original text

    def restore(*_):
        for path, text in current.items():
            (repo / path).write_text(text, encoding="utf-8")
            drop_bytecode(repo / path)
        current.clear()

    def on_signal(signum, frame):
        restore()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        for i, m in enumerate(chosen, 1):
            r = MutantResult(m.label, m.path, m.qualname, m.line, suite_tests=len(passing), op=m.op, desc=m.desc)
            results.append(r)
            original = texts[m.path]
            current[m.path] = original
            target = repo / m.path
            target.write_text(m.apply(original), encoding="utf-8")
            drop_bytecode(target)
            try:
                doc, seconds, err = runner.impact(impact_bin, args.impact_arg)
                r.impact_seconds = seconds
                if doc is None:
                    r.error = f"impact failed: {err[:200]}"
                    continue
                decision, ids, file_level = selection_of(doc)
                r.decision, r.reason, r.selected_ids = decision, doc.get("reason"), len(ids)
                r.selected_tests = count_covered(decision, ids, passing)
                r.file_level_tests = (count_covered("selected", file_level, passing) if decision == "selected"
                                      else r.selected_tests)
                run = runner.pytest([], whole_suite=True)
                r.suite_seconds = run.seconds
                if run.timed_out:
                    r.error = "the suite timed out under the mutant"
                    continue
                now_passing = run.passed()
                r.broken = sorted(passing - now_passing)
                uncovered = [t for t in r.broken if decision != "run_all" and
                             not (decision == "selected" and covers(ids, t))]
                if uncovered:
                    fail, ok, unknown = check_alone(runner, uncovered, args.alone_cap)
                    r.misses, r.session_only, r.unverified = sorted(fail), sorted(ok), sorted(unknown)
                if r.misses or r.unverified:
                    r.impact_document = doc
                    r.diff = "".join(difflib.unified_diff(original.splitlines(keepends=True),
                                                          m.apply(original).splitlines(keepends=True),
                                                          f"a/{m.path}", f"b/{m.path}"))
            finally:
                restore()
                if r.error:
                    log(f"[{i}/{len(chosen)}] {m.label}: error: {r.error}")
            if r.error:
                continue
            log(f"[{i}/{len(chosen)}] {m.label}{' (' + m.desc + ')' if m.desc else ''}: {r.decision} broken={len(r.broken)} selected={r.selected_tests} "
                f"misses={len(r.misses)} session_only={len(r.session_only)} impact={r.impact_seconds * 1000:.0f}ms "
                f"suite={r.suite_seconds:.1f}s")
    finally:
        restore()
        left = git_dirty(repo)
        if left and not dirty:
            log("warning: the work tree is not clean after the run:\n" + "\n".join(left[:10]))
        shutil.rmtree(workdir, ignore_errors=True)

    summary = summarize(results, baseline)
    print_table(results, summary)
    if args.json:
        doc = {"repo": str(repo), "commit": subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                                                            text=True).stdout.strip(),
               "argv": sys.argv, "impact": impact_bin, "baseline": baseline, "summary": summary,
               "mutants": [asdict(r) | {"fraction": r.fraction} for r in results]}
        args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 1 if summary["total misses"] else 0


if __name__ == "__main__":
    sys.exit(main())
