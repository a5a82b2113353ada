#pragma once
// Where impact keeps its caches: $IMPACT_CACHE when set, else <repository>/.impact_cache. The folder is
// safe to delete; it carries a .gitignore of "*" so that git (and so impact) never sees it as a change.
#include "impact/vocabulary.hpp"

#include <filesystem>

namespace impact::util {

// The cache folder of the repository at `repo_root`; `env` gives IMPACT_CACHE (relative to the root).
std::filesystem::path cache_dir(const std::filesystem::path& repo_root, const EnvLookup& env);

// Creates the folder and its .gitignore when missing. Throws impact::Error when it cannot.
void ensure_cache_dir(const std::filesystem::path& dir);

} // namespace impact::util
