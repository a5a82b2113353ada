// Which pytest projects a command works on: discovery (or the projects globs of [tool.impact]), then
// the restrictions of one run (-C, --project).
#include "app/project_set.hpp"

#include "impact/error.hpp"
#include "impact/project.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace impact::app {

namespace {

std::filesystem::path canonical_or_same(const std::filesystem::path& p) {
  std::error_code ec;
  auto out = std::filesystem::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : out;
}

// The projects under root-relative folder `dir` ("" the root: all of them).
std::vector<monorepo::Project> below(const std::vector<monorepo::Project>& projects, const std::string& dir) {
  if (dir.empty()) return projects;
  std::vector<monorepo::Project> out;
  for (const auto& p : projects) {
    if (p.dir.starts_with(dir) && p.dir.size() > dir.size() && p.dir[dir.size()] == '/') out.push_back(p);
  }
  return out;
}

} // namespace

std::string root_relative(const std::filesystem::path& root, const std::filesystem::path& base,
                          const std::filesystem::path& path) {
  std::filesystem::path absolute = path.is_absolute() ? path : base / path;
  std::string out = canonical_or_same(absolute).lexically_relative(canonical_or_same(root)).generic_string();
  while (out.size() > 1 && out.ends_with('/')) out.pop_back();
  return out == "." ? std::string() : out;
}

std::string not_a_monorepo(const std::string& root_config_file, const std::string& loose_test) {
  if (!root_config_file.empty()) return root_config_file + " configures pytest at the root";
  if (!loose_test.empty()) return loose_test + ", a test file outside every project folder, makes the root a project";
  return "no folder below the root configures pytest";
}

std::optional<ProjectSet> find_project_set(const std::filesystem::path& root, const cli::Options& options,
                                           const ImpactConfig& root_config, std::string* root_test) {
  auto start = std::chrono::steady_clock::now();
  std::string own = pytest_config_file(root, "");
  ProjectSet set;
  // Discovery also finds a test file that pytest run at the root collects outside every project: the
  // root is then a project, whose tests no project's run would reach. A `projects` list in
  // [tool.impact] says otherwise.
  std::string loose;
  if (own.empty()) {
    set.all = root_config.projects.is_set()
                  ? monorepo::pinned_projects(root, root_config.projects.value,
                                              describe_source("projects", root_config.projects.source), set.warnings)
                  : monorepo::discover_projects(root, monorepo::k_discovery_depth, &loose);
  }
  if (set.all.empty()) loose.clear(); // no project: nothing to say about tests outside one
  if (root_test != nullptr) *root_test = loose;
  if (set.all.empty() || !loose.empty()) {
    if (!options.projects.empty()) {
      throw Error("--project {}: this repository is not a monorepo ({}); drop --project", options.projects.front(),
                  not_a_monorepo(own, loose));
    }
    return std::nullopt;
  }
  set.discovery_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::string here = root_relative(root, std::filesystem::current_path(), options.directory);
  if (const monorepo::Project* owner = monorepo::owner_of(set.all, here)) {
    set.selected = {*owner};
    set.selected.front().found_by = "-C";
  } else {
    set.selected = below(set.all, here);
    if (set.selected.empty()) set.selected = set.all; // a folder beside the projects: the repository's
  }
  if (!options.projects.empty()) {
    std::vector<std::string> paths;
    for (const auto& p : options.projects) paths.push_back(root_relative(root, options.directory, p));
    set.selected = monorepo::restrict_to(set.all, paths, "--project");
  }
  return set;
}

} // namespace impact::app
