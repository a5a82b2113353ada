// Data files changed since the coverage index was built (index_data_drift.hpp).
#include "app/index_data_drift.hpp"

#include "impact/error.hpp"

#include <algorithm>

namespace impact::app {

namespace {

void add_data(const ChangeSet& set, std::vector<std::pair<RepoPath, FileStatus>>& out) {
  for (const auto& f : set.files) {
    for (const RepoPath* side : {&f.old_path, &f.new_path}) {
      if (side->empty() || side->ends_with(".py")) continue;
      out.emplace_back(*side, f.status);
    }
  }
}

} // namespace

std::vector<std::pair<RepoPath, FileStatus>> data_since_index(Repository& repo, const IndexMeta& meta,
                                                              const ChangeSet& changes) {
  std::vector<std::pair<RepoPath, FileStatus>> out;
  add_data(changes, out);
  // Built at the change's own base, the change's files are the drift (the working tree's, not a staged
  // change's: the index measured the working tree).
  bool same_base = meta.commit == changes.base.commit && changes.base.mode == DiffMode::working_tree;
  if (!meta.commit.empty() && !same_base) {
    try {
      if (repo.ancestry(meta.commit) == Ancestry::head_or_ancestor) {
        ChangeRequest since;
        since.rev = meta.commit;
        since.rev_source = "the coverage index's commit";
        add_data(repo.changes(since), out);
      }
    } catch (const Error&) {
      // Not compared (a commit beyond a shallow clone's boundary): the change's own files still count.
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first.str < b.first.str; });
  out.erase(std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), out.end());
  return out;
}

} // namespace impact::app
