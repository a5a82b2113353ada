"""The end-to-end harness: turns fixtures/<name>/repo into a real git repository in a temporary folder,
applies a case's edits, runs the built impact binary and returns what it decided.

Used by every test under tests/e2e. The binary is $IMPACT_BIN (CTest sets it to the build's impact).
"""
import json
import os
import shutil
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
IMPACT = os.environ.get("IMPACT_BIN", str(ROOT / "build" / "src" / "impact"))

# Variables that would change impact's behaviour if the harness inherited them from the machine
# running the tests (a CI runner sets several of them).
SCRUBBED = (
    "CI", "GITHUB_ACTIONS", "GITHUB_BASE_REF", "GITLAB_CI", "CI_MERGE_REQUEST_IID",
    "CI_MERGE_REQUEST_DIFF_BASE_SHA", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "BUILDKITE",
    "BUILDKITE_PULL_REQUEST", "BUILDKITE_PULL_REQUEST_BASE_BRANCH", "IMPACT_PYTEST", "IMPACT_CACHE",
    "IMPACT_MODE", "IMPACT_STRICT", "IMPACT_FALLBACK_COMMAND", "IMPACT_NO_INDEX", "VIRTUAL_ENV",
    "CONDA_PREFIX", "PYTEST_ADDOPTS", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
    "PYTEST_PLUGINS", "IMPACT_NO_DURATIONS", "IMPACT_DURATIONS_INBOX", "IMPACT_DURATIONS_ROOT", "IMPACT_ORDER_DURATIONS", "CI_NODE_INDEX", "CI_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "IMPACT_CHECK_GRAPH",
    "BUILDKITE_PARALLEL_JOB_COUNT", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "IMPACT_CACHE_REMOTE",
)

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "impact tests", "GIT_AUTHOR_EMAIL": "tests@impact.invalid",
    "GIT_COMMITTER_NAME": "impact tests", "GIT_COMMITTER_EMAIL": "tests@impact.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    # pytest must come from Debian's python3-pytest, whatever python3 is first on PATH.
    env["PATH"] = "/usr/bin:/bin:" + env.get("PATH", "")
    env["HOME"] = env.get("HOME", "/tmp")
    env.update(GIT_IDENTITY)
    env["NO_COLOR"] = "1"
    # A graph taken from the cache is checked against a full build on every run (docs/cache.md).
    env["IMPACT_CHECK_GRAPH"] = "1"
    if extra:
        env.update(extra)
    return env


def git(repo, *args, check=True, env=None):
    result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                            env=clean_env(env))
    if check and result.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {result.stderr}")
    return result.stdout


@dataclass
class Run:
    """One run of the binary."""
    returncode: int
    stdout: str
    stderr: str
    argv: list

    @property
    def json(self):
        return json.loads(self.stdout)


@dataclass
class Repo:
    """A temporary git repository made from a fixture."""
    path: Path
    env: dict = field(default_factory=dict)

    def write(self, rel, text, mode="w"):
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        before = target.stat().st_mtime if target.is_file() else None
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            with open(target, mode, encoding="utf-8", newline="") as f:
                f.write(text)
        # An edit within the second of the last write keeps a .pyc compiled from the old text valid
        # for CPython (it checks the whole-second mtime and the size): a child process a test starts,
        # which reads the repository's __pycache__, would run the old code. Move the mtime on a second.
        if before is not None and int(target.stat().st_mtime) <= int(before):
            later = int(before) + 1
            os.utime(target, (later, later))

    def read(self, rel):
        return (self.path / rel).read_text(encoding="utf-8")

    def replace(self, rel, old, new):
        text = self.read(rel)
        if old not in text:
            raise AssertionError(f"{rel} does not contain {old!r}")
        self.write(rel, text.replace(old, new, 1))

    def delete(self, rel):
        target = self.path / rel
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()

    def git(self, *args, check=True):
        return git(self.path, *args, check=check)

    def commit(self, message="change"):
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)

    def impact(self, *args, env=None, cwd=None, timeout=300):
        argv = [IMPACT, *args]
        result = subprocess.run(argv, capture_output=True, text=True, cwd=str(cwd or self.path),
                                env=clean_env({**self.env, **(env or {})}), timeout=timeout)
        return Run(result.returncode, result.stdout, result.stderr, argv)

    def decide(self, *args, env=None):
        """impact --dry-run --format json: the decision as a dict (asserts a clean exit)."""
        args = list(args)
        split = args.index("--") if "--" in args else len(args)  # pytest's arguments stay after `--`
        run = self.impact(*args[:split], "--dry-run", "--format", "json", *args[split:], env=env)
        assert run.returncode == 0, f"impact failed ({run.returncode}): {run.stderr}"
        return run.json

    def pytest(self, *args):
        # Bytecode in a folder of its own: a .pyc written by an earlier run (impact index) within the
        # same second as an edit that keeps the file's size would pass CPython's mtime check, and the
        # edit would not run.
        with tempfile.TemporaryDirectory(prefix="impact-e2e-pyc-") as pyc:
            env = {**clean_env(), "PYTHONPYCACHEPREFIX": pyc}
            return subprocess.run(["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider", *args],
                                  capture_output=True, text=True, cwd=str(self.path), env=env, timeout=600)


def make_repo(tmp_path, fixture=None, files=None, commit=True):
    """A fresh repository: the fixture's repo/ tree (or `files`, path -> text) committed on main."""
    path = Path(tmp_path) / "repo"
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "core.autocrlf", "false")
    repo = Repo(path)
    if fixture is not None:
        shutil.copytree(FIXTURES / fixture / "repo", path, dirs_exist_ok=True)
    for rel, text in (files or {}).items():
        repo.write(rel, text)
    if not (path / ".gitignore").exists():
        repo.write(".gitignore", "__pycache__/\n.pytest_cache/\n.impact_cache/\n")
    if commit:
        repo.commit("base")
    return repo


def recorded_durations(repo):
    """`impact durations --format json`'s per-test record (asserts a clean exit)."""
    run = repo.impact("durations", "--format", "json")
    assert run.returncode == 0, run.stderr
    return run.json["tests"]


def selected_ids(decision):
    return sorted(t["node_id"] for t in decision["selected"])


def selected_files(decision):
    """The test files of a selection, whether whole files or single tests in them were selected."""
    return sorted({t["node_id"].split("::", 1)[0] for t in decision["selected"]})


def indexed_repo(tmp_path, files):
    """A repository of `files`, committed, with a coverage index `impact index` built on it."""
    repo = make_repo(tmp_path, files=files)
    run = repo.impact("index")
    assert run.returncode == 0, run.stdout + run.stderr
    return repo


def answer_for(decision, path):
    """Who answered for changed file `path`: its (source, fallback)."""
    f = next(f for f in decision["changed_files"] if f["path"] == path)
    return f["source"], f["fallback"]


def failed_tests(repo):
    """The node ids a full pytest run of `repo` reports as failed."""
    out = repo.pytest("-rf").stdout
    return sorted(line.split()[1] for line in out.splitlines() if line.startswith("FAILED "))


# --- cases.toml -------------------------------------------------------------------------------------

@dataclass
class Case:
    fixture: str
    name: str
    rule: str
    spec: dict

    @property
    def id(self):
        return f"{self.fixture}::{self.name}"


def load_cases():
    cases = []
    for cases_file in sorted(FIXTURES.glob("*/cases.toml")):
        with open(cases_file, "rb") as f:
            data = tomllib.load(f)
        for spec in data.get("case", []):
            spec.setdefault("level", data.get("level", "symbol"))
            cases.append(Case(cases_file.parent.name, spec["name"], spec.get("rule", ""), spec))
    return cases


def apply_case(repo, spec):
    """Applies a case's edits: replace (path -> [[old, new], ...]), write (path -> text), delete,
    rename ([[old, new], ...]), symlink ([[link, target], ...]), then optional git steps (stage /
    commit / git), then impact runs (impact = [[args...]], with the step's env)."""
    for rel, pairs in spec.get("replace", {}).items():
        for old, new in pairs:
            repo.replace(rel, old, new)
    for rel, text in spec.get("write", {}).items():
        repo.write(rel, text)
    for rel in spec.get("delete", []):
        repo.delete(rel)
    for old, new in spec.get("rename", []):
        (repo.path / new).parent.mkdir(parents=True, exist_ok=True)
        (repo.path / old).rename(repo.path / new)
    for link, target in spec.get("symlink", []):
        (repo.path / link).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, repo.path / link)
    if spec.get("stage"):
        repo.git("add", "-A")
    if spec.get("commit"):
        repo.commit("case")
    for args in spec.get("git", []):
        repo.git(*args)
    for args in spec.get("impact", []):
        run = repo.impact(*args, env=spec.get("env"))
        assert run.returncode == 0, f"impact {' '.join(args)} failed ({run.returncode}): {run.stderr}"


def check_expectations(decision, expect):
    """Compares a decision with a case's [expect] table; returns a list of mismatches."""
    problems = []
    if "decision" in expect and decision["decision"] != expect["decision"]:
        problems.append(f"decision {decision['decision']!r} != {expect['decision']!r} ({decision.get('reason')}: "
                        f"{decision.get('detail')})")
    if "reason" in expect and decision.get("reason") != expect["reason"]:
        problems.append(f"reason {decision.get('reason')!r} != {expect['reason']!r}")
    got = set(selected_ids(decision))
    if "selected" in expect and got != set(expect["selected"]):
        problems.append(f"selected {sorted(got)} != {sorted(expect['selected'])}")
    for node in expect.get("includes", []):
        if node not in got:
            problems.append(f"{node} not selected (got {sorted(got)})")
    for node in expect.get("excludes", []):
        if node in got:
            problems.append(f"{node} selected but must not be")
    relations = {hop["relation"] for t in decision["selected"] for hop in t["chain"]}
    for relation in expect.get("relations", []):
        if relation not in relations:
            problems.append(f"no chain has a {relation!r} hop (relations: {sorted(relations)})")
    if "detail" in expect and expect["detail"] not in (decision.get("detail") or ""):
        problems.append(f"detail {decision.get('detail')!r} does not hold {expect['detail']!r}")
    return problems


def shop_ignoring_saved(tmp_path):
    """The shop fixture, with saved/ ignored: a saved decision in the working tree is not a change."""
    repo = make_repo(tmp_path, "shop")
    repo.write(".gitignore", repo.read(".gitignore") + "saved/\n")
    repo.commit("ignore saved decisions")
    return repo


def edit_stock(repo):
    """level() returns one less: test_stock fails, test_reserve still passes."""
    repo.replace("src/shop/inventory/stock.py", "return LEVELS.get(sku, 0)", "return LEVELS.get(sku, 0) - 1")
