#pragma once
// The diff of a base tree against the work tree (through the index), as libgit2's
// git_diff_tree_to_workdir_with_index computes it, but with the work-tree side narrowed to the paths
// that can differ: a stat of every tracked file on two threads (git's own rules: stat data equal to
// the index entry's and not racily clean means unchanged) and a listing of the folders for files the
// index does not hold. libgit2 then describes exactly those paths, so the deltas are the same as the
// whole diff's (tests/unit/changes/workdir_diff_test.cpp compares the two over many states).
#include "changes/git_handles.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace impact::git {

// The paths of `index` (and untracked files and folders under `root`) that may differ between the
// index and the work tree: a superset of what a diff of the two reports. nullopt when the scan cannot
// vouch for its answer (the index changed on disk meanwhile, a case-insensitive repository, too many
// candidates to be worth it): then the whole diff is the answer.
std::optional<std::vector<std::string>> paths_that_may_differ(git_repository& repo, git_index& index,
                                                              const std::filesystem::path& root);

// merge(tree -> index, index -> work tree) with `opts`, as git_diff_tree_to_workdir_with_index; with
// `narrow`, the index -> work tree side only over paths_that_may_differ().
DiffPtr tree_to_workdir(git_repository& repo, git_tree* base, git_index& index, const std::filesystem::path& root,
                        const git_diff_options& opts, bool narrow);

} // namespace impact::git
