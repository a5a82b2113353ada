// Finding the pytest projects of a monorepo: a walk of the folders below the root, looking for the
// files pytest reads its configuration from, pruned where no project lives (docs/monorepo.md).
#include "impact/error.hpp"
#include "impact/monorepo.hpp"
#include "impact/project.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

namespace impact::monorepo {

namespace {

// Whether pytest collects file `name` by default (python_files = test_*.py *_test.py).
bool default_test_file(std::string_view name) {
  return name.ends_with(".py") && (name.starts_with("test_") || name.ends_with("_test.py"));
}

// One folder's entries: its sub-folders, sorted by name, links to folders left out (a link may point
// anywhere, and back up: following one could list a project twice or never end), and the first by
// name of its files (or links to files, which pytest collects too) that pytest collects by default.
struct Listing {
  std::vector<std::string> folders;
  std::string first_test;
};

Listing list(const std::filesystem::path& dir) {
  Listing out;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    std::string name = it->path().filename().string();
    if (it->is_directory(type_ec)) {
      if (!it->is_symlink(type_ec)) out.folders.push_back(std::move(name));
    } else if (it->is_regular_file(type_ec) && default_test_file(name) &&
               (out.first_test.empty() || name < out.first_test)) {
      out.first_test = std::move(name);
    }
  }
  std::sort(out.folders.begin(), out.folders.end());
  return out;
}

// Adds the projects at and below root-relative `dir` (at `depth` levels down) to `out`; sets
// `loose` (when given and still empty) to the first test file of a folder no project owns.
void walk(const std::filesystem::path& root, const std::string& dir, int depth, int max_depth,
          std::vector<Project>& out, std::string* loose) {
  Listing listing = list(dir.empty() ? root : root / dir);
  if (loose != nullptr && loose->empty() && !listing.first_test.empty()) {
    *loose = dir.empty() ? listing.first_test : dir + "/" + listing.first_test;
  }
  for (const std::string& name : listing.folders) {
    std::string child = dir.empty() ? name : dir + "/" + name;
    if (is_pruned(root / child)) continue;
    if (std::string config = pytest_config_file(root, child); !config.empty()) {
      out.push_back(Project{child, config, "discovered"}); // it owns its subtree: look no further down
      continue;
    }
    if (depth + 1 < max_depth) walk(root, child, depth + 1, max_depth, out, loose);
  }
}

} // namespace

bool is_pruned(const std::filesystem::path& dir) {
  std::string name = dir.filename().string();
  if (name.empty() || name.front() == '.') return true; // .git, .venv, .tox, .mypy_cache ...
  if (name == "node_modules" || name == "site-packages" || name == "__pycache__") return true;
  std::error_code ec;
  return std::filesystem::exists(dir / "pyvenv.cfg", ec) || std::filesystem::exists(dir / "conda-meta", ec);
}

std::vector<Project> discover_projects(const std::filesystem::path& root, int max_depth, std::string* loose_test) {
  std::vector<Project> out;
  if (max_depth > 0) walk(root, "", 0, max_depth, out, loose_test);
  std::sort(out.begin(), out.end(), [](const Project& a, const Project& b) { return a.dir < b.dir; });
  return out;
}

std::vector<Project> pinned_projects(const std::filesystem::path& root, const std::vector<std::string>& globs,
                                     const std::string& source, std::vector<std::string>& warnings) {
  std::vector<Project> found = discover_projects(root, k_pinned_depth);
  std::vector<Project> out;
  for (std::string glob : globs) {
    while (glob.size() > 1 && glob.ends_with('/')) glob.pop_back();
    if (glob.starts_with("./")) glob.erase(0, 2);
    bool matched = false;
    for (const auto& p : found) {
      if (!util::glob_match(glob, p.dir)) continue;
      matched = true;
      if (owner_of(out, p.dir) == nullptr) out.push_back(Project{p.dir, p.config, source});
    }
    if (!matched) {
      warnings.push_back(fmt::format("projects glob '{}' ({}) matches no folder with a pytest configuration", glob,
                                     source));
    }
  }
  std::sort(out.begin(), out.end(), [](const Project& a, const Project& b) { return a.dir < b.dir; });
  return out;
}

const Project* owner_of(const std::vector<Project>& projects, std::string_view path) {
  for (const auto& p : projects) {
    if (path == p.dir || (path.starts_with(p.dir) && path.size() > p.dir.size() && path[p.dir.size()] == '/')) return &p;
  }
  return nullptr;
}

std::vector<Project> restrict_to(const std::vector<Project>& projects, const std::vector<std::string>& paths,
                                 const std::string& source) {
  std::vector<bool> keep(projects.size(), false);
  for (const auto& path : paths) {
    auto it = std::find_if(projects.begin(), projects.end(), [&](const Project& p) { return p.dir == path; });
    if (it == projects.end()) {
      throw Error("{} {}: not a project of this repository; impact projects lists them", source,
                  path.empty() ? std::string("''") : path);
    }
    keep[static_cast<size_t>(it - projects.begin())] = true;
  }
  std::vector<Project> out;
  for (size_t i = 0; i < projects.size(); ++i) {
    if (!keep[i]) continue;
    out.push_back(projects[i]);
    out.back().found_by = source;
  }
  return out;
}

std::string slug(std::string_view dir) {
  std::string out(dir);
  std::replace(out.begin(), out.end(), '/', '-');
  return out;
}

} // namespace impact::monorepo
