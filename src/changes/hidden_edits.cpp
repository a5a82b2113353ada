// Edits git's own status does not show: a file marked skip-worktree (`git update-index
// --skip-worktree`) or assume-unchanged (`--assume-unchanged`) that is on disk all the same. Both bits
// tell git not to look at the file, and libgit2's diff honours them; Python imports the file on disk
// whatever the index says, so a test runs the edited code (docs/selection.md, `hidden-edits`).
#include "changes/git_repository.hpp"
#include "changes/worktree_file.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace impact {

namespace {

constexpr uint16_t k_assume_valid = 0x8000; // git's CE_VALID: `git update-index --assume-unchanged`

bool hidden(const git_index_entry& entry) {
  return GIT_INDEX_ENTRY_STAGE(&entry) == 0 &&
         ((entry.flags & k_assume_valid) != 0 || (entry.flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0) &&
         (entry.mode == GIT_FILEMODE_BLOB || entry.mode == GIT_FILEMODE_BLOB_EXECUTABLE);
}

} // namespace

// An assume-unchanged file gone from disk: deleted, when the base has it.
void GitRepository::deleted_under_bit(const git_index_entry& entry, git_tree& base_tree, std::vector<ChangedFile>& files) {
  RepoPath path(entry.path);
  auto known = std::find_if(files.begin(), files.end(), [&](const ChangedFile& f) { return f.path() == path; });
  git_tree_entry* base_entry = nullptr;
  if (git_tree_entry_bypath(&base_entry, &base_tree, entry.path) != 0) {
    if (known != files.end()) files.erase(known); // added in the index, gone on disk: nothing
    return;
  }
  git_tree_entry_free(base_entry);
  ChangedFile file;
  file.status = FileStatus::deleted;
  file.old_path = path;
  if (known != files.end()) {
    *known = std::move(file);
  } else {
    files.push_back(std::move(file));
  }
}

// Whether the repository is a sparse checkout (core.sparseCheckout): only then is a skip-worktree
// file missing from disk one the checkout left out, rather than one deleted after
// `git update-index --skip-worktree` (git still hides it; pytest can no longer import it).
bool GitRepository::sparse_checkout() {
  // `git sparse-checkout set` writes info/sparse-checkout, and its setting into config.worktree, which
  // libgit2 does not read.
  std::error_code ec;
  for (const char* dir : {git_repository_path(m_repo.get()), git_repository_commondir(m_repo.get())}) {
    if (dir != nullptr && std::filesystem::exists(std::filesystem::path(dir) / "info" / "sparse-checkout", ec)) return true;
  }
  git_config* config = nullptr;
  if (git_repository_config_snapshot(&config, m_repo.get()) != 0) return true; // unknown: as git's sparse view
  int on = 0;
  int rc = git_config_get_bool(&on, config, "core.sparseCheckout");
  bool sparse = rc == 0 ? on != 0 : rc != GIT_ENOTFOUND;
  git_config_free(config);
  return sparse;
}

void GitRepository::add_hidden_edits(git_index& index, git_tree& base_tree, std::vector<ChangedFile>& files) {
  size_t count = git_index_entrycount(&index);
  std::optional<bool> sparse; // sparse_checkout(), asked on the first absent skip-worktree file
  std::string absent_dir; // a folder a sparse checkout left out: the entries below it follow in a row
  for (size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(&index, i);
    if (entry == nullptr || !hidden(*entry)) continue;
    bool skip_worktree = (entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0;
    std::string_view name = entry->path;
    if (skip_worktree && !absent_dir.empty() && name.starts_with(absent_dir)) continue;
    std::filesystem::path disk = m_root / entry->path;
    WorktreeFile current = read_worktree_file(disk);
    if (current.status == util::ReadStatus::missing && skip_worktree && !sparse) sparse = sparse_checkout();
    if (current.status == util::ReadStatus::missing && (!skip_worktree || !*sparse)) {
      deleted_under_bit(*entry, base_tree, files); // gone, outside a sparse checkout: deleted
      continue;
    }
    if (current.status == util::ReadStatus::missing && name.find('/') != std::string_view::npos) {
      std::error_code ec;
      if (!std::filesystem::exists(disk.parent_path(), ec)) absent_dir = std::string(name.substr(0, name.rfind('/') + 1));
    }
    if (current.symlink || current.status != util::ReadStatus::ok) continue; // absent (a sparse checkout) or unreadable
    git_oid disk_id{};
    if (git_repository_hashfile(&disk_id, m_repo.get(), disk.c_str(), GIT_OBJECT_BLOB, entry->path) != 0) continue;
    if (git_oid_equal(&disk_id, &entry->id)) continue; // the index's content: the diff has it right
    RepoPath path(entry->path);
    git_oid base_id{};
    bool in_base = false;
    git_tree_entry* base_entry = nullptr;
    if (git_tree_entry_bypath(&base_entry, &base_tree, entry->path) == 0) {
      base_id = *git_tree_entry_id(base_entry);
      in_base = true;
      git_tree_entry_free(base_entry);
    }
    auto known = std::find_if(files.begin(), files.end(), [&](const ChangedFile& f) { return f.path() == path; });
    if (in_base && git_oid_equal(&disk_id, &base_id)) {
      if (known != files.end()) files.erase(known); // the index's change undone on disk
      continue;
    }
    ChangedFile file;
    file.status = in_base ? FileStatus::modified : FileStatus::added;
    if (in_base) file.old_path = path;
    file.new_path = path;
    file.binary = current.content.find('\0') < 8000; // git's rule: a NUL byte in the first 8000
    if (!file.binary) file.hunks = hunks_against(base_id, current.content);
    file.new_oid = git::oid_hex(disk_id);
    if (known != files.end()) {
      file.mode_changed = known->mode_changed;
      *known = std::move(file);
    } else {
      files.push_back(std::move(file));
    }
  }
}

} // namespace impact
