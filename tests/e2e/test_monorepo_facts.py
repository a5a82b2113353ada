"""Monorepo mode's facts cache and --timings (docs/monorepo.md, "Isolation"; docs/performance.md,
"Monorepo mode"): every analysis of a run reads one facts cache at the root's cache folder, keyed by
content, so that a cold run parses each Python file once; --timings breaks the decision down by stage
and by project."""
from harness import make_repo
from test_monorepo import FILES, by_path

# The cache is keyed by content: the empty __init__.py files are one entry, parsed once.
PYTHON_CONTENTS = len({text for path, text in FILES.items() if path.endswith(".py")})


def test_one_facts_cache_at_the_root_and_each_file_parsed_once(tmp_path):
    mono = make_repo(tmp_path, files=FILES)
    # libs/a changes and has dependents: its own analysis reads its files, the import edges every file
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    cold = mono.impact("--dry-run", "--format", "json")
    assert cold.returncode == 0, cold.stderr
    assert by_path(cold.json)["libs/b"]["why"] == "depends_on_changed"
    assert by_path(cold.json)["libs/a"]["decision"]["project"]["parsed"] == 3
    assert cold.json["parsed"] == PYTHON_CONTENTS  # libs/a's three files are not parsed a second time
    assert list((mono.path / ".impact_cache").glob("facts-v*.bin"))
    assert not list(mono.path.glob("*/*/.impact_cache/facts-v*.bin"))  # no project keeps a facts cache of its own
    warm = mono.impact("--dry-run", "--format", "json")
    assert warm.json["parsed"] == 0
    assert by_path(warm.json)["libs/a"]["decision"]["project"]["parsed"] == 0
    assert [p["run"] for p in warm.json["projects"]] == [p["run"] for p in cold.json["projects"]]


def test_timings_break_the_decision_down_by_project(tmp_path):
    mono = make_repo(tmp_path, files=FILES)
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    run = mono.impact("--dry-run", "--timings")
    assert run.returncode == 0, run.stderr
    stages = [line.split()[2:-2] for line in run.stderr.splitlines() if line.startswith("impact: timing ")]
    names = [" ".join(s) for s in stages]
    for stage in ("discovery", "changes", "analyse libs/a", "libs/a facts", "libs/a decision", "edges", "total"):
        assert stage in names, run.stderr
    assert names.index("analyse libs/a") < names.index("libs/a facts") < names.index("edges")
    doc = mono.impact("--dry-run", "--format", "json").json
    assert {"discovery", "changes", "analyse libs/a", "edges", "total"} <= set(doc["timings_ms"])
    assert all(isinstance(ms, (int, float)) and ms >= 0 for ms in doc["timings_ms"].values())


def test_audit_in_one_project_fills_the_roots_facts_cache(tmp_path):
    mono = make_repo(tmp_path, files=FILES)
    mono.replace("libs/a/src/liba/core.py", "return a + b", "return b + a")
    audit = mono.impact("audit", "-C", "libs/a")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert list((mono.path / ".impact_cache").glob("facts-v*.bin"))
    assert not list(mono.path.glob("libs/a/.impact_cache/facts-v*.bin"))
    # libs/a's facts are there: the run's analysis of libs/a parses nothing
    run = mono.impact("--dry-run", "--format", "json", "-C", "libs/a")
    assert by_path(run.json)["libs/a"]["decision"]["project"]["parsed"] == 0
