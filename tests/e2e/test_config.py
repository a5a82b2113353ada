"""Configuration end to end: for every [tool.impact] key the effective value comes from the flag, else the
environment variable, else pyproject.toml, else the default; `impact config` (text and JSON) says which,
and the run really uses that value. Every configuration error stops the run at start-up with exit 2 and
one line naming the file (or variable, or flag), the key and the fix, even when the run would not use
the key and even when a higher layer overrides it."""
import json
import stat
from pathlib import Path

import pytest

from gitutil import ALPHA, PROJECT, assert_error
from harness import selected_files, selected_ids

SCRIPT = "#!/bin/sh\nexit 0\n"


def project(repo_factory, table=None, extra=None):
    """The two-module project, with `table` as its [tool.impact] (committed, so it is not a change)."""
    files = dict(PROJECT)
    if table is not None:
        files["pyproject.toml"] = PROJECT["pyproject.toml"] + "\n[tool.impact]\n" + table
    files.update(extra or {})
    repo = repo_factory(files=files, commit=False)
    for rel in (extra or {}):
        if rel.endswith(".sh"):
            path = repo.path / rel
            path.chmod(path.stat().st_mode | stat.S_IEXEC)
    repo.commit("base")
    return repo


def settings(repo, *args, env=None):
    """`impact config --format json` as {key: (value, source)}."""
    run = repo.impact("config", "--format", "json", *args, env=env)
    assert run.returncode == 0, run.stderr
    doc = run.json
    assert (doc["schema"], doc["version"]) == ("impact.config", 1)
    assert set(doc["settings"]) == {"pytest-command", "fallback-command", "ignore", "always-run", "triggers", "mode",
                                    "strict", "use-index", "projects", "cache-remote"}
    return {key: (entry["value"], entry["source"]) for key, entry in doc["settings"].items()}


def edit_alpha(repo):
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")


# --- precedence, key by key ---------------------------------------------------------------------------
# Each test walks the layers upwards: default, pyproject.toml, + the variable, + the flag; at each step
# `impact config` names the winner and the decision shows the run uses its value.

def test_mode_precedence(repo_factory):
    bare = project(repo_factory)
    edit_alpha(bare)
    assert settings(bare)["mode"] == ("balanced", "default")
    assert bare.decide()["mode"]["requested"] == "balanced"

    repo = project(repo_factory, 'mode = "fast"\n')
    edit_alpha(repo)
    steps = [
        ({}, [], "fast", "pyproject.toml"),
        ({"IMPACT_MODE": "safe"}, [], "safe", "IMPACT_MODE"),
        ({"IMPACT_MODE": "safe"}, ["--mode", "balanced"], "balanced", "--mode"),
    ]
    for env, flags, value, source in steps:
        assert settings(repo, *flags, env=env)["mode"] == (value, source)
        assert repo.decide(*flags, env=env)["mode"]["requested"] == value
    # A flag over the default alone, and a variable over the default alone.
    assert settings(bare, "--mode", "safe")["mode"] == ("safe", "--mode")
    assert settings(bare, env={"IMPACT_MODE": "fast"})["mode"] == ("fast", "IMPACT_MODE")


def test_strict_precedence_both_ways(repo_factory):
    bare = project(repo_factory)
    assert settings(bare)["strict"] == (False, "default")
    repo = project(repo_factory, "strict = true\n")
    edit_alpha(repo)
    steps = [
        ({}, [], True, "pyproject.toml"),
        ({"IMPACT_STRICT": "0"}, [], False, "IMPACT_STRICT"),
        ({"IMPACT_STRICT": "0"}, ["--strict"], True, "--strict"),
        ({"IMPACT_STRICT": "1"}, ["--no-strict"], False, "--no-strict"),
    ]
    for env, flags, value, source in steps:
        assert settings(repo, *flags, env=env)["strict"] == (value, source)
        assert repo.decide(*flags, env=env)["mode"]["strict"] is value


def test_strict_and_no_strict_together_is_a_usage_error(repo_factory):
    assert_error(project(repo_factory).impact("--strict", "--no-strict", "--dry-run"), "--strict", "--no-strict")


def test_pytest_command_precedence(repo_factory):
    scripts = {f"bin/{name}.sh": SCRIPT for name in ("from-file", "from-env", "from-flag")}
    bare = project(repo_factory, extra=scripts)
    assert settings(bare)["pytest-command"] == (None, "default")

    repo = project(repo_factory, 'pytest-command = ["bin/from-file.sh", "--file"]\n', extra=scripts)
    edit_alpha(repo)
    env_script = str(repo.path / "bin/from-env.sh")
    flag = ["--pytest-command", json.dumps(["bin/from-flag.sh", "--flag"])]
    steps = [
        ({}, [], ["bin/from-file.sh", "--file"], "pyproject.toml", "pytest-command in pyproject.toml"),
        ({"IMPACT_PYTEST": env_script}, [], [env_script], "IMPACT_PYTEST", "IMPACT_PYTEST"),
        ({"IMPACT_PYTEST": env_script}, flag, ["bin/from-flag.sh", "--flag"], "--pytest-command", "--pytest-command"),
    ]
    for env, flags, value, source, command_source in steps:
        assert settings(repo, *flags, env=env)["pytest-command"] == (value, source)
        decision = repo.decide(*flags, env=env)
        assert decision["command"]["source"] == command_source
        assert decision["command"]["argv"] == value
        assert decision["argv"] == value + selected_ids(decision)
        assert selected_files(decision) == ALPHA


def test_pytest_command_from_the_flag_runs(repo_factory, tmp_path):
    record = tmp_path / "argv.txt"
    repo = project(repo_factory, 'pytest-command = ["false"]\n',
                   extra={"bin/record.sh": f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {record}\nexit 7\n"})
    edit_alpha(repo)
    expected = selected_ids(repo.decide())
    run = repo.impact("--pytest-command", '["bin/record.sh", "-q"]', env={"IMPACT_PYTEST": "/bin/false"})
    assert run.returncode == 7, run.stderr
    assert record.read_text().split() == ["-q", *expected]


def test_fallback_command_precedence(repo_factory):
    scripts = {f"bin/{name}.sh": SCRIPT for name in ("fb-file", "fb-env", "fb-flag")}
    bare = project(repo_factory, extra=scripts)
    assert settings(bare)["fallback-command"] == (None, "default")
    push = {"CI": "true"}  # a push build: run_all, reason no_ci_base
    assert bare.decide(env=push)["command"]["fallback"] is False

    repo = project(repo_factory, 'fallback-command = ["bin/fb-file.sh", "--file"]\n', extra=scripts)
    steps = [
        ({}, [], ["bin/fb-file.sh", "--file"], "pyproject.toml", "fallback-command in pyproject.toml"),
        ({"IMPACT_FALLBACK_COMMAND": '["bin/fb-env.sh"]'}, [], ["bin/fb-env.sh"], "IMPACT_FALLBACK_COMMAND",
         "IMPACT_FALLBACK_COMMAND"),
        ({"IMPACT_FALLBACK_COMMAND": '["bin/fb-env.sh"]'}, ["--fallback-command", '["bin/fb-flag.sh", "-x"]'],
         ["bin/fb-flag.sh", "-x"], "--fallback-command", "--fallback-command"),
    ]
    for env, flags, value, source, command_source in steps:
        assert settings(repo, *flags, env=env)["fallback-command"] == (value, source)
        decision = repo.decide(*flags, env={**push, **env})
        assert (decision["decision"], decision["reason"]) == ("run_all", "no_ci_base")
        assert decision["command"]["fallback"] is True
        assert decision["command"]["source"] == command_source
        # The program is resolved from the repository root; the rest of the argv is untouched.
        assert decision["argv"] == [str(repo.path / value[0]), *value[1:]]


def test_ignore_precedence_replaces_the_lower_layer(repo_factory):
    extra = {"notes.md": "# notes\n", "notes.txt": "notes\n"}
    bare = project(repo_factory, extra=extra)
    assert settings(bare)["ignore"] == ([], "default")
    bare.write("notes.md", "# changed\n")
    assert bare.decide()["decision"] == "run_all"  # a non-Python change, not ignored

    repo = project(repo_factory, 'ignore = ["*.md"]\n', extra=extra)
    repo.write("notes.md", "# changed\n")
    steps = [
        # ignored by the file: nothing can be affected
        ({}, [], ["*.md"], "pyproject.toml", "nothing"),
        # the variable replaces the list: *.md is no longer ignored
        ({"IMPACT_IGNORE": '["*.txt"]'}, [], ["*.txt"], "IMPACT_IGNORE", "run_all"),
        # the flag replaces both
        ({"IMPACT_IGNORE": '["*.txt"]'}, ["--ignore", "*.md", "--ignore", "docs/"], ["*.md", "docs/"], "--ignore",
         "nothing"),
    ]
    for env, flags, value, source, outcome in steps:
        assert settings(repo, *flags, env=env)["ignore"] == (value, source)
        decision = repo.decide(*flags, env=env)
        assert decision["decision"] == outcome, decision["reason"]
        kind = {f["path"]: f["kind"] for f in decision["changed_files"]}["notes.md"]
        assert (kind == "ignored") == (outcome == "nothing")
    # An empty list from the variable clears the configured one.
    assert settings(repo, env={"IMPACT_IGNORE": "[]"})["ignore"] == ([], "IMPACT_IGNORE")
    assert repo.decide(env={"IMPACT_IGNORE": "[]"})["decision"] == "run_all"


def test_use_index_precedence_both_ways(repo_factory):
    repo = project(repo_factory, "use-index = false\n")
    built = repo.impact("index")
    assert built.returncode == 0, built.stdout + built.stderr
    edit_alpha(repo)
    # The index is there; only the settings decide whether it is used.
    steps = [
        ({}, [], False, "pyproject.toml"),
        ({"IMPACT_NO_INDEX": "0"}, [], True, "IMPACT_NO_INDEX"),
        ({"IMPACT_NO_INDEX": "0"}, ["--no-index"], False, "--no-index"),
        ({"IMPACT_NO_INDEX": "1"}, ["--use-index"], True, "--use-index"),
    ]
    for env, flags, value, source in steps:
        assert settings(repo, *flags, env=env)["use-index"] == (value, source)
        decision = repo.decide(*flags, env=env)
        assert (decision["index"] is not None) is value, (env, flags, decision["index"])
        assert selected_files(decision) == ALPHA
    bare = project(repo_factory)
    assert settings(bare)["use-index"] == (True, "default")


def test_config_text_output_names_the_source_of_each_value(repo_factory):
    repo = project(repo_factory, 'mode = "fast"\nignore = ["docs/"]\n')
    run = repo.impact("config", "--mode", "safe", env={"IMPACT_STRICT": "1"})
    assert run.returncode == 0, run.stderr
    # key, value, source: the value may hold spaces, the key and the source do not
    lines = {}
    for line in run.stdout.splitlines()[1:]:
        key, rest = line.split(None, 1)
        value, source = rest.rsplit(None, 1)
        lines[key] = [value.strip(), source]
    assert lines["mode"] == ["safe", "--mode"]
    assert lines["strict"] == ["true", "IMPACT_STRICT"]
    assert lines["ignore"] == ['["docs/"]', "pyproject.toml"]
    assert lines["use-index"] == ["true", "default"]
    assert lines["fallback-command"] == ["(not set)", "default"]
    assert lines["always-run"] == ["[]", "default"]
    assert lines["projects"] == ["(not set)", "default"]
    assert lines["cache-remote"] == ["(not set)", "default"]
    assert len(lines) == 10
    assert str(repo.path / "pyproject.toml") in run.stdout.splitlines()[0]
    doc = repo.impact("config", "--format", "json").json
    assert doc["file"] == str(repo.path / "pyproject.toml")
    assert project(repo_factory).impact("config", "--format", "json").json["file"] is None


# --- every configuration error ------------------------------------------------------------------------
# (table, env, flags, words the one-line message must contain: where, what and the fix)

ERRORS = {
    "unknown-key-near-miss": ('ignroe = ["docs/"]\n', {}, [], ["pyproject.toml", "ignroe", "did you mean 'ignore'"]),
    "unknown-key": ('colour = true\n', {}, [], ["pyproject.toml", "unknown key 'colour'", "remove it"]),
    "pytest-command-string": ('pytest-command = "uv run pytest"\n', {}, [],
                              ["pyproject.toml", "pytest-command", "array of strings", '["uv", "run", "pytest"]']),
    "pytest-command-empty": ("pytest-command = []\n", {}, [], ["pyproject.toml", "pytest-command", "is empty", "give"]),
    "pytest-command-empty-program": ('pytest-command = ["", "-q"]\n', {}, [], ["pytest-command", "is empty"]),
    "fallback-command-empty": ("fallback-command = []\n", {}, [], ["pyproject.toml", "fallback-command", "is empty"]),
    "fallback-command-number": ('fallback-command = ["ci", 1]\n', {}, [],
                                ["pyproject.toml", "fallback-command", "only strings", "quote"]),
    "ignore-string": ('ignore = "docs/"\n', {}, [], ["pyproject.toml", "ignore", "array of strings"]),
    "mode-unknown": ('mode = "quick"\n', {}, [], ["pyproject.toml", "mode", "quick", "use fast, balanced or safe"]),
    "mode-number": ("mode = 1\n", {}, [], ["pyproject.toml", "mode", "must be a string"]),
    "strict-string": ('strict = "yes"\n', {}, [], ["pyproject.toml", "strict", "true or false"]),
    "use-index-number": ("use-index = 0\n", {}, [], ["pyproject.toml", "use-index", "true or false"]),
    "env-mode": (None, {"IMPACT_MODE": "quick"}, [], ["IMPACT_MODE", "quick", "use fast"]),
    "env-strict": (None, {"IMPACT_STRICT": "maybe"}, [], ["IMPACT_STRICT", "use 1 or 0"]),
    "env-no-index": (None, {"IMPACT_NO_INDEX": "2"}, [], ["IMPACT_NO_INDEX", "use 1 or 0"]),
    "env-fallback-shell-string": (None, {"IMPACT_FALLBACK_COMMAND": "make test"}, [],
                                  ["IMPACT_FALLBACK_COMMAND", "JSON array", "like"]),
    "env-fallback-empty": (None, {"IMPACT_FALLBACK_COMMAND": "[]"}, [], ["IMPACT_FALLBACK_COMMAND", "empty"]),
    "env-fallback-number": (None, {"IMPACT_FALLBACK_COMMAND": '["a", 1]'}, [],
                            ["IMPACT_FALLBACK_COMMAND", "not a string", "quote"]),
    "env-fallback-empty-program": (None, {"IMPACT_FALLBACK_COMMAND": '["", "x"]'}, [],
                                   ["IMPACT_FALLBACK_COMMAND", "program name is empty"]),
    "env-ignore": (None, {"IMPACT_IGNORE": "docs/"}, [], ["IMPACT_IGNORE", "JSON array"]),
    "flag-fallback-empty": (None, {}, ["--fallback-command", "[]"], ["--fallback-command", "empty"]),
    "flag-pytest-shell-string": (None, {}, ["--pytest-command", "uv run pytest"], ["--pytest-command", "JSON array"]),
    "flag-mode": (None, {}, ["--mode", "quick"], ["unknown mode 'quick'"]),
    "flag-output": (None, {}, ["--output", "gitlab"], ["--output", "gitlab", "use github"]),
    # A bad layer is an error even when a higher layer overrides the key.
    "overridden-by-env": ("fallback-command = []\n", {"IMPACT_FALLBACK_COMMAND": '["make"]'}, [],
                          ["pyproject.toml", "fallback-command", "is empty"]),
    "overridden-by-flag": ('mode = "quick"\n', {}, ["--mode", "fast"], ["pyproject.toml", "mode", "quick"]),
    "env-overridden-by-flag": (None, {"IMPACT_STRICT": "maybe"}, ["--no-strict"], ["IMPACT_STRICT"]),
}


@pytest.mark.parametrize("case", list(ERRORS), ids=list(ERRORS))
def test_configuration_errors_stop_at_start_up(repo_factory, case):
    table, env, flags, words = ERRORS[case]
    repo = project(repo_factory, table)
    # Nothing changed, so no key would be used: the error comes anyway, from the run and every command
    # that reads the configuration.
    for args in ([], ["--dry-run"], ["config"]):
        assert_error(repo.impact(*args, *flags, env=env), *words)


def test_not_a_table(repo_factory):
    files = dict(PROJECT)
    files["pyproject.toml"] = PROJECT["pyproject.toml"] + "\n[tool]\nimpact = 1\n"
    assert_error(repo_factory(files=files).impact(), "pyproject.toml", "[tool.impact]", "must be a table")


def test_malformed_toml_names_file_line_and_column(repo_factory):
    files = dict(PROJECT)
    files["pyproject.toml"] = '[tool.impact]\nmode = "fast\n'
    repo = repo_factory(files=files)
    for args in ([], ["config"]):
        msg = assert_error(repo.impact(*args), "fix the TOML syntax")
        assert msg.startswith("impact: error: pyproject.toml:2:"), msg


def test_a_valid_configuration_with_every_key_runs(repo_factory):
    repo = project(repo_factory, 'pytest-command = ["/usr/bin/python3", "-m", "pytest"]\n'
                                 'fallback-command = ["bin/fb.sh"]\nignore = ["docs/"]\nmode = "safe"\n'
                                 "strict = true\nuse-index = true\n", extra={"bin/fb.sh": SCRIPT})
    edit_alpha(repo)
    run = repo.impact()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_config_shows_always_run_and_triggers_from_pyproject(repo_factory):
    repo = project(repo_factory, 'always-run = ["tests/test_a.py"]\n'
                                 'triggers = [{ name = "db", paths = ["db/*.sql"], run = "all" }]\n')
    got = settings(repo)
    assert got["always-run"] == (["tests/test_a.py"], "pyproject.toml")
    assert got["triggers"] == ([{"name": "db", "paths": ["db/*.sql"], "run": "all"}], "pyproject.toml")


def test_cache_remote_comes_from_the_flag_the_variable_or_the_file(repo_factory, tmp_path):
    repo = project(repo_factory, 'cache-remote = "../shared"\n')
    root = Path(repo.path)
    in_file = settings(repo)["cache-remote"]
    assert in_file[1] == "pyproject.toml"
    assert Path(in_file[0]).resolve() == (root.parent / "shared").resolve()  # relative to the repository root
    assert settings(repo, env={"IMPACT_CACHE_REMOTE": str(tmp_path / "env")})["cache-remote"] == (
        str(tmp_path / "env"), "IMPACT_CACHE_REMOTE")
    assert settings(repo, "--cache-remote", str(tmp_path / "flag"),
                    env={"IMPACT_CACHE_REMOTE": str(tmp_path / "env")})["cache-remote"] == (
        str(tmp_path / "flag"), "--cache-remote")
    assert_error(project(repo_factory, 'cache-remote = ""\n').impact("config"), "pyproject.toml", "cache-remote")
