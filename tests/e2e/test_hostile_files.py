"""Work-tree files that are not what they seem: symbolic links to a FIFO or to /dev/zero, a FIFO where
a module or a configuration file should be, and Python files too large to parse. impact reads what git
stores for a link (its target path), never opens anything but a regular file, and bounds what it
reads: none of these may hang a run or exhaust its memory, and a file read only in part is said so
and analysed at file level (docs/selection.md#files-impact-does-not-read-whole)."""
import os
import subprocess

import pytest

from gitutil import BETA, PROJECT, assert_error, changes, files_by_path, paths
from harness import IMPACT, clean_env
from harness import selected_files as selected_ids

# A run that would block on a FIFO or read /dev/zero for ever is stopped here, and fails the test.
LIMIT_SECONDS = 60
# Address space for a run: enough for impact, far too little to read /dev/zero into memory.
MEMORY_BYTES = 2 << 30


def bounded_impact(repo, *args, env=None):
    """impact with a time limit and a memory limit; the completed run (text)."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))

    try:
        return subprocess.run([IMPACT, *args], cwd=repo.path, capture_output=True, text=True,
                              env=clean_env({**repo.env, **(env or {})}), timeout=LIMIT_SECONDS, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"impact {' '.join(args)} did not finish in {LIMIT_SECONDS} s (blocked on a special file?)")


@pytest.fixture
def project(repo_factory):
    return repo_factory(files=PROJECT)


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "outside" / "pipe"
    path.parent.mkdir()
    os.mkfifo(path)
    return path


def decided(run):
    import json
    assert run.returncode == 0, f"exit {run.returncode}: {run.stderr}"
    return json.loads(run.stdout)


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_untracked_symlink_to_a_special_file_is_its_target_path(project, fifo, target):
    link = project.path / "src/pkg/gamma.py"
    os.symlink(str(fifo) if target == "fifo" else target, link)
    project.write("tests/test_gamma.py", "from pkg.gamma import beta\n\n\ndef test_gamma():\n    pass\n")
    run = bounded_impact(project, "changes", "--format", "json")
    doc = decided(run)
    assert files_by_path(doc)["src/pkg/gamma.py"]["status"] == "added"
    decision = decided(bounded_impact(project, "--dry-run", "--format", "json"))
    assert "tests/test_gamma.py" in selected_ids(decision)


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_tracked_symlink_retargeted_to_a_special_file(repo_factory, fifo, target):
    repo = repo_factory(files={**PROJECT, "tests/test_alias.py": "from pkg.alias import alpha\n\n\n"
                                                                   "def test_alias():\n    assert alpha() == 1\n"},
                        commit=False)
    os.symlink("alpha.py", repo.path / "src/pkg/alias.py")
    repo.commit("alias")
    (repo.path / "src/pkg/alias.py").unlink()
    os.symlink(str(fifo) if target == "fifo" else target, repo.path / "src/pkg/alias.py")
    decision = decided(bounded_impact(repo, "--dry-run", "--format", "json"))
    assert paths(decision) == ["src/pkg/alias.py"]
    assert selected_ids(decision) == ["tests/test_alias.py"]


def test_fifo_where_a_module_was_does_not_block(project):
    (project.path / "src/pkg/alpha.py").unlink()
    os.mkfifo(project.path / "src/pkg/alpha.py")
    decision = decided(bounded_impact(project, "--dry-run", "--format", "json"))
    assert "tests/test_alpha.py" in selected_ids(decision)


def test_untracked_fifo_named_like_a_test_does_not_block(project):
    os.mkfifo(project.path / "tests/test_pipe.py")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    decision = decided(bounded_impact(project, "--dry-run", "--format", "json"))
    assert "tests/test_beta.py" in selected_ids(decision)


def test_fifo_named_like_a_configuration_file_nobody_reads_is_harmless(project):
    # pyproject.toml holds the pytest section, so neither pytest nor impact opens tox.ini.
    os.mkfifo(project.path / "tox.ini")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    assert selected_ids(decided(bounded_impact(project, "--dry-run", "--format", "json"))) == BETA


@pytest.mark.parametrize("name", ["pyproject.toml", "pytest.ini", "setup.cfg"])
def test_fifo_named_like_a_configuration_file_is_a_clear_error(project, name):
    path = project.path / name
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    run = bounded_impact(project, "--dry-run")
    assert_error(run, name, "not a regular file")


def test_symlinked_configuration_file_to_a_fifo_is_a_clear_error(project, fifo):
    (project.path / "pyproject.toml").unlink()
    os.symlink(str(fifo), project.path / "pyproject.toml")
    assert_error(bounded_impact(project, "--dry-run"), "pyproject.toml", "not a regular file")


def test_fifo_given_as_coverage_data_is_refused(project, fifo):
    run = bounded_impact(project, "index", "--from", str(fifo))
    assert run.returncode == 2, run.stderr


# --- files too large to parse ----------------------------------------------------------------------

def big_module(n):
    """About 3 MB of generated Python: n functions nothing calls."""
    return "".join(f"def generated_{i}(x):\n    return x + {i}  # {'padding ' * 8}\n\n\n" for i in range(n))


BIG = 30000  # functions: ~3 MB, over the 2 MB limit


def test_oversized_test_file_is_selected_whole_when_what_it_imports_changes(project):
    project.write("tests/test_big.py", "from pkg.alpha import alpha\n\n\n" + big_module(BIG) +
                  "def test_uses():\n    assert alpha() == 1\n")
    assert (project.path / "tests/test_big.py").stat().st_size > 2 << 20
    project.commit("big test file")
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    run = bounded_impact(project, "--dry-run", "--format", "json")
    decision = decided(run)
    assert "tests/test_big.py" in [t["node_id"] for t in decision["selected"]]  # the file, whole
    assert "tests/test_big.py is larger than 2 MB" in run.stderr
    assert any("tests/test_big.py" in w for w in decision["warnings"])
    # The warning is said on a warm run too (the facts come from the cache).
    assert "tests/test_big.py is larger than 2 MB" in bounded_impact(project, "--dry-run").stderr


def test_oversized_module_is_analysed_at_file_level(project):
    project.write("src/pkg/big.py", "from pkg.beta import beta\n\n\n" + big_module(BIG))
    project.write("tests/test_big.py", "from pkg.big import generated_1\n\n\ndef test_big():\n"
                  "    assert generated_1(1) == 2\n")
    project.commit("big module")
    # A change inside a function nothing calls would select nothing at symbol level: at file level
    # every test importing the module runs.
    project.replace("src/pkg/big.py", "return x + 7  #", "return x - 7  #")
    decision = decided(bounded_impact(project, "--dry-run", "--format", "json"))
    assert selected_ids(decision) == ["tests/test_big.py"]
    # ...and its imports were read: a change to beta reaches it through big.py.
    project.git("checkout", "src/pkg/big.py")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    decision = decided(bounded_impact(project, "--dry-run", "--format", "json"))
    assert selected_ids(decision) == sorted(BETA + ["tests/test_big.py"])


def test_oversized_file_is_fast(project):
    import time
    project.write("src/pkg/big.py", big_module(BIG * 6))  # ~18 MB
    start = time.monotonic()
    decided(bounded_impact(project, "--dry-run", "--format", "json"))
    assert time.monotonic() - start < 20


# --- a link's facts follow its target's content ----------------------------------------------------

def test_symlinked_test_file_is_not_read_from_stale_cached_facts(repo_factory):
    # git stores the link's target path, which does not change when the target is edited: facts
    # cached under the link's own blob id would keep the target's old tests.
    repo = repo_factory(files={**PROJECT, "extra/checks.py": "from pkg.alpha import alpha\n\n\n"
                                                            "def test_a():\n    assert alpha() == 1\n"},
                        commit=False)
    os.symlink("../extra/checks.py", repo.path / "tests/test_link.py")
    repo.commit("linked test file")
    repo.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    decided(bounded_impact(repo, "--dry-run", "--format", "json"))  # a Python change: the facts cache is written
    repo.git("checkout", "src/pkg/beta.py")
    assert list((repo.path / ".impact_cache").glob("facts-*.bin"))
    repo.write("extra/checks.py", repo.read("extra/checks.py") +
               "\n\ndef test_b():\n    from pkg.beta import beta\n    assert beta() == 2\n")
    repo.commit("a second test in the target")
    repo.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    decision = decided(bounded_impact(repo, "--dry-run", "--format", "json"))
    assert "tests/test_link.py::test_b" in [t["node_id"] for t in decision["selected"]]  # baseline: nothing


@pytest.mark.parametrize("name", [".gitignore", ".gitattributes", ".git/info/exclude"])
def test_fifo_named_like_a_file_git_reads_is_a_clear_error(project, name):
    # git itself blocks on these (git status hangs); impact says so instead.
    path = project.path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    assert_error(bounded_impact(project, "--dry-run"), name, "not a regular file")
