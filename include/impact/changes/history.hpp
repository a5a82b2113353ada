#pragma once
#ifdef IMPACT_FORBID_CHANGES // defined for the stages that may not use changes (src/CMakeLists.txt)
#error "this stage may not use changes (docs/architecture.md, allowed edges)"
#endif
// What the history says about when files last changed, for `impact index --from`: the blobs of a named
// commit (--measured-at), and the paths changed by commits later than a point in time. Free functions
// over the repository at a root (opened afresh), beside the Repository seam: only `impact index` asks.
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace impact {

// path -> git blob id of every file in the tree of commit `rev`. Throws impact::Error naming `rev` when
// it does not name a commit.
std::unordered_map<std::string, std::string> blob_ids_at(const std::filesystem::path& repo_root, const std::string& rev);

// Every path a commit reachable from HEAD changed (against any of its parents, or added by a root
// commit, or every file of a commit whose parent a shallow clone lacks) when that commit's committer
// time is later than `epoch` (seconds). Commits are visited newest first, and the walk stops at the
// first one at or before `epoch`.
std::unordered_set<std::string> paths_committed_after(const std::filesystem::path& repo_root, int64_t epoch);

} // namespace impact
