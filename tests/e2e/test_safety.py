"""Safety, measured: break one function (or one module) of a fixture at a time, run the full suite
with real pytest, and require every test that fails to be in impact's selection for that change.

This is the property users trust impact for: a test the change breaks is never left out.

One kind of failure is out of static reach and is reported apart: a test that fails in the full run
only because *another* test module imported the broken code into the session (a registry filled at
import time), and passes when run on its own. Such a miss must reproduce alone to count."""
import ast
import re

import pytest

from harness import FIXTURES, make_repo

MUTANT = 'raise RuntimeError("impact mutant")'
FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?)(?: - .*)?$", re.M)


def fixtures_with_tests():
    return sorted(p.parent.name for p in FIXTURES.glob("*/repo") if list(p.rglob("test_*.py")))


def source_files(repo):
    for path in sorted(repo.path.rglob("*.py")):
        rel = path.relative_to(repo.path).as_posix()
        name = path.name
        if name.startswith("test_") or name == "conftest.py" or rel.startswith("tests/") or "/tests/" in rel:
            continue
        yield rel


def mutants(text):
    """(description, mutated text) for every function, and one for the module as a whole."""
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        first = body[0]
        is_doc = isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) \
            and isinstance(first.value.value, str)
        anchor = body[1] if is_doc and len(body) > 1 else first
        indent = " " * anchor.col_offset
        at = anchor.lineno - 1 if anchor is not first or not is_doc else first.end_lineno
        mutated = lines[:at] + [indent + MUTANT + "\n"] + lines[at:]
        yield f"function {node.name} (line {node.lineno})", "".join(mutated)
    yield "module raises at import", text + ("\n" if text and not text.endswith("\n") else "") + MUTANT + "\n"


def failing_tests(repo):
    result = repo.pytest("-q", "-rfE")
    return set(FAILED.findall(result.stdout)), result


def fails_alone(repo, node_id):
    """Whether the test still fails when it runs on its own (not through session state)."""
    result = repo.pytest("-q", "-rfE", node_id)
    return bool(FAILED.findall(result.stdout)) or result.returncode not in (0, 5)


def covered(node_id, selected):
    node_id = node_id.split("[", 1)[0]  # a parametrized test is selected as its function
    file = node_id.split("::", 1)[0]
    return any(s == node_id or s == file or node_id.startswith(s + "::") for s in selected)


@pytest.mark.parametrize("fixture", fixtures_with_tests())
def test_every_failing_test_is_selected(fixture, tmp_path):
    repo = make_repo(tmp_path, fixture)
    baseline, result = failing_tests(repo)
    assert not baseline, f"{fixture}'s own suite must pass before mutating it:\n{result.stdout[-3000:]}"
    misses, checked = [], 0
    for rel in source_files(repo):
        original = repo.read(rel)
        try:
            candidates = list(mutants(original))
        except SyntaxError:
            continue
        for description, text in candidates:
            repo.write(rel, text)
            failed, _ = failing_tests(repo)
            if failed:
                checked += 1
                decision = repo.decide()
                selected = [t["node_id"] for t in decision["selected"]]
                if decision["decision"] != "run_all":
                    missed = sorted(n for n in failed if not covered(n, selected))
                    missed = [n for n in missed if fails_alone(repo, n)]
                    if missed:
                        misses.append(f"{rel}: {description}: missed {missed} (selected {selected})")
            repo.write(rel, original)
    assert checked > 0, f"no mutant of {fixture} broke a test: the fixture tests nothing"
    assert not misses, "under-selection:\n" + "\n".join(misses)
