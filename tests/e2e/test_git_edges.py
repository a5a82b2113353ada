"""Stage 1 (changes) against real repositories built with the git CLI: the shapes of git state that a
test-impact selector meets in the wild (detached HEAD, worktrees, submodules, symlinks, odd file
names, CRLF, binaries, untracked trees, renames, shallow clones) and the errors it must explain.

Line ranges are checked against hand-computed numbers and against `git diff -U0` itself."""
import os
import re
import subprocess

import pytest

from gitutil import (ALPHA, BETA, BOTH, PROJECT, assert_error, changes, clone, decision_summary, files_by_path,
                     git_hunks, paths, rev, run_git)
# These tests are about what is compared (stage 1), so they compare the test files selected.
from harness import Repo, clean_env
from harness import selected_files as selected_ids


@pytest.fixture
def project(repo_factory):
    return repo_factory(files=PROJECT)


# --- where HEAD is ---------------------------------------------------------------------------------

def test_detached_head_compares_with_the_detached_commit(project):
    first = rev(project.path)
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    project.commit("beta on main")
    project.git("checkout", "-q", "--detach", first)
    assert project.git("symbolic-ref", "-q", "HEAD", check=False) == ""  # really detached
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")

    decision = project.decide()
    assert decision["base"]["commit"] == first
    assert decision["base"]["merge_base"] is False
    assert paths(decision) == ["src/pkg/alpha.py"]  # main's later beta commit is not part of it
    assert selected_ids(decision) == ALPHA


def test_detached_head_with_changed_rev(project):
    first = rev(project.path)
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    project.commit("beta")
    project.git("checkout", "-q", "--detach", "HEAD")
    decision = project.decide(f"--changed={first}")
    assert decision["base"]["commit"] == first
    assert decision["base"]["merge_base"] is True
    assert selected_ids(decision) == BETA


def test_linked_worktree_is_analysed_from_inside(project, tmp_path):
    wt_path = tmp_path / "wt"
    project.git("worktree", "add", "-q", "-b", "feature", str(wt_path))
    wt = Repo(wt_path)
    assert (wt_path / ".git").is_file()  # a linked worktree: .git is a file pointing at the main repo
    wt.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    # An edit in the main working tree must not leak into the worktree's change set, nor the reverse.
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")

    decision = wt.decide()
    assert decision["base"]["commit"] == rev(wt_path)
    assert paths(decision) == ["src/pkg/beta.py"]
    assert selected_ids(decision) == BETA
    assert decision["argv"][-1].split("::")[0] == "tests/test_beta.py"

    assert paths(changes(wt)) == ["src/pkg/beta.py"]
    assert selected_ids(project.decide()) == ALPHA


def test_linked_worktree_from_a_subdirectory_and_with_committed_branch_changes(project, tmp_path):
    wt_path = tmp_path / "wt"
    project.git("worktree", "add", "-q", "-b", "feature", str(wt_path))
    wt = Repo(wt_path)
    wt.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    wt.commit("alpha on feature")
    wt.replace("src/pkg/beta.py", "return 2", "return 2 + 0")

    decision = wt.decide("--changed=main")
    assert decision["base"]["commit"] == rev(project.path, "main")
    assert paths(decision) == ["src/pkg/alpha.py", "src/pkg/beta.py"]
    assert selected_ids(decision) == BOTH

    run = wt.impact("--changed=main", "--dry-run", "--format", "json", cwd=wt_path / "src" / "pkg")
    assert run.returncode == 0, run.stderr
    assert decision_summary(run.json) == decision_summary(decision)


# --- submodules ------------------------------------------------------------------------------------

def _with_submodule(repo_factory):
    lib = repo_factory(files={"lib.py": "X = 1\n"})
    main = repo_factory(files=PROJECT)
    main.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "vendor/lib")
    main.commit("add submodule")
    return main, Repo(main.path / "vendor" / "lib")


def test_submodule_whose_commit_changes_runs_everything(repo_factory):
    main, sub = _with_submodule(repo_factory)
    recorded = rev(sub.path)
    sub.write("lib.py", "X = 2\n")
    sub.commit("bump")
    assert rev(sub.path) != recorded

    doc = changes(main)
    assert paths(doc) == ["vendor/lib"]
    entry = files_by_path(doc)["vendor/lib"]
    assert entry["submodule"] is True
    assert entry["status"] == "modified"

    decision = main.decide()
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "submodule_changed"
    assert "vendor/lib" in decision["detail"]
    assert files_by_path(decision)["vendor/lib"]["kind"] == "submodule"

    # Staged, the new gitlink is what the next commit records.
    main.git("add", "vendor/lib")
    staged = main.decide("--staged")
    assert staged["reason"] == "submodule_changed"
    assert paths(staged) == ["vendor/lib"]


def test_untouched_submodule_has_no_effect(repo_factory):
    main, sub = _with_submodule(repo_factory)
    sub.write("scratch.txt", "untracked inside the submodule\n")  # untracked content is not a change
    main.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")

    doc = changes(main)
    assert paths(doc) == ["src/pkg/alpha.py"]
    decision = main.decide()
    assert decision["decision"] == "selected"
    assert selected_ids(decision) == ALPHA
    assert "vendor/lib" not in files_by_path(decision)


def test_clean_repository_with_a_submodule_has_no_changes(repo_factory):
    main, _ = _with_submodule(repo_factory)
    decision = main.decide()
    assert decision["decision"] == "nothing"
    assert decision["reason"] == "no_changes"
    assert decision["changed_files"] == []


def test_uninitialised_submodule_of_a_clone_is_not_a_change(repo_factory, tmp_path):
    # A CI checkout without --recurse-submodules leaves the submodule folder empty: not a change.
    main, _ = _with_submodule(repo_factory)
    copy = clone(main.path, tmp_path / "copy")
    assert list((copy.path / "vendor" / "lib").iterdir()) == []
    assert copy.git("status", "--porcelain") == ""
    assert changes(copy)["files"] == []
    copy.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    assert selected_ids(copy.decide()) == BETA


def test_removed_submodule_runs_everything(repo_factory):
    main, _ = _with_submodule(repo_factory)
    main.git("rm", "-q", "vendor/lib")
    for extra in ([], ["--staged"]):
        doc = changes(main, *extra)
        entry = files_by_path(doc)["vendor/lib"]
        assert entry["submodule"] is True and entry["status"] == "deleted", extra
        decision = main.decide(*extra)
        assert decision["decision"] == "run_all", extra
        assert files_by_path(decision)["vendor/lib"]["kind"] == "submodule"


# --- symlinks --------------------------------------------------------------------------------------

@pytest.fixture
def with_alias(repo_factory):
    """src/pkg/alias.py is a committed symlink to alpha.py; tests/test_alias.py imports pkg.alias."""
    repo = repo_factory(files={
        **PROJECT,
        "tests/test_alias.py": "from pkg.alias import alpha\n\n\ndef test_alias():\n    assert alpha() == 1\n",
    }, commit=False)
    os.symlink("alpha.py", repo.path / "src/pkg/alias.py")
    repo.commit("alias")
    assert repo.git("ls-files", "-s", "src/pkg/alias.py").startswith("120000")
    return repo


def test_new_symlinked_py_file_is_an_added_python_file(project):
    os.symlink("beta.py", project.path / "src/pkg/gamma.py")
    project.write("tests/test_gamma.py", "from pkg.gamma import beta\n\n\ndef test_gamma():\n    assert beta() == 2\n")
    doc = changes(project)
    assert paths(doc) == ["src/pkg/gamma.py", "tests/test_gamma.py"]
    gamma = files_by_path(doc)["src/pkg/gamma.py"]
    assert gamma["status"] == "added"
    assert gamma["untracked"] is True
    assert gamma["binary"] is False

    decision = project.decide()
    assert files_by_path(decision)["src/pkg/gamma.py"]["kind"] == "python"
    assert selected_ids(decision) == ["tests/test_gamma.py"]


def test_retargeted_symlink_selects_its_importers(with_alias):
    (with_alias.path / "src/pkg/alias.py").unlink()
    os.symlink("beta.py", with_alias.path / "src/pkg/alias.py")
    doc = changes(with_alias)
    assert paths(doc) == ["src/pkg/alias.py"]
    assert files_by_path(doc)["src/pkg/alias.py"]["status"] == "modified"
    assert selected_ids(with_alias.decide()) == ["tests/test_alias.py"]


def test_change_to_a_symlink_target_selects_the_importers_of_the_link(with_alias):
    # `import pkg.alias` executes alpha.py's code: changing alpha.py changes what test_alias runs.
    with_alias.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    assert selected_ids(with_alias.decide()) == ["tests/test_alias.py", "tests/test_alpha.py"]


def test_type_change_file_to_symlink(project):
    project.delete("src/pkg/beta.py")
    os.symlink("alpha.py", project.path / "src/pkg/beta.py")
    doc = changes(project)
    assert paths(doc) == ["src/pkg/beta.py"]
    assert files_by_path(doc)["src/pkg/beta.py"]["status"] == "type_changed"

    decision = project.decide()
    entry = files_by_path(decision)["src/pkg/beta.py"]
    assert entry["status"] == "type_changed"
    assert entry["kind"] == "python"
    assert selected_ids(decision) == BETA

    project.git("add", "-A")
    staged = changes(project, "--staged")
    assert files_by_path(staged)["src/pkg/beta.py"]["status"] == "type_changed"


# --- file names ------------------------------------------------------------------------------------

UNICODE_TEST = "tests/test_ünïcode file.py"
UNICODE_MODULE = "src/pkg/módulo.py"


@pytest.fixture
def unicode_project(repo_factory):
    return repo_factory(files={
        **PROJECT,
        UNICODE_MODULE: "def valor():\n    return 3\n",
        "tests/test_modulo.py": "from pkg.módulo import valor\n\n\ndef test_valor():\n    assert valor() == 3\n",
        UNICODE_TEST: "from pkg.alpha import alpha\n\n\ndef test_unicode():\n    assert alpha() == 1\n",
        "docs/read me.md": "notes\n",
    })


def test_non_ascii_module_name_is_followed_and_round_trips(unicode_project):
    unicode_project.replace(UNICODE_MODULE, "return 3", "return 3 + 0")
    doc = changes(unicode_project)
    assert paths(doc) == [UNICODE_MODULE]
    assert files_by_path(doc)[UNICODE_MODULE]["hunks"] == [[2, 1, 2, 1]]

    decision = unicode_project.decide()
    assert [f["path"] for f in decision["changed_files"]] == [UNICODE_MODULE]
    assert selected_ids(decision) == ["tests/test_modulo.py"]


def test_test_file_with_space_and_non_ascii_name_selects_itself(unicode_project):
    unicode_project.replace(UNICODE_TEST, "== 1", "== 1 + 0")
    decision = unicode_project.decide()
    assert [f["path"] for f in decision["changed_files"]] == [UNICODE_TEST]
    assert decision["decision"] == "selected"
    assert selected_ids(decision) == [UNICODE_TEST]
    assert decision["argv"][-1].split("::")[0] == UNICODE_TEST  # one argument, exactly the path

    # The module it imports selects it too: the file is a test even though its name is no module name.
    unicode_project.git("checkout", "-q", "--", ".")
    unicode_project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    assert selected_ids(unicode_project.decide()) == sorted([UNICODE_TEST, "tests/test_alpha.py"])


def test_untracked_odd_names_round_trip_exactly(project):
    names = ["data/read me.txt", "data/ünï côdé/naïve file.txt", "src/pkg/módulo nuevo.txt"]
    for name in names:
        project.write(name, "x\n")
    doc = changes(project)
    assert paths(doc) == sorted(names)
    for name in names:
        assert files_by_path(doc)[name]["untracked"] is True
    decision = project.decide()
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "non_python_changed"
    assert paths(decision) == sorted(names)


def test_untracked_names_with_pattern_characters_are_counted(project):
    # libgit2 reads [, *, ? in a pathspec as a pattern for untracked files: the narrowed diff lost them.
    names = ["tests/v[2]/test_new.py", "src/pkg/star*name.py", "src/pkg/what?.py", "tests/test_b[1].py"]
    for name in names:
        project.write(name, "def test_x():\n    assert True\n")
    assert paths(changes(project)) == sorted(names)


def test_renamed_odd_name_reports_both_paths_exactly(unicode_project):
    unicode_project.git("mv", "docs/read me.md", "docs/léame ahora.md")
    doc = changes(unicode_project)
    entry = files_by_path(doc)["docs/léame ahora.md"]
    assert entry["status"] == "renamed"
    assert entry["old_path"] == "docs/read me.md"


def test_control_and_quote_characters_in_names_round_trip(project):
    names = ["data/tab\tname.txt", 'data/quote"name.txt', "data/back\\slash.txt", "data/new\nline.txt"]
    for name in names:
        project.write(name, "x\n")
    assert paths(changes(project)) == sorted(names)
    assert paths(project.decide()) == sorted(names)


NON_UTF8 = b"data/caf\xe9.txt"  # a Latin-1 file name: legal on Linux, not UTF-8


def test_non_utf8_file_name_does_not_break_json_output(project):
    os.makedirs(project.path / "data")
    with open(os.path.join(bytes(project.path), NON_UTF8), "w") as f:
        f.write("x\n")
    run = project.impact("changes", "--format", "json")
    assert run.returncode == 0, run.stderr
    files = run.json["files"]
    assert len(files) == 1 and files[0]["path"].startswith("data/caf") and files[0]["untracked"] is True
    decision = project.decide()
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "non_python_changed"


# --- line endings and binaries ---------------------------------------------------------------------

CRLF = "".join(f"line{i} = {i}\r\n" for i in range(1, 11))


def test_crlf_file_line_ranges(repo_factory):
    repo = repo_factory(files={**PROJECT, "src/pkg/crlf.py": CRLF})
    assert repo.git("ls-files", "--eol", "src/pkg/crlf.py").startswith("i/crlf")  # committed with CRLF
    text = (repo.path / "src/pkg/crlf.py").read_bytes().decode()
    text = text.replace("line3 = 3\r\n", "line3 = 33\r\n")                       # replace line 3
    text = text.replace("line6 = 6\r\n", "line6 = 6\r\nextra_a = 0\r\nextra_b = 0\r\n")  # insert after 6
    text = text.replace("line9 = 9\r\n", "")                                     # delete line 9
    repo.write("src/pkg/crlf.py", text.encode())
    expected = [[3, 1, 3, 1], [6, 0, 7, 2], [9, 1, 10, 0]]
    assert git_hunks(repo.path, file="src/pkg/crlf.py") == expected
    assert files_by_path(changes(repo))["src/pkg/crlf.py"]["hunks"] == expected
    assert files_by_path(repo.decide())["src/pkg/crlf.py"]["hunks"] == expected


def test_crlf_checkout_of_lf_content_is_not_a_change(repo_factory):
    # core.autocrlf=true (a Windows checkout): git writes CRLF into the working tree of an LF blob.
    repo = repo_factory(files=PROJECT)
    repo.git("config", "core.autocrlf", "true")
    repo.delete("src/pkg/alpha.py")
    repo.git("checkout", "--", "src/pkg/alpha.py")
    assert (repo.path / "src/pkg/alpha.py").read_bytes() == b"def alpha():\r\n    return 1\r\n"
    assert repo.git("status", "--porcelain") == ""
    assert changes(repo)["files"] == []
    assert project_decision_is_no_changes(repo)

    # An edit to that CRLF checkout is one changed line, not the whole file.
    text = (repo.path / "src/pkg/alpha.py").read_bytes().replace(b"return 1", b"return 1 + 0")
    repo.write("src/pkg/alpha.py", text)
    assert files_by_path(changes(repo))["src/pkg/alpha.py"]["hunks"] == [[2, 1, 2, 1]]
    assert selected_ids(repo.decide()) == ALPHA


def project_decision_is_no_changes(repo):
    decision = repo.decide()
    return decision["decision"] == "nothing" and decision["reason"] == "no_changes"


def test_line_ending_conversion_is_a_change_of_every_line(repo_factory):
    repo = repo_factory(files=PROJECT)
    repo.write("src/pkg/alpha.py", PROJECT["src/pkg/alpha.py"].replace("\n", "\r\n"))
    assert files_by_path(changes(repo))["src/pkg/alpha.py"]["hunks"] == [[1, 2, 1, 2]]
    # Every line changed, but only its line ends: the semantic diff calls that formatting.
    decision = repo.decide()
    assert decision["reason"] == "only_comments_or_formatting"
    assert selected_ids(repo.decide("--mode", "safe")) == ALPHA


BLOB = bytes(range(256)) * 8


def test_binary_file_change(repo_factory):
    repo = repo_factory(files=PROJECT)
    repo.write("assets/logo.png", BLOB)
    repo.commit("logo")
    repo.write("assets/logo.png", BLOB[::-1])
    doc = changes(repo)
    entry = files_by_path(doc)["assets/logo.png"]
    assert entry["binary"] is True
    assert entry["status"] == "modified"
    assert entry["hunks"] == []

    decision = repo.decide()
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "non_python_changed"
    assert files_by_path(decision)["assets/logo.png"]["binary"] is True


def test_untracked_binary_file(project):
    project.write("assets/new.bin", BLOB)
    entry = files_by_path(changes(project))["assets/new.bin"]
    assert entry["binary"] is True
    assert entry["untracked"] is True
    assert entry["hunks"] == []
    assert project.decide()["reason"] == "non_python_changed"


# --- untracked files -------------------------------------------------------------------------------

def test_untracked_files_and_folders_are_counted(project):
    project.write("src/pkg/gamma.py", "def gamma():\n    return 3\n")
    project.write("src/newpkg/__init__.py", "")
    project.write("src/newpkg/deep/mod.py", "from pkg.alpha import alpha\n")
    project.write("tests/test_gamma.py",
                  "from pkg.gamma import gamma\n\n\ndef test_gamma():\n    assert gamma() == 3\n")
    doc = changes(project)
    assert paths(doc) == ["src/newpkg/__init__.py", "src/newpkg/deep/mod.py", "src/pkg/gamma.py",
                          "tests/test_gamma.py"]
    for entry in doc["files"]:
        assert entry["status"] == "added"
        assert entry["untracked"] is True
    assert files_by_path(doc)["src/pkg/gamma.py"]["hunks"] == [[0, 0, 1, 2]]
    assert files_by_path(doc)["src/newpkg/__init__.py"]["hunks"] == []

    decision = project.decide()
    assert selected_ids(decision) == ["tests/test_gamma.py"]
    assert files_by_path(decision)["src/pkg/gamma.py"]["untracked"] is True


def test_untracked_test_folder_selects_its_tests(project):
    project.write("tests/extra/test_more.py", "from pkg.beta import beta\n\n\ndef test_more():\n    assert beta()\n")
    project.write("tests/extra/sub/test_deeper.py", "def test_deeper():\n    assert True\n")
    decision = project.decide()
    assert paths(decision) == ["tests/extra/sub/test_deeper.py", "tests/extra/test_more.py"]
    assert selected_ids(decision) == ["tests/extra/sub/test_deeper.py", "tests/extra/test_more.py"]


def test_ignored_files_are_not_counted(project):
    project.write(".gitignore", project.read(".gitignore") + "*.log\nbuild/\n")
    project.commit("ignore logs")
    project.write("run.log", "noise\n")
    project.write("src/pkg/debug.log", "noise\n")
    project.write("build/lib/pkg/alpha.py", "copied\n")
    project.write("build/notes.txt", "x\n")
    doc = changes(project)
    assert doc["files"] == []
    decision = project.decide()
    assert decision["decision"] == "nothing"
    assert decision["reason"] == "no_changes"


def test_ignored_file_inside_an_untracked_folder_is_not_counted(project):
    project.write(".gitignore", project.read(".gitignore") + "*.log\n")
    project.commit("ignore logs")
    project.write("newdir/keep.txt", "x\n")
    project.write("newdir/sub/debug.log", "noise\n")
    assert paths(changes(project)) == ["newdir/keep.txt"]


@pytest.mark.parametrize("venv", [".venv", "venv", "src/env"])
def test_untracked_virtualenv_is_not_counted(project, venv):
    project.write(f"{venv}/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\n")
    project.write(f"{venv}/lib/python3.11/site-packages/thing/__init__.py", "X = 1\n")
    project.write(f"{venv}/bin/activate", "# activate\n")
    doc = changes(project)
    assert doc["files"] == [], paths(doc)
    decision = project.decide()
    assert decision["reason"] == "no_changes"

    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    assert paths(changes(project)) == ["src/pkg/alpha.py"]
    assert selected_ids(project.decide()) == ALPHA


def test_virtualenv_nested_in_an_untracked_folder_is_not_counted(project):
    project.write("tools/helper.py", "X = 1\n")
    project.write("tools/.venv/pyvenv.cfg", "home = /usr/bin\n")
    project.write("tools/.venv/lib/site.py", "X = 1\n")
    assert paths(changes(project)) == ["tools/helper.py"]


def test_bytecode_is_never_counted(repo_factory):
    # A .gitignore that does NOT ignore __pycache__: impact must still skip bytecode.
    repo = repo_factory(files={**PROJECT, ".gitignore": ".impact_cache/\n"})
    pyc = b"\x6f\x0d\x0d\x0a" + b"\x00" * 12 + b"bytecode"
    repo.write("src/pkg/__pycache__/alpha.cpython-311.pyc", pyc)
    repo.write("tests/__pycache__/test_alpha.cpython-311-pytest-7.2.1.pyc", pyc)
    repo.write("src/pkg/stray.pyc", pyc)
    repo.write("src/newpkg/__pycache__/x.cpython-311.pyc", pyc)  # a folder holding only bytecode
    repo.write("src/other/legacy.pyo", pyc)
    assert repo.git("status", "--porcelain", "-uall") != ""  # git would count them
    doc = changes(repo)
    assert doc["files"] == [], paths(doc)
    assert project_decision_is_no_changes(repo)


def test_untracked_nested_repository_is_not_counted(project):
    nested = project.path / "scratch" / "other"
    nested.mkdir(parents=True)
    run_git(nested, "init", "-q")
    (nested / "thing.py").write_text("X = 1\n")
    project.write("scratch/keep.txt", "x\n")
    assert paths(changes(project)) == ["scratch/keep.txt"]


def test_impacts_own_cache_is_never_counted(repo_factory):
    # No .gitignore entry for the cache: the cache folder must keep itself out of the change set.
    repo = repo_factory(files={**PROJECT, ".gitignore": "__pycache__/\n"})
    repo.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    first = repo.decide()
    assert selected_ids(first) == ALPHA
    assert (repo.path / ".impact_cache").is_dir()  # the run above wrote it
    second = repo.decide()
    assert paths(second) == ["src/pkg/alpha.py"]
    assert paths(changes(repo)) == ["src/pkg/alpha.py"]


def test_untracked_files_do_not_count_with_staged(project):
    project.write("src/pkg/gamma.py", "X = 1\n")
    project.write("notes.txt", "x\n")
    doc = changes(project, "--staged")
    assert doc["files"] == []
    assert doc["base"]["mode"] == "staged"


# --- renames and deletions -------------------------------------------------------------------------

def test_plain_mv_shows_as_a_rename_with_both_paths(project):
    os.rename(project.path / "src/pkg/beta.py", project.path / "src/pkg/gamma.py")
    doc = changes(project)
    assert paths(doc) == ["src/pkg/gamma.py"]
    entry = files_by_path(doc)["src/pkg/gamma.py"]
    assert entry["status"] == "renamed"
    assert entry["old_path"] == "src/pkg/beta.py"

    decision = project.decide()
    entry = files_by_path(decision)["src/pkg/gamma.py"]
    assert entry["status"] == "renamed"
    assert entry["old_path"] == "src/pkg/beta.py"
    assert selected_ids(decision) == BETA  # the importers of the old name


def test_plain_mv_into_a_new_folder(project):
    (project.path / "src/moved").mkdir()
    os.rename(project.path / "src/pkg/beta.py", project.path / "src/moved/beta.py")
    entry = files_by_path(changes(project))["src/moved/beta.py"]
    assert entry["status"] == "renamed"
    assert entry["old_path"] == "src/pkg/beta.py"


def test_git_mv_rename(project):
    project.git("mv", "src/pkg/alpha.py", "src/pkg/first.py")
    for extra in ([], ["--staged"]):
        doc = changes(project, *extra)
        assert paths(doc) == ["src/pkg/first.py"], extra
        entry = files_by_path(doc)["src/pkg/first.py"]
        assert entry["status"] == "renamed"
        assert entry["old_path"] == "src/pkg/alpha.py"
        assert entry["hunks"] == []
    assert selected_ids(project.decide()) == ALPHA


def test_git_mv_rename_with_an_edit_keeps_both_paths_and_the_hunk(repo_factory):
    body = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(10))
    repo = repo_factory(files={**PROJECT, "src/pkg/many.py": body})
    repo.git("mv", "src/pkg/many.py", "src/pkg/lots.py")
    repo.replace("src/pkg/lots.py", "return 4\n", "return 40\n")
    entry = files_by_path(changes(repo))["src/pkg/lots.py"]
    assert entry["status"] == "renamed"
    assert entry["old_path"] == "src/pkg/many.py"
    assert entry["hunks"] == [[18, 1, 18, 1]]


def test_deleted_file(project):
    project.delete("src/pkg/beta.py")
    doc = changes(project)
    assert paths(doc) == ["src/pkg/beta.py"]
    entry = files_by_path(doc)["src/pkg/beta.py"]
    assert entry["status"] == "deleted"
    assert entry["hunks"] == [[1, 2, 0, 0]]

    decision = project.decide()
    assert files_by_path(decision)["src/pkg/beta.py"]["status"] == "deleted"
    assert selected_ids(decision) == BETA

    project.git("rm", "-q", "--cached", "src/pkg/beta.py")
    assert files_by_path(changes(project, "--staged"))["src/pkg/beta.py"]["status"] == "deleted"


# --- hunks -----------------------------------------------------------------------------------------

TWELVE = "".join(f"v{i} = {i}\n" for i in range(1, 13))


@pytest.fixture
def numbered(repo_factory):
    return repo_factory(files={**PROJECT, "src/pkg/numbers.py": TWELVE})


@pytest.mark.parametrize("edit, expected", [
    # insert two lines after line 3: nothing removed at old 3, new lines 4-5
    (lambda t: t.replace("v3 = 3\n", "v3 = 3\nn1 = 0\nn2 = 0\n"), [[3, 0, 4, 2]]),
    # delete lines 6-7: old 6-7 gone, they would have followed new line 5
    (lambda t: t.replace("v6 = 6\nv7 = 7\n", ""), [[6, 2, 5, 0]]),
    # replace line 10 with three lines
    (lambda t: t.replace("v10 = 10\n", "a = 1\nb = 2\nc = 3\n"), [[10, 1, 10, 3]]),
    # insert before the first line and append after the last
    (lambda t: "top = 0\n" + t + "bottom = 0\n", [[0, 0, 1, 1], [12, 0, 14, 1]]),
    # all three at once: later hunks carry the shift of the earlier ones
    (lambda t: t.replace("v3 = 3\n", "v3 = 3\nn1 = 0\nn2 = 0\n").replace("v6 = 6\nv7 = 7\n", "")
     .replace("v10 = 10\n", "a = 1\nb = 2\nc = 3\n"), [[3, 0, 4, 2], [6, 2, 7, 0], [10, 1, 10, 3]]),
], ids=["insertion", "deletion", "replacement", "edges", "combined"])
def test_hunks_on_both_sides(numbered, edit, expected):
    numbered.write("src/pkg/numbers.py", edit(TWELVE))
    assert git_hunks(numbered.path, file="src/pkg/numbers.py") == expected  # the reference agrees
    assert files_by_path(changes(numbered))["src/pkg/numbers.py"]["hunks"] == expected
    assert files_by_path(numbered.decide())["src/pkg/numbers.py"]["hunks"] == expected
    numbered.git("add", "-A")
    assert files_by_path(changes(numbered, "--staged"))["src/pkg/numbers.py"]["hunks"] == expected


def test_file_without_trailing_newline(numbered):
    numbered.write("src/pkg/numbers.py", TWELVE.rstrip("\n"))
    expected = git_hunks(numbered.path, file="src/pkg/numbers.py")
    assert expected == [[12, 1, 12, 1]]
    assert files_by_path(changes(numbered))["src/pkg/numbers.py"]["hunks"] == expected


# --- staged, working tree, merge-base --------------------------------------------------------------

def test_staged_versus_working_tree(project):
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.git("add", "src/pkg/alpha.py")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")  # not staged

    staged = project.decide("--staged")
    assert staged["base"]["mode"] == "staged"
    assert staged["base"]["commit"] == rev(project.path)
    assert paths(staged) == ["src/pkg/alpha.py"]
    assert selected_ids(staged) == ALPHA

    working = project.decide()
    assert working["base"]["mode"] == "working_tree"
    assert paths(working) == ["src/pkg/alpha.py", "src/pkg/beta.py"]
    assert selected_ids(working) == BOTH


def test_staged_change_reverted_in_the_working_tree(project):
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.git("add", "src/pkg/alpha.py")
    project.write("src/pkg/alpha.py", PROJECT["src/pkg/alpha.py"])  # back to HEAD's content
    assert project.git("diff", "HEAD") == ""  # the working tree equals HEAD
    assert paths(changes(project, "--staged")) == ["src/pkg/alpha.py"]
    assert changes(project)["files"] == []
    assert project_decision_is_no_changes(project)


def test_staged_hunks_come_from_the_index_not_the_working_tree(numbered):
    numbered.replace("src/pkg/numbers.py", "v2 = 2\n", "v2 = 22\n")
    numbered.git("add", "-A")
    numbered.replace("src/pkg/numbers.py", "v11 = 11\n", "v11 = 111\n")
    assert files_by_path(changes(numbered, "--staged"))["src/pkg/numbers.py"]["hunks"] == [[2, 1, 2, 1]]
    assert files_by_path(changes(numbered))["src/pkg/numbers.py"]["hunks"] == [[2, 1, 2, 1], [11, 1, 11, 1]]


def test_intent_to_add_file_counts_in_the_working_tree(project):
    project.write("tests/test_ita.py", "def test_ita():\n    assert True\n")
    project.git("add", "-N", "tests/test_ita.py")
    entry = files_by_path(changes(project))["tests/test_ita.py"]
    assert entry["status"] == "added"
    assert entry["hunks"] == [[0, 0, 1, 2]]
    assert selected_ids(project.decide()) == ["tests/test_ita.py"]


def test_intent_to_add_file_is_not_staged(project):
    project.write("tests/test_ita.py", "def test_ita():\n    assert True\n")
    project.git("add", "-N", "tests/test_ita.py")
    assert project.git("diff", "--cached", "--name-only") == ""
    assert changes(project, "--staged")["files"] == []
    decision = project.decide("--staged")
    assert decision["reason"] == "no_changes"


def test_conflicted_file_reports_its_working_tree_hunks(project):
    project.git("checkout", "-q", "-b", "other")
    project.replace("src/pkg/alpha.py", "return 1", "return 11")
    project.commit("other")
    project.git("checkout", "-q", "main")
    project.replace("src/pkg/alpha.py", "return 1", "return 12")
    project.commit("main")
    project.git("merge", "-q", "other", check=False)
    assert project.git("status", "--porcelain").startswith("UU src/pkg/alpha.py")
    expected = git_hunks(project.path, "HEAD", file="src/pkg/alpha.py")
    assert expected == [[1, 0, 2, 1], [2, 0, 4, 3]]
    entry = files_by_path(changes(project))["src/pkg/alpha.py"]
    assert entry["status"] == "modified"
    assert entry["hunks"] == expected


def test_sparse_checkout_is_not_a_change(project):
    project.git("sparse-checkout", "set", "--no-cone", "/src/")
    assert not (project.path / "tests").exists()
    assert project.git("status", "--porcelain") == ""
    assert changes(project)["files"] == []
    assert project_decision_is_no_changes(project)


def test_changed_rev_counts_branch_commits_and_uncommitted_edits(project):
    project.git("checkout", "-q", "-b", "feature")
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.commit("alpha on feature")
    fork = rev(project.path, "main")
    # main moves on after the fork: its changes are not the branch's
    project.git("checkout", "-q", "main")
    project.write("src/pkg/late.py", "X = 1\n")
    project.write("tests/test_late.py", "from pkg.late import X\n\n\ndef test_late():\n    assert X\n")
    project.commit("late on main")
    project.git("checkout", "-q", "feature")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")      # uncommitted
    project.write("tests/test_new.py", "def test_new():\n    assert True\n")  # untracked

    decision = project.decide("--changed=main")
    assert decision["base"]["rev"] == "main"
    assert decision["base"]["commit"] == fork
    assert decision["base"]["merge_base"] is True
    assert decision["base"]["source"] == "--changed"
    assert paths(decision) == ["src/pkg/alpha.py", "src/pkg/beta.py", "tests/test_new.py"]
    assert selected_ids(decision) == sorted(BOTH + ["tests/test_new.py"])

    # Without --changed only the uncommitted edits count.
    assert paths(project.decide()) == ["src/pkg/beta.py", "tests/test_new.py"]


def test_changed_rev_accepts_a_commit_id_and_a_relative_rev(project):
    base = rev(project.path)
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.commit("one")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    project.commit("two")
    assert selected_ids(project.decide(f"--changed={base}")) == BOTH
    assert selected_ids(project.decide("--changed=HEAD~1")) == BETA
    assert project.decide("--changed=HEAD~1")["base"]["commit"] == rev(project.path, "HEAD~1")


# --- errors ----------------------------------------------------------------------------------------

def test_error_not_a_repository(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "x.py").write_text("X = 1\n")
    assert run_git(plain, "rev-parse", "--git-dir", check=False) == ""  # no repository anywhere above
    runner = Repo(plain)
    for args in (["--dry-run"], ["changes"], ["changes", "--format", "json"]):
        msg = assert_error(runner.impact(*args), "not a git repository", "git init")
        assert str(plain) in msg
    # -C names the directory in the message as well
    msg = assert_error(Repo(tmp_path).impact("-C", str(plain), "--dry-run"), "not a git repository")
    assert str(plain) in msg


def test_error_directory_does_not_exist(project, tmp_path):
    missing = tmp_path / "nowhere"
    msg = assert_error(project.impact("-C", str(missing), "--dry-run"))
    assert str(missing) in msg


def test_error_repository_without_commits(repo_factory):
    repo = repo_factory(files=PROJECT, commit=False)
    repo.git("add", "-A")  # staged but never committed
    for args in (["--dry-run"], ["--staged", "--dry-run"], ["changes"]):
        assert_error(repo.impact(*args), "no commits", "commit")


def test_error_unknown_revision(project):
    msg = assert_error(project.impact("--changed=no-such-branch", "--dry-run"), "no-such-branch", "unknown revision")
    assert "fetch" in msg or "check" in msg
    assert_error(project.impact("changes", "--changed=no-such-branch"), "no-such-branch")


def test_error_unrelated_history(project):
    project.git("checkout", "-q", "--orphan", "island")
    project.commit("unrelated root")
    project.git("checkout", "-q", "main")
    assert_error(project.impact("--changed=island", "--dry-run"), "island", "common history")


def test_changed_rev_peels_an_annotated_tag_and_rejects_a_tree(project):
    project.git("tag", "-a", "v1", "-m", "release 1")
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.commit("after the tag")
    decision = project.decide("--changed=v1")
    assert decision["base"]["commit"] == rev(project.path, "v1")
    assert selected_ids(decision) == ALPHA
    assert_error(project.impact("--changed=HEAD^{tree}", "--dry-run"), "HEAD^{tree}", "commit")


def test_error_bare_repository(project, tmp_path):
    bare = tmp_path / "bare.git"
    assert subprocess.run(["git", "clone", "-q", "--bare", str(project.path), str(bare)]).returncode == 0
    assert_error(Repo(bare).impact("--dry-run"), "bare", "working tree")


def _diverged_origin(repo_factory):
    """origin: `other` branched from the first commit; main then gained many commits of its own."""
    origin = repo_factory(files=PROJECT)
    origin.git("branch", "other")
    for i in range(5):
        origin.write(f"src/pkg/m{i}.py", f"X = {i}\n")
        origin.commit(f"main {i}")
    origin.git("checkout", "-q", "other")
    for i in range(3):
        origin.write(f"src/pkg/o{i}.py", f"X = {i}\n")
        origin.commit(f"other {i}")
    origin.git("checkout", "-q", "main")
    return origin


def test_error_shallow_clone_missing_merge_base(repo_factory, tmp_path):
    origin = _diverged_origin(repo_factory)
    shallow = clone(f"file://{origin.path}", tmp_path / "shallow", "--depth", "1", "--no-single-branch")
    assert shallow.git("rev-parse", "--is-shallow-repository").strip() == "true"
    assert rev(shallow.path, "origin/other")  # the branch is there, its history is not
    msg = assert_error(shallow.impact("--changed=origin/other", "--dry-run"), "shallow", "origin/other")
    assert "fetch" in msg.lower() and ("unshallow" in msg or "fetch-depth" in msg or "deepen" in msg)
    assert_error(shallow.impact("changes", "--changed=origin/other"), "shallow")


def test_error_shallow_clone_without_the_branch(repo_factory, tmp_path):
    origin = _diverged_origin(repo_factory)
    shallow = clone(f"file://{origin.path}", tmp_path / "shallow", "--depth", "1")
    msg = assert_error(shallow.impact("--changed=origin/other", "--dry-run"), "origin/other", "fetch")
    assert "shallow" in msg


def test_shallow_clone_still_works_when_history_suffices(repo_factory, tmp_path):
    origin = _diverged_origin(repo_factory)
    shallow = clone(f"file://{origin.path}", tmp_path / "shallow", "--depth", "1")
    shallow.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    assert selected_ids(shallow.decide()) == ALPHA


# --- where impact starts ---------------------------------------------------------------------------

def test_dash_c_runs_as_if_started_there(project, tmp_path):
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.write("tests/test_new.py", "def test_new():\n    assert True\n")
    here = project.decide()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    run = project.impact("-C", str(project.path), "--dry-run", "--format", "json", cwd=outside)
    assert run.returncode == 0, run.stderr
    assert decision_summary(run.json) == decision_summary(here)
    assert selected_ids(here) == sorted(ALPHA + ["tests/test_new.py"])

    # a relative -C, and -C to a subdirectory
    rel = os.path.relpath(project.path / "tests", outside)
    run = project.impact("-C", rel, "--dry-run", "--format", "json", cwd=outside)
    assert run.returncode == 0, run.stderr
    assert decision_summary(run.json) == decision_summary(here)

    run = project.impact("-C", str(project.path), "changes", "--format", "json", cwd=outside)
    assert run.returncode == 0, run.stderr
    assert run.json["files"] == changes(project)["files"]


def test_subdirectory_gives_the_same_decision(project):
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    project.write("src/pkg/new.py", "X = 1\n")
    project.delete("src/pkg/alpha.py")
    top = project.decide()
    for sub in ("src", "src/pkg", "tests"):
        run = project.impact("--dry-run", "--format", "json", cwd=project.path / sub)
        assert run.returncode == 0, run.stderr
        assert decision_summary(run.json) == decision_summary(top), sub
        assert changes(project, cwd=project.path / sub)["files"] == changes(project)["files"], sub
    assert selected_ids(top) == BOTH


def test_selected_tests_run_from_a_subdirectory(project):
    """Not only the decision: the exec'd pytest must find the selected files from the repository root."""
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    run = project.impact(cwd=project.path / "src" / "pkg")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout, run.stdout


# --- git states that must not mislead (issue 11) ---------------------------------------------------

def test_missing_git_index_file_is_an_error_not_an_empty_index(project):
    # libgit2 opens a missing index as an empty one: every tracked file would read as deleted.
    missing = project.path / ".git" / "no-such-index"
    run = project.impact("--staged", "--dry-run", env={"GIT_INDEX_FILE": str(missing)})
    assert_error(run, "GIT_INDEX_FILE", "does not exist", str(missing))
    assert_error(project.impact("changes", env={"GIT_INDEX_FILE": str(missing)}), "GIT_INDEX_FILE")


def _suggested_command(message):
    """The `git fetch ...` command inside the parentheses of an error line, as argv."""
    found = re.search(r"\((git fetch[^)]*)\)", message)
    assert found, f"no git fetch command suggested in {message!r}"
    return found.group(1).split()


def _run_suggestion(repo, message):
    argv = _suggested_command(message)
    result = subprocess.run(argv, cwd=repo.path, capture_output=True, text=True, env=clean_env())
    assert result.returncode == 0, f"the suggested {' '.join(argv)} failed: {result.stderr}"


@pytest.mark.parametrize("rev_name", ["origin/other", "refs/remotes/origin/other"])
def test_shallow_single_branch_clone_suggests_a_fetch_that_works(repo_factory, tmp_path, rev_name):
    # What actions/checkout and `git clone --depth 1` make: one branch, one commit. `git fetch origin
    # other` would only fill FETCH_HEAD, and origin/other would still be unknown.
    origin = _diverged_origin(repo_factory)
    shallow = clone(f"file://{origin.path}", tmp_path / "shallow", "--depth", "1")
    assert "origin/other" not in shallow.git("branch", "-r")
    message = assert_error(shallow.impact(f"--changed={rev_name}", "--dry-run"), "shallow", rev_name)
    _run_suggestion(shallow, message)
    decision = shallow.decide(f"--changed={rev_name}")
    assert decision["base"]["merge_base"] is True
    assert paths(decision) == [f"src/pkg/m{i}.py" for i in range(5)]  # main's side since the fork


def test_shallow_clone_missing_the_merge_base_suggests_a_fetch_that_works(repo_factory, tmp_path):
    origin = _diverged_origin(repo_factory)
    shallow = clone(f"file://{origin.path}", tmp_path / "shallow", "--depth", "1", "--no-single-branch")
    message = assert_error(shallow.impact("--changed=origin/other", "--dry-run"), "shallow", "merge-base")
    _run_suggestion(shallow, message)
    assert shallow.git("rev-parse", "--is-shallow-repository").strip() == "false"
    assert paths(shallow.decide("--changed=origin/other")) == [f"src/pkg/m{i}.py" for i in range(5)]


def test_shallow_clone_without_the_ci_base_branch_suggests_a_fetch_that_works(repo_factory, tmp_path):
    origin = _diverged_origin(repo_factory)
    shallow = clone(f"file://{origin.path}", tmp_path / "shallow", "--depth", "1")
    env = {"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "other"}
    message = assert_error(shallow.impact("--dry-run", env=env), "GITHUB_BASE_REF", "other")
    _run_suggestion(shallow, message)
    decision = shallow.decide(env=env)
    assert decision["base"]["source"] == "GITHUB_BASE_REF"
    assert paths(decision) == [f"src/pkg/m{i}.py" for i in range(5)]


def test_sparse_checkout_never_selects_a_test_file_that_is_not_on_disk(project):
    project.git("sparse-checkout", "set", "--no-cone", "/src/", "/pyproject.toml", "/tests/test_beta.py")
    assert not (project.path / "tests/test_alpha.py").exists()
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    run = project.impact("--dry-run", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert selected_ids(run.json) == BETA  # test_alpha.py cannot be run: pytest would exit 4
    assert "tests/test_alpha.py" in run.stderr and "sparse checkout" in run.stderr
    assert any("sparse checkout" in w for w in run.json["warnings"])
    # Not counted as deleted either: the index speaks for it.
    assert paths(run.json) == ["src/pkg/alpha.py", "src/pkg/beta.py"]
    real = project.impact()
    assert real.returncode == 0, real.stdout + real.stderr
    assert "1 passed" in real.stdout


def test_skip_worktree_source_file_is_not_a_deletion(project):
    project.git("sparse-checkout", "set", "--no-cone", "/tests/", "/pyproject.toml", "/src/pkg/__init__.py",
                "/src/pkg/beta.py")
    assert not (project.path / "src/pkg/alpha.py").exists()
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    decision = project.decide()
    assert paths(decision) == ["src/pkg/beta.py"]
    assert selected_ids(decision) == BETA


@pytest.mark.parametrize("staged", [False, True])
def test_mode_only_change_runs_everything(project, staged):
    # An executable bit matters to whatever runs the file as a program (a test's subprocess of a
    # script), which no import shows: it is not a formatting change.
    (project.path / "src/pkg/alpha.py").chmod(0o755)
    if staged:
        project.git("add", "src/pkg/alpha.py")
    doc = changes(project, *(["--staged"] if staged else []))
    assert paths(doc) == ["src/pkg/alpha.py"]
    decision = project.decide(*(["--staged"] if staged else []))
    assert decision["decision"] == "run_all"
    assert decision["reason"] == "mode_changed"
    assert files_by_path(decision)["src/pkg/alpha.py"]["kind"] == "mode"


def test_mode_and_content_change_runs_everything(project):
    (project.path / "src/pkg/alpha.py").chmod(0o755)
    project.replace("src/pkg/alpha.py", "return 1", "return 1 + 0")
    assert project.decide()["reason"] == "mode_changed"
