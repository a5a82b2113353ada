#pragma once
// Shared helpers for the unit tests: temporary folders, facts from source text, small hand-made
// projects (inventory, ProjectFacts, layout and graph) and change sets.
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"
#include "impact/project.hpp"
#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::testing {

// A folder under $TMPDIR (or /tmp) removed with everything in it when the object goes.
class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "impact-unit-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(std::string_view rel) const { return m_path / rel; }

  // Writes `content` to `rel`, creating the folders above it.
  std::filesystem::path write(std::string_view rel, std::string_view content) const {
    auto p = m_path / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << content;
    return p;
  }
  // Writes an executable shell script to `rel`.
  std::filesystem::path executable(std::string_view rel) const {
    auto p = write(rel, "#!/bin/sh\nexit 0\n");
    ::chmod(p.c_str(), 0755);
    return p;
  }

private:
  std::filesystem::path m_path;
};

// The facts of one source text.
inline FileFacts extract(std::string_view source) {
  FactsExtractor extractor;
  return extractor.extract(source);
}

// A fake 40-hex blob id, distinct per number.
inline std::string oid(size_t n) { return fmt::format("{:040x}", n + 1); }

// A SourceFile whatever fields it grows.
inline SourceFile source_file(std::string path, std::string id) {
  SourceFile f;
  f.path = RepoPath(std::move(path));
  f.oid = std::move(id);
  return f;
}

// A small project: files with their content (the content of non-Python files is ignored).
struct Project {
  PytestConfig config;
  std::vector<std::pair<std::string, std::string>> files;

  // Adds a file, or replaces the content of one already added.
  Project& file(std::string path, std::string content = "") {
    for (auto& [p, c] : files) {
      if (p == path) {
        c = std::move(content);
        return *this;
      }
    }
    files.emplace_back(std::move(path), std::move(content));
    return *this;
  }
};

// What a project becomes: the stages up to the graph.
struct Built {
  std::vector<SourceFile> inventory;
  ProjectFacts facts;
  std::unique_ptr<ProjectLayout> layout;
  ImportGraph graph;

  const GraphNode& node(std::string_view path) const {
    auto i = graph.find(path);
    if (!i) throw std::runtime_error(fmt::format("no graph node {}", path));
    return graph.nodes[*i];
  }
};

// Builds inventory, facts, layout and graph; `ghosts` are deleted Python files of the base.
inline std::unique_ptr<Built> build(const Project& project, const std::vector<std::string>& ghosts = {}) {
  auto files = project.files;
  std::sort(files.begin(), files.end());
  auto out = std::make_unique<Built>();
  for (size_t i = 0; i < files.size(); ++i) {
    SourceFile source = source_file(files[i].first, oid(i));
    out->inventory.push_back(source);
    if (files[i].first.ends_with(".py")) out->facts.add(source, out->facts.own(extract(files[i].second)));
  }
  out->layout = std::make_unique<ProjectLayout>(project.config, out->inventory, out->facts);
  std::vector<RepoPath> ghost_paths;
  for (const auto& g : ghosts) ghost_paths.emplace_back(g);
  out->graph = build_import_graph(*out->layout, out->facts, ghost_paths);
  return out;
}

// The edge from -> to, or nullptr.
inline const Edge* find_edge(const ImportGraph& graph, std::string_view from, std::string_view to) {
  auto a = graph.find(from);
  auto b = graph.find(to);
  if (!a || !b) return nullptr;
  for (const auto& e : graph.out[*a]) {
    if (e.target == *b) return &e;
  }
  return nullptr;
}

inline bool has_edge(const ImportGraph& graph, std::string_view from, std::string_view to, EdgeKind kind) {
  const Edge* e = find_edge(graph, from, to);
  return e != nullptr && e->kind == kind;
}

// The paths `from` links to, sorted.
inline std::vector<std::string> targets(const ImportGraph& graph, std::string_view from) {
  std::vector<std::string> out;
  auto a = graph.find(from);
  if (!a) return out;
  for (const auto& e : graph.out[*a]) out.push_back(graph.nodes[e.target].path.str);
  std::sort(out.begin(), out.end());
  return out;
}

// Change sets.
inline ChangedFile modified(std::string path) {
  ChangedFile f;
  f.status = FileStatus::modified;
  f.old_path = RepoPath(path);
  f.new_path = RepoPath(std::move(path));
  return f;
}
inline ChangedFile added(std::string path) {
  ChangedFile f;
  f.status = FileStatus::added;
  f.new_path = RepoPath(std::move(path));
  return f;
}
inline ChangedFile deleted(std::string path) {
  ChangedFile f;
  f.status = FileStatus::deleted;
  f.old_path = RepoPath(std::move(path));
  return f;
}
inline ChangedFile renamed(std::string from, std::string to) {
  ChangedFile f;
  f.status = FileStatus::renamed;
  f.old_path = RepoPath(std::move(from));
  f.new_path = RepoPath(std::move(to));
  return f;
}
inline ChangeSet change_set(std::vector<ChangedFile> files) {
  ChangeSet set;
  set.base.rev = "HEAD";
  set.base.commit = std::string(40, 'a');
  set.base.source = "default";
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
  set.files = std::move(files);
  return set;
}

// An environment made of the given variables only.
inline EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

// A hop of an evidence chain, whatever fields Hop grows; `relation` is the relation's word.
inline Hop hop(std::string path, std::string_view relation, uint32_t line = 0) {
  auto known = relation_named(relation);
  if (!known) throw std::invalid_argument(fmt::format("no relation is named '{}'", relation));
  Hop h;
  h.path = std::move(path);
  h.relation = *known;
  h.line = line;
  return h;
}

// A chain as "path relation line" strings, so that comparisons print readably and ignore what else a
// hop carries.
inline std::vector<std::string> hops(const std::vector<Hop>& chain) {
  std::vector<std::string> out;
  for (const auto& h : chain) out.push_back(fmt::format("{} {} {}", h.path, to_string(h.relation), h.line));
  return out;
}
inline std::string hop_text(const Hop& h) { return fmt::format("{} {} {}", h.path, to_string(h.relation), h.line); }

// The node ids a decision selected, in its order.
inline std::vector<std::string> node_ids(const Decision& decision) {
  std::vector<std::string> out;
  for (const auto& t : decision.selected) out.push_back(t.node_id);
  return out;
}

inline const SelectedTest* selected_test(const Decision& decision, std::string_view node_id) {
  for (const auto& t : decision.selected) {
    if (t.node_id == node_id) return &t;
  }
  return nullptr;
}

#ifdef IMPACT_SOURCE_DIR
// The text of docs/`name` in the source tree, for tests that hold the code to its documentation.
inline std::string doc_text(const std::string& name) {
  auto path = std::filesystem::path(IMPACT_SOURCE_DIR) / "docs" / name;
  auto text = util::read_file(path);
  if (!text) throw std::runtime_error("cannot read " + path.string());
  return *text;
}
#endif

} // namespace impact::testing
