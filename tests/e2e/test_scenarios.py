"""Every case of every fixtures/<name>/cases.toml: a real repository, a change, the real binary, and
the exact decision the case expects. Each case names the selection rule (docs/selection.md) it pins."""
import pytest

from harness import apply_case, check_expectations, load_cases, make_repo

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_scenario(case, tmp_path):
    repo = make_repo(tmp_path, case.fixture)
    for step in case.spec.get("before", []):
        apply_case(repo, step)
    apply_case(repo, case.spec)
    decision = repo.decide(*case.spec.get("args", []), env=case.spec.get("env"))
    problems = check_expectations(decision, case.spec.get("expect", {}))
    assert not problems, "\n".join(problems)


def test_every_case_names_a_rule():
    assert CASES, "no cases found under fixtures/"
    for case in CASES:
        assert case.rule, f"{case.id} does not say which rule it pins"
