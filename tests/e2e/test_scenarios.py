"""Every case of every fixtures/<name>/cases.toml: a real repository, a change, the real binary, and
the exact decision the case expects. Each case names the selection rule (docs/selection.md) it pins.
A case with `xfail = "bug: ..."` documents a known wrong answer and must keep failing until fixed."""
import pytest

from harness import apply_case, check_expectations, load_cases, make_repo

CASES = load_cases()


def _param(case):
    marks = [pytest.mark.xfail(strict=True, reason=case.spec["xfail"])] if "xfail" in case.spec else []
    return pytest.param(case, marks=marks, id=case.id)


def warm_up(repo):
    """Runs impact once on another change (a line added to the first Python file) and takes it back, so
    that the case's own run starts from the import graph that run stored and links only what changed
    since; the harness's IMPACT_CHECK_GRAPH=1 makes each such run compare it with a full build."""
    tracked = repo.git("ls-files", "*.py").split()
    if not tracked:
        return
    text = repo.read(tracked[0])
    repo.write(tracked[0], text + "\nWARM_UP = 1\n")
    repo.impact("--dry-run", "--no-index")
    repo.write(tracked[0], text)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_scenario(case, tmp_path):
    repo = make_repo(tmp_path, case.fixture)
    for step in case.spec.get("before", []):
        apply_case(repo, step)
    warm_up(repo)
    apply_case(repo, case.spec)
    args = list(case.spec.get("args", []))
    if case.spec["level"] == "file":
        args.insert(0, "--file-level")
    decision = repo.decide(*args, env=case.spec.get("env"))
    problems = check_expectations(decision, case.spec.get("expect", {}))
    assert not problems, "\n".join(problems)


def test_every_case_names_a_rule():
    assert CASES, "no cases found under fixtures/"
    for case in CASES:
        assert case.rule, f"{case.id} does not say which rule it pins"


def documented_rules():
    import re
    from harness import ROOT
    text = (ROOT / "docs" / "selection.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### `([a-z0-9-]+)`", text, flags=re.M))


def test_every_case_rule_is_documented():
    rules = documented_rules()
    unknown = sorted({c.rule for c in CASES} - rules)
    assert not unknown, f"cases name rules docs/selection.md does not describe: {unknown}"


def test_every_documented_rule_has_a_scenario():
    untested = sorted(documented_rules() - {c.rule for c in CASES if "xfail" not in c.spec})
    assert not untested, f"rules of docs/selection.md without a passing scenario: {untested}"
