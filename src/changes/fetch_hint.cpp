// The git command a message suggests when a revision or its history is missing. It must work when
// pasted: `git fetch origin main` in a single-branch clone (what actions/checkout and `git clone
// --depth 1` make) only fills FETCH_HEAD and never creates origin/main, and a shallow clone needs
// --unshallow before any merge-base beyond its depth can be found.
#include "impact/changes.hpp"

#include <fmt/format.h>

namespace impact {

namespace {

// "main" for "origin/main" or "refs/remotes/origin/main"; "" for anything else.
std::string_view remote_branch_of(std::string_view rev) {
  for (std::string_view prefix : {"refs/remotes/origin/", "remotes/origin/", "origin/"}) {
    if (rev.starts_with(prefix) && rev.size() > prefix.size()) return rev.substr(prefix.size());
  }
  return {};
}

} // namespace

std::string fetch_command(std::string_view rev, bool shallow) {
  std::string_view branch = remote_branch_of(rev);
  std::string_view deepen = shallow ? " --unshallow" : "";
  if (branch.empty()) return fmt::format("git fetch{} origin", deepen);
  return fmt::format("git fetch{} origin {}:refs/remotes/origin/{}", deepen, branch, branch);
}

} // namespace impact
