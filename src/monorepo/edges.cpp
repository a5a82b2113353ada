// The edges between the projects of a monorepo: what their pyproject.toml files declare, what their
// imports show, and the projects a change reaches through them (docs/monorepo.md, "Changed-aware").
#include "impact/monorepo.hpp"
#include "impact/pyproject.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace impact::monorepo {

namespace {

void add_edge(std::vector<Edge>& out, const std::string& from, const std::string& to, bool declared, std::string why) {
  if (from == to) return;
  for (const auto& e : out) {
    if (e.from == from && e.to == to && e.declared == declared) return;
  }
  out.push_back(Edge{from, to, declared, std::move(why)});
}

std::string first_component(std::string_view path) { return std::string(path.substr(0, path.find('/'))); }

std::string module_of(std::string name) {
  if (name.ends_with(".py")) name.resize(name.size() - 3);
  return name;
}

// The project that owns `path` (as written in a file of root-relative folder `base`; absolute, or
// relative to it), or null.
const Project* project_at(const std::filesystem::path& root, const std::vector<Project>& projects,
                          const std::string& base, const std::string& path) {
  std::filesystem::path written(path);
  std::filesystem::path full = written.is_absolute() ? written.lexically_relative(root) : std::filesystem::path(base) / written;
  std::string rel = full.lexically_normal().generic_string();
  while (rel.size() > 1 && rel.ends_with('/')) rel.pop_back();
  if (rel.empty() || rel == "." || rel.starts_with("../")) return nullptr;
  return owner_of(projects, rel);
}

} // namespace

std::vector<Edge> declared_edges(const std::filesystem::path& root, const std::vector<Project>& projects) {
  std::map<std::string, std::string> by_name; // distribution -> project folder
  std::vector<std::optional<config::Distribution>> dists, cfgs; // pyproject.toml's, setup.cfg's
  for (const auto& p : projects) {
    dists.push_back(config::read_distribution(root / p.dir / "pyproject.toml", p.dir + "/pyproject.toml"));
    cfgs.push_back(config::read_setup_cfg_distribution(root / p.dir / "setup.cfg", p.dir + "/setup.cfg"));
    for (const auto* d : {&dists.back(), &cfgs.back()}) {
      if (*d && !(*d)->name.empty()) by_name.emplace((*d)->name, p.dir);
    }
  }
  std::vector<Edge> out;
  for (size_t i = 0; i < projects.size(); ++i) {
    if (!cfgs[i]) continue;
    for (const auto& name : cfgs[i]->requirements) {
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;
      add_edge(out, projects[i].dir, it->second, true,
               fmt::format("declares {} in {}/setup.cfg", name, projects[i].dir));
    }
  }
  for (size_t i = 0; i < projects.size(); ++i) {
    if (!dists[i]) continue;
    const Project& p = projects[i];
    for (const auto& name : dists[i]->requirements) {
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;
      add_edge(out, p.dir, it->second, true, fmt::format("declares {} in {}/pyproject.toml", name, p.dir));
    }
    for (const auto& path : dists[i]->paths) {
      if (const Project* q = project_at(root, projects, p.dir, path)) {
        add_edge(out, p.dir, q->dir, true, fmt::format("path dependency {} in {}/pyproject.toml", path, p.dir));
      }
    }
  }
  // pip's requirements files: a sibling by name, or by path (relative to the file's folder or, as
  // pip run in the project resolves it, to the project's).
  for (const auto& p : projects) {
    for (const auto& file : config::read_requirements_files(root / p.dir, p.dir)) {
      for (const auto& name : file.declared.requirements) {
        auto it = by_name.find(name);
        if (it != by_name.end()) add_edge(out, p.dir, it->second, true, fmt::format("declares {} in {}", name, file.display_name));
      }
      for (const auto& path : file.declared.paths) {
        for (const std::string& base : {p.dir + (file.folder.empty() ? "" : "/" + file.folder), p.dir}) {
          const Project* q = project_at(root, projects, base, path);
          if (q != nullptr) add_edge(out, p.dir, q->dir, true, fmt::format("path dependency {} in {}", path, file.display_name));
        }
      }
    }
  }
  return out;
}

std::vector<std::string> provided_names(const std::string& project_dir, const std::vector<std::string>& python_files) {
  std::set<std::string> out;
  for (const auto& file : python_files) {
    std::string_view rel(file);
    if (!project_dir.empty()) {
      if (!rel.starts_with(project_dir + "/")) continue;
      rel.remove_prefix(project_dir.size() + 1);
    }
    std::string first = first_component(rel);
    bool is_file = first.size() == rel.size();
    out.insert(module_of(first));
    if (!is_file && (first == "src" || first == "lib" || first == "python")) {
      rel.remove_prefix(first.size() + 1);
      out.insert(module_of(first_component(rel)));
    }
  }
  return {out.begin(), out.end()};
}

std::vector<Edge> import_edges(const std::vector<Project>& projects, const std::vector<FileImports>& files) {
  std::map<std::string, std::vector<std::string>> python_files; // project -> its files
  for (const auto& f : files) {
    if (const Project* p = owner_of(projects, f.path)) python_files[p->dir].push_back(f.path);
  }
  std::map<std::string, std::set<std::string>> provides;         // project -> names
  std::map<std::string, std::vector<std::string>> providers;     // name -> projects
  for (const auto& [dir, paths] : python_files) {
    for (auto& name : provided_names(dir, paths)) {
      provides[dir].insert(name);
      providers[name].push_back(dir);
    }
  }
  std::vector<Edge> out;
  for (const auto& f : files) {
    const Project* q = owner_of(projects, f.path);
    if (q == nullptr) continue;
    for (const auto& name : f.top_names) {
      if (provides[q->dir].contains(name)) continue; // its own module shadows a sibling's
      auto it = providers.find(name);
      if (it == providers.end()) continue;
      for (const auto& p : it->second) add_edge(out, q->dir, p, false, fmt::format("{} imports {}", f.path, name));
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> dependents(const std::vector<Edge>& edges,
                                                            const std::vector<std::string>& changed) {
  // One walk per changed project: a changed project is a dependent too when another changed project
  // reaches it (its own selection covers only its own change).
  std::map<std::string, std::string> found; // project -> "it -> ... -> changed"
  for (const auto& seed : changed) {
    std::map<std::string, std::string> chain{{seed, seed}};
    std::deque<std::string> queue{seed};
    while (!queue.empty()) {
      std::string to = queue.front();
      queue.pop_front();
      for (const auto& e : edges) {
        if (e.to != to || chain.contains(e.from)) continue;
        chain[e.from] = e.from + " -> " + chain[to];
        queue.push_back(e.from);
        found.emplace(e.from, chain[e.from]); // the first seed to reach it names the chain
      }
    }
  }
  found.erase(std::string()); // never a project
  return {found.begin(), found.end()};
}

} // namespace impact::monorepo
