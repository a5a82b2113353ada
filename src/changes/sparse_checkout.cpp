// Sparse checkouts: files marked skip-worktree in the index are tracked but absent from the work tree.
// git reads them from the index (they are not deleted); pytest cannot collect or import them, so the
// inventory marks them and the project layout leaves them out of collection (docs/selection.md,
// rule `sparse-checkout`).
#include "changes/git_repository.hpp"
#include "impact/error.hpp"

#include <sys/stat.h>

#include <algorithm>

namespace impact {

// `files` sorted by path.
void GitRepository::mark_not_checked_out(std::vector<SourceFile>& files) {
  git_index* index = nullptr;
  if (git_repository_index(&index, m_repo.get()) != 0) throw Error("cannot read the git index: {}", git::last_error());
  git::IndexPtr owner(index);
  size_t count = git_index_entrycount(index);
  for (size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(index, i);
    if (entry == nullptr || (entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) == 0) continue;
    RepoPath path(entry->path);
    auto it = std::lower_bound(files.begin(), files.end(), path,
                               [](const SourceFile& f, const RepoPath& p) { return f.path < p; });
    if (it == files.end() || it->path != path) continue;
    // skip-worktree with the file on disk all the same (set by hand with git update-index): it runs.
    struct stat st {};
    if (::lstat((m_root / path.str).c_str(), &st) != 0) it->not_checked_out = true;
  }
}

} // namespace impact
