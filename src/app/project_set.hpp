#pragma once
// Which pytest projects a command works on (docs/monorepo.md): none of this applies to a repository
// whose root configures pytest, which impact analyses as one project, as it always has.
#include "cli/options.hpp"
#include "impact/config.hpp"
#include "impact/monorepo.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace impact::app {

// The projects of a monorepo, and those one run works on.
struct ProjectSet {
  std::vector<monorepo::Project> all;      // every project of the repository, sorted by folder
  std::vector<monorepo::Project> selected; // the ones this run works on (-C, --project, projects globs)
  std::vector<std::string> warnings;       // for stderr: a projects glob that matches nothing
  double discovery_ms = 0;                 // how long finding `all` took (--timings)
};

// The project set for `options` in the repository at `root`, whose [tool.impact] is `root_config`; or
// nullopt outside monorepo mode: the root has a pytest configuration of its own, no project is
// found below it, or (without a `projects` list) a test file pytest collects lies outside every
// project found (discover_projects' `loose_test`; `root_test`, when given, is set to that file). A
// -C folder inside a project selects that project alone; a -C folder above projects selects those
// below it; --project selects the folders it names (relative to the folder impact runs in). Throws
// impact::Error for a --project that names no project, or for --project outside monorepo mode.
std::optional<ProjectSet> find_project_set(const std::filesystem::path& root, const cli::Options& options,
                                           const ImpactConfig& root_config, std::string* root_test = nullptr);

// Why a repository is one project, for messages: its root's pytest configuration file, else a test
// file outside every project folder, else that no folder configures pytest.
std::string not_a_monorepo(const std::string& root_config_file, const std::string& loose_test);

// `path` (absolute, or relative to `base`) relative to `root`, '/'-separated, "" for the root itself;
// a path outside `root` keeps its "../" steps.
std::string root_relative(const std::filesystem::path& root, const std::filesystem::path& base,
                          const std::filesystem::path& path);

} // namespace impact::app
