"""Edits git's own status hides: a file marked skip-worktree or assume-unchanged by hand and then
edited on disk (docs/selection.md, `hidden-edits`). Python imports the file on disk whatever the
index's bits say, so the edit is a change like any other."""
import pytest

from gitutil import ALPHA, BETA, PROJECT, changes, files_by_path, paths
from harness import selected_files as selected_ids


@pytest.fixture
def project(repo_factory):
    return repo_factory(files=PROJECT)


@pytest.mark.parametrize("bit", ["--skip-worktree", "--assume-unchanged"])
def test_an_edit_under_a_hiding_bit_is_a_change(project, bit):
    project.git("update-index", bit, "src/pkg/alpha.py")
    project.replace("src/pkg/alpha.py", "return 1", "return 2")
    assert project.git("status", "--porcelain") == ""  # git itself does not look
    entry = files_by_path(changes(project))["src/pkg/alpha.py"]
    assert entry["status"] == "modified"
    assert entry["hunks"] == [[2, 1, 2, 1]]  # (git diff hides it too)
    decision = project.decide()
    assert selected_ids(decision) == ALPHA
    run = project.impact()
    assert run.returncode == 1, run.stdout + run.stderr  # the edit breaks test_alpha, and impact ran it
    assert "1 failed" in run.stdout


@pytest.mark.parametrize("bit", ["--skip-worktree", "--assume-unchanged"])
def test_a_hidden_file_left_as_committed_is_no_change(project, bit):
    project.git("update-index", bit, "src/pkg/alpha.py")
    project.replace("src/pkg/beta.py", "return 2", "return 2 + 0")
    assert paths(changes(project)) == ["src/pkg/beta.py"]
    assert selected_ids(project.decide()) == BETA


def test_a_hidden_test_file_edited_on_disk_is_selected(project):
    project.git("update-index", "--skip-worktree", "tests/test_beta.py")
    project.replace("tests/test_beta.py", "== 2", "== 3")
    assert selected_ids(project.decide()) == BETA


def test_a_staged_change_undone_on_disk_under_the_bit_is_no_change(project):
    project.replace("src/pkg/alpha.py", "return 1", "return 5")
    project.git("add", "src/pkg/alpha.py")
    project.git("update-index", "--assume-unchanged", "src/pkg/alpha.py")
    project.replace("src/pkg/alpha.py", "return 5", "return 1")  # the file on disk is HEAD's again
    assert paths(changes(project)) == []


def test_an_assume_unchanged_file_gone_from_disk_is_deleted(project):
    project.git("update-index", "--assume-unchanged", "src/pkg/alpha.py")
    (project.path / "src/pkg/alpha.py").unlink()
    assert project.git("status", "--porcelain") == ""
    assert files_by_path(changes(project))["src/pkg/alpha.py"]["status"] == "deleted"
    assert selected_ids(project.decide()) == ALPHA


def test_a_skip_worktree_file_gone_from_disk_outside_a_sparse_checkout_is_deleted(project):
    # git hides it (its status is clean), but pytest can no longer import it.
    project.git("update-index", "--skip-worktree", "src/pkg/alpha.py")
    (project.path / "src/pkg/alpha.py").unlink()
    assert project.git("status", "--porcelain") == ""
    assert files_by_path(changes(project))["src/pkg/alpha.py"]["status"] == "deleted"
    assert selected_ids(project.decide()) == ALPHA


def test_a_skip_worktree_file_gone_from_disk_in_a_sparse_checkout_is_left_out(project):
    project.git("config", "core.sparseCheckout", "true")
    project.git("update-index", "--skip-worktree", "src/pkg/alpha.py")
    (project.path / "src/pkg/alpha.py").unlink()
    assert paths(changes(project)) == []


def test_a_folder_a_sparse_checkout_left_out_hides_no_edit_beside_it(repo_factory):
    files = dict(PROJECT)
    files.update({f"src/other/m{i}.py": f"X = {i}\n" for i in range(5)})
    files["src/other/__init__.py"] = ""
    project = repo_factory(files=files)
    project.git("sparse-checkout", "set", "--no-cone", "/*", "!/src/other/")
    assert not (project.path / "src/other").exists()  # every entry below is skip-worktree and absent
    project.git("update-index", "--skip-worktree", "src/pkg/alpha.py")
    project.replace("src/pkg/alpha.py", "return 1", "return 2")
    assert paths(changes(project)) == ["src/pkg/alpha.py"]
    assert selected_ids(project.decide()) == ALPHA
