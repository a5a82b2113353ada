#include "impact/changes/history.hpp"

#include "changes/git_handles.hpp"

#include "impact/error.hpp"

namespace impact {

namespace {

using RevwalkPtr = std::unique_ptr<git_revwalk, git::Deleter<git_revwalk, git_revwalk_free>>;

// Adds the paths, old and new, of every delta between `old_tree` (null: empty) and `new_tree`.
void add_changed_paths(git_repository* repo, git_tree* old_tree, git_tree* new_tree,
                       std::unordered_set<std::string>& out) {
  git_diff* diff = nullptr;
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  if (git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, &opts) != 0) {
    throw Error("cannot compare two commits: {}", git::last_error());
  }
  git::DiffPtr owner(diff);
  for (size_t i = 0; i < git_diff_num_deltas(diff); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff, i);
    if (delta->old_file.path != nullptr) out.insert(delta->old_file.path);
    if (delta->new_file.path != nullptr) out.insert(delta->new_file.path);
  }
}

git::RepositoryPtr open_repository(const std::filesystem::path& root) {
  git_repository* repo = nullptr;
  if (git_repository_open(&repo, root.c_str()) != 0) {
    throw Error("cannot open the git repository at {}: {}", root.string(), git::last_error());
  }
  return git::RepositoryPtr(repo);
}

// The commit `rev` names, with the words GitRepository uses for a revision it cannot resolve.
git::CommitPtr resolve_commit(git_repository* repo, const std::string& rev) {
  git_object* object = nullptr;
  if (git_revparse_single(&object, repo, rev.c_str()) != 0) {
    if (git_repository_is_shallow(repo) == 1) {
      throw Error("unknown revision '{}' in this shallow clone; fetch it (git fetch origin {})", rev, rev);
    }
    throw Error("unknown revision '{}'; check the name, or fetch it (git fetch origin)", rev);
  }
  git::ObjectPtr owner(object);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) != 0) {
    throw Error("revision '{}' does not name a commit; pass a branch, tag or commit", rev);
  }
  return git::CommitPtr(reinterpret_cast<git_commit*>(peeled));
}

} // namespace

std::unordered_map<std::string, std::string> blob_ids_at(const std::filesystem::path& repo_root, const std::string& rev) {
  auto repo = open_repository(repo_root);
  auto commit = resolve_commit(repo.get(), rev);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, commit.get()) != 0) {
    throw Error("cannot read the tree of {}: {}", rev, git::last_error());
  }
  git::TreePtr owner(tree);
  std::unordered_map<std::string, std::string> out;
  auto callback = [](const char* root, const git_tree_entry* entry, void* payload) -> int {
    git_filemode_t mode = git_tree_entry_filemode(entry);
    if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
      static_cast<std::unordered_map<std::string, std::string>*>(payload)->emplace(
          std::string(root) + git_tree_entry_name(entry), git::oid_hex(*git_tree_entry_id(entry)));
    }
    return 0;
  };
  if (git_tree_walk(tree, GIT_TREEWALK_PRE, callback, &out) != 0) {
    throw Error("cannot list the files of {}: {}", rev, git::last_error());
  }
  return out;
}

std::unordered_set<std::string> paths_committed_after(const std::filesystem::path& repo_root, int64_t epoch) {
  auto repo = open_repository(repo_root);
  std::unordered_set<std::string> out;
  git_revwalk* walk = nullptr;
  if (git_revwalk_new(&walk, repo.get()) != 0) throw Error("cannot walk the history: {}", git::last_error());
  RevwalkPtr owner(walk);
  // Newest first by committer time: every commit later than `epoch` that is reachable through later
  // commits comes before the first one at or before it.
  git_revwalk_sorting(walk, GIT_SORT_TIME);
  if (git_revwalk_push_head(walk) != 0) return out; // no commits yet
  git_oid oid;
  while (git_revwalk_next(&oid, walk) == 0) {
    git_commit* raw = nullptr;
    if (git_commit_lookup(&raw, repo.get(), &oid) != 0) {
      throw Error("cannot read commit {}: {}", git::oid_hex(oid), git::last_error());
    }
    git::CommitPtr commit(raw);
    if (static_cast<int64_t>(git_commit_time(raw)) <= epoch) break;
    git_tree* tree = nullptr;
    if (git_commit_tree(&tree, raw) != 0) throw Error("cannot read commit {}: {}", git::oid_hex(oid), git::last_error());
    git::TreePtr tree_owner(tree);
    unsigned parents = git_commit_parentcount(raw);
    if (parents == 0) add_changed_paths(repo.get(), nullptr, tree, out);
    for (unsigned i = 0; i < parents; ++i) {
      git_commit* parent = nullptr;
      git_tree* parent_tree = nullptr;
      // A parent missing from a shallow clone: every file of this commit counts as changed by it.
      if (git_commit_parent(&parent, raw, i) != 0) {
        add_changed_paths(repo.get(), nullptr, tree, out);
        continue;
      }
      git::CommitPtr parent_owner(parent);
      if (git_commit_tree(&parent_tree, parent) != 0) {
        add_changed_paths(repo.get(), nullptr, tree, out);
        continue;
      }
      git::TreePtr parent_tree_owner(parent_tree);
      add_changed_paths(repo.get(), parent_tree, tree, out);
    }
  }
  return out;
}

} // namespace impact
