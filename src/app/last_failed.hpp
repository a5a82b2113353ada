#pragma once
// --include-failed (docs/selection.md, `include-failed`): the tests that failed in pytest's last run,
// as its cache provider recorded them.
#include "impact/project.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace impact {

// The node ids of pytest's `lastfailed` record under the rootdir's `.pytest_cache`, repo-relative,
// sorted; empty when there is none. A record that cannot be read adds a warning to `warnings` and
// gives nothing: it only ever adds tests.
std::vector<std::string> last_failed(const std::filesystem::path& repo_root, const PytestConfig& pytest,
                                     std::vector<std::string>& warnings);

} // namespace impact
