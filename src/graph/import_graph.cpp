// Building the file-level graph: nodes for every Python file (and ghosts of deleted ones), import edges
// resolved against the import roots, and the edges Python and pytest imply without an import statement
// (package __init__.py files, conftest.py files, session-wide plugins). The builder and the linker are
// in linker.hpp.
#include "graph/linker.hpp"

#include <algorithm>
#include <memory>
#include <thread>

namespace impact {

std::string_view to_string(EdgeKind kind) {
  switch (kind) {
  case EdgeKind::import_: return "import";
  case EdgeKind::from_import: return "from_import";
  case EdgeKind::star_import: return "star_import";
  case EdgeKind::dynamic_import: return "dynamic_import";
  case EdgeKind::dynamic_prefix: return "dynamic_prefix";
  case EdgeKind::pytest_plugin: return "pytest_plugin";
  case EdgeKind::string_ref: return "string_ref";
  case EdgeKind::package_init: return "package_init";
  case EdgeKind::conftest: return "conftest";
  case EdgeKind::symlink: return "symlink";
  case EdgeKind::name_match: return "name_match";
  }
  return "import";
}

const std::vector<uint32_t>& ImportGraph::modules_named(std::string_view name) const {
  static const std::vector<uint32_t> k_none;
  auto it = modules.find(name);
  return it == modules.end() ? k_none : it->second;
}

std::optional<uint32_t> ImportGraph::find(std::string_view path) const {
  auto it = by_path.find(path);
  if (it == by_path.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> relative_module_names(const GraphNode& importer, int level, std::string_view module) {
  std::vector<std::string> out;
  bool package = importer.path.filename() == "__init__.py"; // its name is the package's own
  for (std::string_view name : importer.module_names) {
    for (int up = package ? 1 : 0; up < level && !name.empty(); ++up) {
      size_t dot = name.rfind('.');
      name = dot == std::string_view::npos ? std::string_view() : name.substr(0, dot);
    }
    if (name.empty()) continue;
    std::string full(name);
    if (!module.empty()) full.append(".").append(module);
    if (std::find(out.begin(), out.end(), full) == out.end()) out.push_back(std::move(full));
  }
  return out;
}

} // namespace impact

namespace impact::graph {

void GraphBuilder::build(const std::vector<RepoPath>& ghosts, unsigned max_threads, uint32_t files_per_thread) {
  add_nodes(ghosts);
  // Linking is most of the work on a large repository: contiguous ranges of files on up to one thread
  // per core. The graph is the same whatever the split: each file's edges come from its own range, in
  // import order, and the unbounded imports are joined in file order.
  auto files = static_cast<uint32_t>(m_facts.size());
  unsigned cap = max_threads > 0 ? max_threads : std::max(1u, std::thread::hardware_concurrency());
  unsigned threads = std::clamp(files / std::max(1u, files_per_thread), 1u, cap);
  std::vector<std::unique_ptr<Linker>> linkers;
  for (unsigned t = 0; t < threads; ++t) linkers.push_back(std::make_unique<Linker>(*this));
  auto range = [&](unsigned t) { return static_cast<uint32_t>(static_cast<uint64_t>(files) * t / threads); };
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) workers.emplace_back([&, t] { linkers[t]->link(range(t), range(t + 1)); });
  linkers[0]->link(range(0), range(1));
  for (auto& w : workers) w.join();
  for (auto& linker : linkers) {
    auto& u = linker->unbounded();
    m_graph.unbounded.insert(m_graph.unbounded.end(), u.begin(), u.end());
    auto& o = linker->open_submodules();
    m_graph.open_submodule_importers.insert(m_graph.open_submodule_importers.end(), o.begin(), o.end());
  }
  Linker implied(*this);
  implied.implied_edges();
  implied.reverse_edges();
  // The index itself becomes the graph's (it is only looked up, never iterated, from there on): copying
  // its names into a new table cost as much as linking the imports of the benchmark's 13,000 files.
  m_graph.modules = std::move(m_index.names());
}

} // namespace impact::graph

namespace impact {

ImportGraph build_import_graph(const ProjectLayout& layout, const ProjectFacts& facts,
                               const std::vector<RepoPath>& ghosts, unsigned max_threads, uint32_t files_per_thread) {
  ImportGraph graph;
  graph::GraphBuilder(layout, facts, graph).build(ghosts, max_threads, files_per_thread);
  return graph;
}

} // namespace impact
