"""The fallback command end to end: on run_all impact execs [tool.impact] fallback-command (resolved from the
repository root) instead of the whole suite, with IMPACT_FALLBACK_REASON in its environment and the versioned
JSON payload on its standard input, read from an already-unlinked temporary file; its exit code is the answer.
A fallback that cannot be started exits 2 naming the path and where it was configured; --dry-run shows what
would be exec'd and runs nothing."""
import json
import stat
import subprocess

import pytest

from gitutil import PROJECT, git_hunks, rev
from harness import IMPACT, clean_env

# Records what it was given (argv, cwd, reason, what its stdin is, the payload) into $RECORD.
RECORDER = """#!/usr/bin/python3
import json, os, stat, sys
st = os.fstat(0)
out = {"argv": sys.argv[1:], "cwd": os.getcwd(), "reason": os.environ.get("IMPACT_FALLBACK_REASON"),
       "stdin_target": os.readlink("/proc/self/fd/0"), "stdin_is_file": stat.S_ISREG(st.st_mode),
       "stdin_links": st.st_nlink}
out["payload"] = sys.stdin.read()
with open(os.environ["RECORD"], "w") as f:
    json.dump(out, f)
sys.exit(int(os.environ.get("EXIT_CODE", "0")))
"""

# Never reads its standard input.
IGNORER = """#!/bin/sh
echo "started $IMPACT_FALLBACK_REASON" > "$RECORD"
exit 3
"""


def project(repo_factory, table='fallback-command = ["bin/fallback", "--from-impact"]\n', script=RECORDER,
            extra=None):
    files = {**PROJECT, "data.txt": "".join(f"line {i}\n" for i in range(6000))}
    files["pyproject.toml"] = PROJECT["pyproject.toml"] + "\n[tool.impact]\n" + table
    if script is not None:
        files["bin/fallback"] = script
    files.update(extra or {})
    repo = repo_factory(files=files, commit=False)
    if script is not None:
        path = repo.path / "bin/fallback"
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    repo.commit("base")
    return repo


def edit_data(repo, every=1):
    """A non-Python change (run_all, non_python_changed); every=2 changes every other line of 6000."""
    repo.write("data.txt", "".join(f"line {i}{' changed' if i % every == 0 else ''}\n" for i in range(6000)))


@pytest.fixture
def record(tmp_path):
    return tmp_path / "record.json"


def test_fallback_gets_reason_and_payload_and_its_exit_code_is_the_answer(repo_factory, record):
    repo = project(repo_factory)
    repo.replace("data.txt", "line 7\n", "line 7 changed\n")
    decision = repo.decide()
    assert (decision["decision"], decision["reason"]) == ("run_all", "non_python_changed")

    # Started from a subfolder with pytest arguments: neither reaches the fallback.
    run = repo.impact("--", "-x", "-k", "alpha", env={"RECORD": str(record), "EXIT_CODE": "37"},
                      cwd=repo.path / "src")
    assert run.returncode == 37, run.stderr
    assert "impact: full suite: non_python_changed" in run.stderr
    assert "impact: delegating to the fallback" in run.stderr and "fallback-command in pyproject.toml" in run.stderr
    got = json.loads(record.read_text())
    assert got["argv"] == ["--from-impact"]
    assert got["cwd"] == str(repo.path)
    assert got["reason"] == "non_python_changed"
    # Standard input is a regular file that no longer has a name.
    assert got["stdin_is_file"] and got["stdin_links"] == 0
    assert got["stdin_target"].endswith("(deleted)"), got["stdin_target"]

    payload = json.loads(got["payload"])
    assert payload["schema"] == "impact.fallback" and payload["version"] == 1
    assert payload["impact_version"] == decision["impact_version"]
    assert payload["reason"] == got["reason"] == decision["reason"]
    assert payload["detail"] == decision["detail"] and "data.txt" in payload["detail"]
    assert payload["root"] == str(repo.path)
    assert payload["argv"] == [str(repo.path / "bin/fallback"), "--from-impact"]
    assert payload["mode"] == {"requested": "balanced", "effective": "balanced", "strict": False}
    assert payload["base"] == {"mode": "working_tree", "rev": "HEAD", "commit": rev(repo.path), "merge_base": False,
                               "source": "default"}
    assert payload["changed_files"] == [{
        "path": "data.txt", "old_path": None, "status": "modified", "kind": "non_python",
        "effect": "run_all: non_python_changed", "binary": False, "untracked": False,
        "hunks": git_hunks(repo.path, file="data.txt"),
    }]
    assert payload["changed_files"][0]["hunks"] == [[8, 1, 8, 1]]
    assert payload["uncertainties"] == [] and payload["warnings"] == []
    assert set(payload) == {"schema", "version", "impact_version", "reason", "detail", "root", "argv", "mode", "base",
                            "changed_files", "uncertainties", "warnings"}


def test_payload_lists_renames_and_untracked_files(repo_factory, record):
    repo = project(repo_factory)
    repo.git("mv", "data.txt", "moved.txt")
    repo.write("new.cfg", "x = 1\n")
    run = repo.impact(env={"RECORD": str(record)})
    assert run.returncode == 0, run.stderr
    files = {f["path"]: f for f in json.loads(json.loads(record.read_text())["payload"])["changed_files"]}
    assert files["moved.txt"]["status"] == "renamed" and files["moved.txt"]["old_path"] == "data.txt"
    assert files["new.cfg"]["status"] == "added" and files["new.cfg"]["untracked"] is True


def test_a_fallback_that_never_reads_a_large_payload_neither_blocks_nor_leaves_anything(repo_factory, record,
                                                                                         tmp_path):
    repo = project(repo_factory, script=IGNORER)
    edit_data(repo, every=2)  # 3000 hunks: far more than a pipe holds
    payload = _payload_via_recorder(repo_factory, tmp_path)
    assert len(payload) > 128 * 1024, len(payload)  # more than a pipe holds (64 KiB), twice over
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    result = subprocess.run([IMPACT], cwd=repo.path, capture_output=True, text=True, timeout=60,
                            env=clean_env({"RECORD": str(record), "TMPDIR": str(tmp)}))
    assert result.returncode == 3, result.stderr
    assert record.read_text() == "started non_python_changed\n"
    assert list(tmp.iterdir()) == []  # the payload's file was unlinked before the exec


def _payload_via_recorder(repo_factory, tmp_path):
    """The payload of the same large change, read by the recorder."""
    repo = project(repo_factory)
    edit_data(repo, every=2)
    record = tmp_path / "large.json"
    run = repo.impact(env={"RECORD": str(record)})
    assert run.returncode == 0, run.stderr
    payload = json.loads(record.read_text())["payload"]
    assert len(json.loads(payload)["changed_files"][0]["hunks"]) == 3000
    return payload


def test_push_build_delegates_with_reason_no_ci_base(repo_factory, record):
    repo = project(repo_factory)
    run = repo.impact(env={"RECORD": str(record), "CI": "true"})
    assert run.returncode == 0, run.stderr
    got = json.loads(record.read_text())
    payload = json.loads(got["payload"])
    assert got["reason"] == payload["reason"] == "no_ci_base"
    assert "--changed" in payload["detail"]
    assert payload["changed_files"] == []
    assert payload["base"]["commit"] == rev(repo.path)


@pytest.mark.parametrize("where", ["config", "env", "flag"])
def test_fallback_from_each_layer_is_execd(repo_factory, record, where):
    repo = project(repo_factory, table="", extra={"bin/other": "#!/bin/sh\nexit 9\n"})
    args, env = [], {"RECORD": str(record)}
    if where == "config":
        repo = project(repo_factory)
    elif where == "env":
        env["IMPACT_FALLBACK_COMMAND"] = '["bin/fallback", "--from-env"]'
    else:
        args = ["--fallback-command", '["bin/fallback", "--from-flag"]']
        env["IMPACT_FALLBACK_COMMAND"] = '["bin/other"]'  # the flag wins
    edit_data(repo)
    run = repo.impact(*args, env=env)
    assert run.returncode == 0, run.stderr
    argv = json.loads(record.read_text())["argv"]
    assert argv == {"config": ["--from-impact"], "env": ["--from-env"], "flag": ["--from-flag"]}[where]


def test_selected_and_nothing_never_start_the_fallback(repo_factory, record):
    repo = project(repo_factory)
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    run = repo.impact(env={"RECORD": str(record)})
    assert run.returncode == 0, run.stderr
    assert "1 passed" in run.stdout  # pytest ran the selection
    repo.replace("src/pkg/alpha.py", "return 1 + 0", "return 1")
    repo.write("src/pkg/unused.py", "X = 1\n")
    run = repo.impact(env={"RECORD": str(record)})
    assert run.returncode == 0 and "nothing to run" in run.stderr
    assert not record.exists()


# --- a fallback that cannot be started ------------------------------------------------------------------

@pytest.mark.parametrize("where, source", [
    ("config", "fallback-command in pyproject.toml"),
    ("env", "IMPACT_FALLBACK_COMMAND"),
    ("flag", "--fallback-command"),
])
def test_missing_fallback_exits_2_naming_path_and_source(repo_factory, where, source):
    missing = '["scripts/missing.sh", "--all"]'
    table = f"fallback-command = {missing}\n" if where == "config" else ""
    repo = project(repo_factory, table=table, script=None)
    edit_data(repo)
    env = {"IMPACT_FALLBACK_COMMAND": missing} if where == "env" else {}
    args = ["--fallback-command", missing] if where == "flag" else []
    run = repo.impact(*args, env=env)
    assert run.returncode == 2
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("impact: error: cannot start the fallback scripts/missing.sh"), last
    assert source in last and str(repo.path) in last
    # The dry run says the same and exits 0; nothing is run either way.
    dry = repo.impact("--dry-run", *args, env=env)
    assert dry.returncode == 0 and "cannot run: cannot start the fallback scripts/missing.sh" in dry.stdout
    doc = repo.decide(*args, env=env)
    assert doc["command"] is None and source in doc["problem"]


def test_fallback_that_is_not_executable_or_not_on_path(repo_factory):
    repo = project(repo_factory, extra={"bin/plain": "#!/bin/sh\nexit 0\n"},
                   table='fallback-command = ["bin/plain"]\n')
    edit_data(repo)
    msg = repo.impact().stderr.strip().splitlines()[-1]
    assert "bin/plain" in msg and "chmod +x" in msg
    repo2 = project(repo_factory, table='fallback-command = ["no-such-program-anywhere"]\n', script=None)
    edit_data(repo2)
    run = repo2.impact()
    assert run.returncode == 2 and "no-such-program-anywhere" in run.stderr and "on PATH" in run.stderr


def test_a_missing_fallback_is_no_error_when_the_outcome_does_not_need_it(repo_factory):
    repo = project(repo_factory, table='fallback-command = ["scripts/missing.sh"]\n', script=None)
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    run = repo.impact()
    assert run.returncode == 0 and "1 passed" in run.stdout


def test_bare_program_name_is_found_on_path(repo_factory, tmp_path, record):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    program = bindir / "impact-fallback-test"
    program.write_text(RECORDER)
    program.chmod(0o755)
    repo = project(repo_factory, table='fallback-command = ["impact-fallback-test", "a b"]\n', script=None)
    edit_data(repo)
    env = {"RECORD": str(record), "PATH": f"{bindir}:/usr/bin:/bin"}
    assert repo.decide(env=env)["argv"] == [str(program), "a b"]
    run = repo.impact(env=env)
    assert run.returncode == 0, run.stderr
    assert json.loads(record.read_text())["argv"] == ["a b"]  # an argv element is never split


# --- dry run ---------------------------------------------------------------------------------------------

def test_dry_run_shows_the_fallback_and_runs_nothing(repo_factory, record):
    repo = project(repo_factory)
    edit_data(repo)
    run = repo.impact("--dry-run", "--", "-x", env={"RECORD": str(record)})
    assert run.returncode == 0, run.stderr
    assert not record.exists()
    out = run.stdout
    assert "would exec the fallback (reason: non_python_changed), from fallback-command in pyproject.toml" in out
    argv_block = out.split("\nargv\n", 1)[1].splitlines()
    assert [line.strip() for line in argv_block[:2]] == [str(repo.path / "bin/fallback"), "--from-impact"]
    assert "-x" not in [line.strip() for line in argv_block]
    assert "environment: IMPACT_FALLBACK_REASON=non_python_changed" in out
    stdin_line = next(line for line in out.splitlines() if line.startswith("stdin: "))
    assert "impact.fallback version 1" in stdin_line and "1 changed file(s)" in stdin_line

    doc = repo.decide(env={"RECORD": str(record)})
    assert not record.exists()
    assert doc["command"] == {"argv": [str(repo.path / "bin/fallback"), "--from-impact"],
                              "source": "fallback-command in pyproject.toml", "fallback": True}
    assert doc["argv"] == doc["command"]["argv"]


def test_without_a_fallback_run_all_runs_the_whole_suite(repo_factory):
    repo = project(repo_factory, table="", script=None)
    edit_data(repo)
    run = repo.impact()
    assert run.returncode == 0, run.stderr
    assert "2 passed" in run.stdout
    assert "delegating" not in run.stderr


def test_replayed_run_all_delegates_with_a_null_base(repo_factory, record, tmp_path):
    repo = project(repo_factory)
    repo.replace("data.txt", "line 7\n", "line 7 changed\n")
    saved = repo.impact("select", "--format", "json")
    assert saved.returncode == 0, saved.stderr
    report = tmp_path / "impact.json"
    report.write_text(saved.stdout)
    run = repo.impact("--impact", str(report), env={"RECORD": str(record)})
    assert run.returncode == 0, run.stderr
    got = json.loads(record.read_text())
    payload = json.loads(got["payload"])
    assert got["reason"] == payload["reason"] == "non_python_changed"
    assert payload["base"] is None  # no diff was taken: nothing pretends to describe one
    [entry] = payload["changed_files"]
    assert (entry["path"], entry["kind"], entry["hunks"], entry["untracked"]) == ("data.txt", "non_python", None, None)


def test_fallback_whose_interpreter_is_missing_exits_2(repo_factory):
    # Executable, so it resolves; the exec itself fails (ENOENT from the #! line).
    repo = project(repo_factory, script="#!/no/such/interpreter\nexit 0\n")
    edit_data(repo)
    run = repo.impact()
    assert run.returncode == 2
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"impact: error: cannot run {repo.path / 'bin/fallback'} (from fallback-command in "
                           "pyproject.toml)"), last
