#pragma once
#ifdef IMPACT_FORBID_CHANGES // defined for the stages that may not use changes (src/CMakeLists.txt)
#error "this stage may not use changes (docs/architecture.md, allowed edges)"
#endif
// Stage 1, changes: what differs between a diff base and the state under test, file by file, with the
// changed line ranges on both sides. The Repository interface is the seam to git; the real
// implementation (src/changes/) is the only code that includes <git2.h>.
#include "impact/vocabulary.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impact {

enum class FileStatus { added, modified, deleted, renamed, type_changed };

std::string_view to_string(FileStatus status);

// One file that differs between the base and the state under test.
struct ChangedFile {
  FileStatus status = FileStatus::modified;
  RepoPath old_path; // empty for an added file
  RepoPath new_path; // empty for a deleted file
  std::vector<Hunk> hunks;
  bool binary = false;
  bool untracked = false;
  bool submodule = false; // a gitlink (submodule commit) changed
  bool symlink = false;   // either side is a symbolic link
  bool mode_changed = false; // both sides are files and the executable bit differs (chmod +x / -x)
  // The git blob id of the new side when the diff computed it (40 hex digits), else "": inventory()
  // takes it rather than hashing the file again.
  std::string new_oid;

  // The path on the current side, or the old one for a deleted file.
  const RepoPath& path() const { return new_path.empty() ? old_path : new_path; }
};

// Which states a change set compares.
enum class DiffMode {
  working_tree, // base commit -> index + working tree + untracked files
  staged,       // HEAD -> index: what the next commit will contain
};

// Where the base of a diff came from and what it resolved to.
struct DiffBase {
  DiffMode mode = DiffMode::working_tree;
  std::string rev;    // what was asked for: "HEAD", "origin/main", a commit id
  std::string commit; // the resolved base commit, 40 hex digits
  std::string source; // why this base: "default", "--changed", "GITHUB_BASE_REF", ...
  bool merge_base = false; // commit is the merge-base of `rev` and HEAD
};

// The changed files between a base and the state under test, sorted by path.
struct ChangeSet {
  DiffBase base;
  std::vector<ChangedFile> files;
};

// What the user asked to compare.
struct ChangeRequest {
  DiffMode mode = DiffMode::working_tree;
  std::optional<std::string> rev; // --changed=REV; nullopt means HEAD (or the CI base, see ci_base.hpp)
  std::string rev_source = "--changed";
};

// Where a commit stands relative to HEAD (a saved decision's base must be in HEAD's history).
enum class Ancestry {
  head_or_ancestor, // HEAD itself, or reachable from it
  not_ancestor,     // in this repository, but not in HEAD's history
  missing,          // not in this repository (or beyond a shallow clone's boundary)
};

// Repository is the seam to git: change sets, the inventory of files, and file contents on both sides.
// Calls do not depend on one another: what a read needs travels in its arguments (a SourceFile says
// where its content lives, a ChangedFile carries the blob id of its new side), so a read gives the same
// answer whatever was called before it.
// Errors: changes(), inventory() and the questions about revisions throw impact::Error with a one-line
// message when git cannot answer; the reads return a FileRead, whose error the caller must not take for
// "not there" (it widens or stops, never narrows).
// Thread safety: read_current() may be called from many threads at once (the facts stage's parsing
// threads do; a GitRepository serialises its object-database reads), but not while another method
// runs; root() is fixed when the repository is opened. Every other method, read_base() included, is
// called from one thread at a time.
class Repository {
public:
  virtual ~Repository() = default;

  // The top of the working tree.
  virtual const std::filesystem::path& root() const = 0;
  // Stage 1: the changes between the requested base and the state under test.
  virtual ChangeSet changes(const ChangeRequest& request) = 0;
  // Every file of the state under test (the base tree with the change set applied): tracked files and
  // untracked files that are not ignored. Submodules are not listed.
  virtual std::vector<SourceFile> inventory(const ChangeSet& changes) = 0;
  // The content of a file of the state under test (one of inventory()'s): not_found when it is gone,
  // error when it is there but cannot be read (a FIFO, permissions, a damaged object database).
  virtual FileRead read_current(const SourceFile& file) = 0;
  // The content of `path` at the change set's base commit: not_found when the base has no file there,
  // error when git cannot read it.
  virtual FileRead read_base(const ChangeSet& changes, const RepoPath& path) = 0;
  // The commit HEAD points to (40 hex digits), or "" in a repository without commits.
  virtual std::string head_commit() = 0;
  // True when `rev` names an object of this repository.
  virtual bool has_revision(const std::string& rev) = 0;
  // Where commit `commit` (40 hex digits) stands relative to HEAD.
  virtual Ancestry ancestry(const std::string& commit) = 0;
  // True in a shallow clone, whose history stops at a boundary (git fetch --depth).
  virtual bool is_shallow() = 0;
};

// The git command that fetches `rev` (and, when `shallow`, the whole history behind it), as a message
// suggests it: `origin/main` gives `git fetch origin main:refs/remotes/origin/main`, which creates the
// remote-tracking branch even in a single-branch clone; any other revision gives `git fetch origin`.
std::string fetch_command(std::string_view rev, bool shallow);

// Opens the git repository containing `start` (searching upwards); `env` gives GIT_INDEX_FILE (the
// index a hook of `git commit` stages into). Throws impact::Error when `start` is not inside a git
// working tree, naming the directory and the fix.
std::unique_ptr<Repository> open_git_repository(const std::filesystem::path& start, const EnvLookup& env);

} // namespace impact
