"""CI base detection: in a pull-request build impact compares with the merge-base of the PR's target
branch (as the remote-tracking branch origin/<name>) or of the commit the CI names, so a clean checkout
of the PR still selects the PR's files; in a push build there is no base and everything runs.

The harness scrubs every CI variable from the environment; each test passes exactly the ones it means.

The history every test starts from (upstream is the "server", `ci` a clone of it, as a CI runner has):

    C0 (project) -- M1 (beta edited) -- M2 (beta edited again)      upstream main = origin/main
                      \\
                       F (alpha edited)                              feature = the PR, checked out in ci

The PR changes alpha only: compared with the merge-base M1 it selects tests/test_alpha.py alone.
Compared with origin/main itself (M2) or with a stale local main (C0) beta would differ too."""
from dataclasses import dataclass

import pytest

from gitutil import ALPHA, BOTH, PROJECT, assert_error, changes, clone, files_by_path, paths, rev
# These tests are about what is compared (stage 1), so they compare the test files selected.
from harness import Repo
from harness import selected_files as selected_ids


@dataclass
class PullRequest:
    upstream: Repo
    ci: Repo
    c0: str
    m1: str
    m2: str
    f: str


def _history(repo_factory):
    upstream = repo_factory(files=PROJECT)
    c0 = rev(upstream.path)
    upstream.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    upstream.commit("M1")
    m1 = rev(upstream.path)
    upstream.git("checkout", "-q", "-b", "feature")
    upstream.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    upstream.commit("F")
    f = rev(upstream.path)
    upstream.git("checkout", "-q", "main")
    upstream.replace("src/pkg/beta.py", "return 2 + 0", "return 2 + 1")
    upstream.commit("M2")
    m2 = rev(upstream.path)
    return upstream, c0, m1, m2, f


@pytest.fixture
def pr(repo_factory, tmp_path):
    upstream, c0, m1, m2, f = _history(repo_factory)
    ci = clone(upstream.path, tmp_path / "ci", "--branch", "feature")
    # A local `main` that is stale: impact must use the remote-tracking origin/main, not it.
    ci.git("branch", "-f", "main", c0)
    assert rev(ci.path, "origin/main") == m2
    assert rev(ci.path) == f
    assert ci.git("status", "--porcelain") == ""
    return PullRequest(upstream, ci, c0, m1, m2, f)


def _assert_pr_base(decision, source, merge_base_commit):
    assert decision["base"]["source"] == source
    assert decision["base"]["merge_base"] is True
    assert decision["base"]["commit"] == merge_base_commit
    assert decision["base"]["mode"] == "working_tree"
    assert paths(decision) == ["src/pkg/alpha.py"]
    assert decision["decision"] == "selected"
    assert selected_ids(decision) == ALPHA


GITHUB_PR = {"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "main"}


# --- GitHub Actions --------------------------------------------------------------------------------

def test_github_pull_request_compares_with_the_merge_base(pr):
    # Without the environment a clean checkout has nothing to run...
    local = pr.ci.decide()
    assert (local["decision"], local["reason"]) == ("nothing", "no_changes")
    # ...in the PR build the PR's own commit is the change.
    decision = pr.ci.decide(env=GITHUB_PR)
    _assert_pr_base(decision, "GITHUB_BASE_REF", pr.m1)
    assert "main" in decision["base"]["rev"]
    assert decision["argv"][-1].split("::")[0] == "tests/test_alpha.py"


def test_github_pull_request_merge_commit_checkout(pr):
    # actions/checkout checks out refs/pull/N/merge: a detached merge of the PR into the target branch.
    pr.ci.git("checkout", "-q", "--detach", "origin/main")
    pr.ci.git("merge", "-q", "--no-ff", "-m", "Merge feature", pr.f)
    assert rev(pr.ci.path, "HEAD^1") == pr.m2
    decision = pr.ci.decide(env=GITHUB_PR)
    _assert_pr_base(decision, "GITHUB_BASE_REF", pr.m2)


def test_github_pull_request_counts_uncommitted_edits_too(pr):
    pr.ci.replace("src/pkg/beta.py", "return 2 + 0", "return 2 + 5")
    decision = pr.ci.decide(env=GITHUB_PR)
    assert decision["base"]["commit"] == pr.m1
    assert paths(decision) == ["src/pkg/alpha.py", "src/pkg/beta.py"]
    assert selected_ids(decision) == BOTH


def test_github_base_in_the_changes_subcommand(pr):
    doc = changes(pr.ci, env=GITHUB_PR)
    assert doc["base"]["source"] == "GITHUB_BASE_REF"
    assert doc["base"]["merge_base"] is True
    assert doc["base"]["commit"] == pr.m1
    assert paths(doc) == ["src/pkg/alpha.py"]
    assert files_by_path(doc)["src/pkg/alpha.py"]["hunks"] == [[2, 1, 2, 1]]


def test_github_pull_request_runs_the_selected_tests(pr):
    run = pr.ci.impact(env=GITHUB_PR)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout, run.stdout


def test_github_base_with_a_remote_tracking_ref_made_by_update_ref(repo_factory):
    repo = repo_factory(files=PROJECT)
    base = rev(repo.path)
    repo.git("update-ref", "refs/remotes/origin/main", base)
    repo.git("checkout", "-q", "-b", "feature")
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    repo.commit("F")
    # the local main moves on: it must not be used
    repo.git("checkout", "-q", "main")
    repo.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    repo.commit("later")
    repo.git("checkout", "-q", "feature")
    _assert_pr_base(repo.decide(env=GITHUB_PR), "GITHUB_BASE_REF", base)


def test_github_base_branch_with_a_slash(pr):
    pr.ci.git("update-ref", "refs/remotes/origin/release/2.0", pr.m1)
    decision = pr.ci.decide(env={"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "release/2.0"})
    _assert_pr_base(decision, "GITHUB_BASE_REF", pr.m1)


def test_shallow_github_checkout_explains_how_to_fetch_more(pr, tmp_path):
    shallow = clone(f"file://{pr.upstream.path}", tmp_path / "shallow", "--depth", "1", "--no-single-branch",
                    "--branch", "feature")
    assert shallow.git("rev-parse", "--is-shallow-repository").strip() == "true"
    msg = assert_error(shallow.impact("--dry-run", env=GITHUB_PR), "shallow", "fetch")
    assert "fetch-depth" in msg or "unshallow" in msg or "deepen" in msg
    # Fetching enough history fixes it.
    shallow.git("fetch", "-q", "--deepen=2", "origin")
    _assert_pr_base(shallow.decide(env=GITHUB_PR), "GITHUB_BASE_REF", pr.m1)


def test_bare_changed_flag_uses_the_ci_base(pr):
    # `impact --changed` without a revision is the default, and in a PR build that is the PR's base.
    _assert_pr_base(pr.ci.decide("--changed", env=GITHUB_PR), "GITHUB_BASE_REF", pr.m1)
    push = pr.ci.decide("--changed", env={"CI": "true"})
    assert (push["decision"], push["reason"]) == ("run_all", "no_ci_base")


# --- GitLab ----------------------------------------------------------------------------------------

GITLAB_MR = {"GITLAB_CI": "true", "CI": "true", "CI_MERGE_REQUEST_IID": "7"}


def test_gitlab_diff_base_sha(pr):
    decision = pr.ci.decide(env={**GITLAB_MR, "CI_MERGE_REQUEST_DIFF_BASE_SHA": pr.m1})
    _assert_pr_base(decision, "CI_MERGE_REQUEST_DIFF_BASE_SHA", pr.m1)


def test_gitlab_diff_base_sha_that_is_not_an_ancestor_uses_the_merge_base(pr):
    decision = pr.ci.decide(env={**GITLAB_MR, "CI_MERGE_REQUEST_DIFF_BASE_SHA": pr.m2})
    _assert_pr_base(decision, "CI_MERGE_REQUEST_DIFF_BASE_SHA", pr.m1)


def test_gitlab_diff_base_sha_wins_over_the_target_branch(pr):
    env = {**GITLAB_MR, "CI_MERGE_REQUEST_DIFF_BASE_SHA": pr.m1,
           "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "not-fetched-anywhere"}
    _assert_pr_base(pr.ci.decide(env=env), "CI_MERGE_REQUEST_DIFF_BASE_SHA", pr.m1)


def test_gitlab_target_branch_name(pr):
    decision = pr.ci.decide(env={**GITLAB_MR, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"})
    _assert_pr_base(decision, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", pr.m1)


def test_gitlab_diff_base_sha_missing_from_the_clone(pr):
    missing = "0123456789abcdef0123456789abcdef01234567"
    msg = assert_error(pr.ci.impact("--dry-run", env={**GITLAB_MR, "CI_MERGE_REQUEST_DIFF_BASE_SHA": missing}),
                       missing)
    assert "fetch" in msg.lower()


# --- Buildkite -------------------------------------------------------------------------------------

def test_buildkite_pull_request(pr):
    env = {"BUILDKITE": "true", "CI": "true", "BUILDKITE_PULL_REQUEST": "123",
           "BUILDKITE_PULL_REQUEST_BASE_BRANCH": "main"}
    _assert_pr_base(pr.ci.decide(env=env), "BUILDKITE_PULL_REQUEST_BASE_BRANCH", pr.m1)


@pytest.mark.parametrize("base_branch", ["main", ""], ids=["base-set", "base-empty"])
def test_buildkite_pull_request_false_means_no_base(pr, base_branch):
    env = {"BUILDKITE": "true", "CI": "true", "BUILDKITE_PULL_REQUEST": "false",
           "BUILDKITE_PULL_REQUEST_BASE_BRANCH": base_branch}
    decision = pr.ci.decide(env=env)
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "no_ci_base"


# --- push builds: no base --------------------------------------------------------------------------

@pytest.mark.parametrize("env", [
    {"GITHUB_ACTIONS": "true"},
    {"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": ""},  # GitHub sets it empty on push events
    {"CI": "true"},
    {"CI": "1"},
    {"GITLAB_CI": "true", "CI": "true"},
    {"BUILDKITE": "true", "CI": "true"},
], ids=["github", "github-empty-base-ref", "ci-true", "ci-1", "gitlab", "buildkite"])
def test_ci_push_build_without_a_base_runs_everything(pr, env):
    decision = pr.ci.decide(env=env)
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "no_ci_base"
    assert "--changed" in decision["detail"]  # the fix
    assert decision["selected"] == []
    assert decision["argv"] == decision["command"]["argv"]  # the whole suite: no file arguments


def test_ci_push_build_runs_the_whole_suite(pr):
    run = pr.ci.impact(env={"CI": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout, run.stdout
    assert "no_ci_base" in run.stderr


@pytest.mark.parametrize("value", ["false", "0"])
def test_ci_false_is_a_local_run(pr, value):
    decision = pr.ci.decide(env={"CI": value})
    assert (decision["decision"], decision["reason"]) == ("nothing", "no_changes")
    assert decision["base"]["source"] == "default"


# --- what wins -------------------------------------------------------------------------------------

def test_explicit_changed_rev_wins_over_the_environment(pr):
    decision = pr.ci.decide(f"--changed={pr.c0}", env=GITHUB_PR)
    assert decision["base"]["source"] == "--changed"
    assert decision["base"]["rev"] == pr.c0
    assert decision["base"]["commit"] == pr.c0
    assert selected_ids(decision) == BOTH

    gitlab = pr.ci.decide(f"--changed={pr.c0}", env={**GITLAB_MR, "CI_MERGE_REQUEST_DIFF_BASE_SHA": pr.m1})
    assert gitlab["base"]["source"] == "--changed"
    assert gitlab["base"]["commit"] == pr.c0


def test_explicit_changed_rev_wins_over_a_push_build(pr):
    decision = pr.ci.decide(f"--changed={pr.m1}", env={"GITHUB_ACTIONS": "true"})
    assert decision["reason"] != "no_ci_base"
    assert decision["base"]["source"] == "--changed"
    assert decision["base"]["commit"] == pr.m1
    assert selected_ids(decision) == ALPHA


def test_staged_wins_over_the_environment(pr):
    pr.ci.replace("src/pkg/beta.py", "return 2 + 0", "return 2 + 5")
    pr.ci.git("add", "-A")
    decision = pr.ci.decide("--staged", env=GITHUB_PR)
    assert decision["base"]["mode"] == "staged"
    assert decision["base"]["commit"] == pr.f
    assert paths(decision) == ["src/pkg/beta.py"]


def test_explicit_changed_rev_wins_in_the_changes_subcommand(pr):
    doc = changes(pr.ci, f"--changed={pr.c0}", env=GITHUB_PR)
    assert doc["base"]["source"] == "--changed"
    assert paths(doc) == ["src/pkg/alpha.py", "src/pkg/beta.py"]


# --- a base that is not there ----------------------------------------------------------------------

def test_base_branch_not_fetched_is_an_error(pr):
    msg = assert_error(pr.ci.impact("--dry-run", env={"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "release"}),
                       "release", "fetch")
    assert "origin" in msg
    assert_error(pr.ci.impact("changes", env={"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "release"}), "release")


def test_single_branch_clone_without_the_base_is_an_error(pr, tmp_path):
    only = clone(f"file://{pr.upstream.path}", tmp_path / "only", "--single-branch", "--branch", "feature")
    assert only.git("branch", "-r", "--list", "origin/main") == ""
    assert_error(only.impact("--dry-run", env=GITHUB_PR), "main", "fetch")
    assert_error(only.impact("--dry-run", env={"BUILDKITE": "true", "BUILDKITE_PULL_REQUEST": "5",
                                               "BUILDKITE_PULL_REQUEST_BASE_BRANCH": "main"}), "main", "fetch")


def test_local_branch_is_not_mistaken_for_the_remote_one(pr, tmp_path):
    # Only a local `main` exists (no origin/main): the PR base must not silently fall back to it.
    only = clone(f"file://{pr.upstream.path}", tmp_path / "only", "--single-branch", "--branch", "feature")
    only.git("branch", "main", pr.c0)
    assert_error(only.impact("--dry-run", env=GITHUB_PR), "main")


@pytest.mark.parametrize("env, variable", [
    ({"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "release"}, "GITHUB_BASE_REF"),
    ({"GITLAB_CI": "true", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "release"}, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"),
    ({"GITLAB_CI": "true", "CI_MERGE_REQUEST_DIFF_BASE_SHA": "0123456789abcdef0123456789abcdef01234567"},
     "CI_MERGE_REQUEST_DIFF_BASE_SHA"),
    ({"BUILDKITE": "true", "BUILDKITE_PULL_REQUEST": "9", "BUILDKITE_PULL_REQUEST_BASE_BRANCH": "release"},
     "BUILDKITE_PULL_REQUEST_BASE_BRANCH"),
], ids=["github", "gitlab-branch", "gitlab-sha", "buildkite"])
def test_unresolvable_ci_base_names_the_variable(pr, env, variable):
    # Nothing on the command line named this base: the message must say where it came from
    # (CiContext.variable is kept "for messages").
    assert_error(pr.ci.impact("--dry-run", env=env), variable, "fetch")


# --- each CI's variables on their own ---------------------------------------------------------------

def test_gitlab_merge_request_detected_from_its_iid_alone(pr):
    # Some runners do not export GITLAB_CI to every shell; CI_MERGE_REQUEST_IID still marks an MR pipeline.
    env = {"CI_MERGE_REQUEST_IID": "7", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"}
    _assert_pr_base(pr.ci.decide(env=env), "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", pr.m1)


def test_gitlab_empty_diff_base_sha_falls_back_to_the_target_branch(pr):
    env = {**GITLAB_MR, "CI_MERGE_REQUEST_DIFF_BASE_SHA": "", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"}
    _assert_pr_base(pr.ci.decide(env=env), "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", pr.m1)


def test_buildkite_pull_request_without_a_base_branch_runs_everything(pr):
    env = {"BUILDKITE": "true", "BUILDKITE_PULL_REQUEST": "123", "BUILDKITE_PULL_REQUEST_BASE_BRANCH": ""}
    decision = pr.ci.decide(env=env)
    assert (decision["decision"], decision["reason"]) == ("run_all", "no_ci_base")


@pytest.mark.parametrize("env, provider", [
    ({"GITHUB_ACTIONS": "true"}, "github"),
    ({"GITLAB_CI": "true"}, "gitlab"),
    ({"BUILDKITE": "true"}, "buildkite"),
    ({"CI": "true"}, "a CI"),
], ids=["github", "gitlab", "buildkite", "generic"])
def test_push_build_is_detected_from_each_ci_variable_alone(pr, env, provider):
    decision = pr.ci.decide(env=env)
    assert (decision["decision"], decision["reason"]) == ("run_all", "no_ci_base")
    assert decision["detail"].startswith(f"{provider} build without a pull request base"), decision["detail"]


@pytest.mark.parametrize("env, variable", [
    ({"GITHUB_BASE_REF": "main"}, "GITHUB_BASE_REF"),
    ({"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"}, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"),
], ids=["github", "gitlab"])
def test_a_base_variable_outside_its_ci_still_names_the_base(pr, env, variable):
    # A developer reproducing a CI run locally sets only the base variable.
    _assert_pr_base(pr.ci.decide(env=env), variable, pr.m1)


def test_gitlab_diff_base_sha_outside_gitlab(pr):
    _assert_pr_base(pr.ci.decide(env={"CI_MERGE_REQUEST_DIFF_BASE_SHA": pr.m1}), "CI_MERGE_REQUEST_DIFF_BASE_SHA", pr.m1)
