#pragma once
// The files that are not Python and changed since the coverage index was built (docs/coverage.md,
// "Data changed since the index"): the index's line maps say nothing of what they do to the tests.
#include "impact/changes.hpp"
#include "impact/coverage.hpp"

#include <utility>
#include <vector>

namespace impact::app {

// The files that are not Python and differ between the commit the index was built at (its meta's)
// and the working tree, with their status, plus those of `changes` (the change under test). Only
// `changes`' when that commit is not in HEAD's history or git cannot compare it.
std::vector<std::pair<RepoPath, FileStatus>> data_since_index(Repository& repo, const IndexMeta& meta,
                                                              const ChangeSet& changes);

} // namespace impact::app
