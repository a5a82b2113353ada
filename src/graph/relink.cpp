// A stored graph brought up to date: the files whose facts changed since it was built are linked
// again, with the files whose links read a changed file's facts, and the tables and reverse edges are
// built as a full build builds them (docs/cache.md, "The stored graph").
#include "graph/linker.hpp"

#include <algorithm>

namespace impact::graph {

namespace {

// A file's links read another file's facts in one place: `from pkg import *` reads the __all__ of
// pkg/__init__.py (star_submodules), and every such importer links to that __init__.py. So the files
// to link again are the changed ones and the importers of a changed __init__.py.
std::vector<uint32_t> files_to_link(const ImportGraph& graph, std::vector<uint32_t> changed) {
  std::vector<char> init(graph.nodes.size(), 0);
  bool any_init = false;
  for (uint32_t f : changed) {
    if (graph.nodes[f].path.filename() == "__init__.py") init[f] = any_init = true;
  }
  if (any_init) {
    for (uint32_t a = 0; a < graph.out.size(); ++a) {
      bool reads = std::any_of(graph.out[a].begin(), graph.out[a].end(), [&](const Edge& e) { return init[e.target] != 0; });
      if (reads && !graph.nodes[a].ghost) changed.push_back(a);
    }
  }
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  return changed;
}

} // namespace

void index_nodes(ImportGraph& graph, size_t files, size_t ghosts) {
  // As add_nodes() fills them: the same sizes reserved, then the same insertions in node order.
  graph.by_path.reserve(files + ghosts);
  graph.modules.reserve(2 * (files + ghosts));
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    graph.by_path.emplace(graph.nodes[i].path.str, i);
    for (const auto& name : graph.nodes[i].module_names) graph.modules[name].push_back(i);
  }
}

size_t GraphBuilder::restore(const std::vector<RepoPath>& ghosts, std::vector<uint32_t> changed) {
  m_index.names() = std::move(m_graph.modules);
  std::vector<uint32_t> files = files_to_link(m_graph, std::move(changed));
  if (!files.empty()) {
    m_entries.reserve(2 * (m_facts.size() + ghosts.size())); // as reserve_tables() does
    for (const auto& node : m_graph.nodes) add_entries(node.path);
    index_entries();
    std::vector<char> linked(m_graph.nodes.size(), 0);
    for (uint32_t f : files) {
      linked[f] = 1;
      GraphNode& node = m_graph.nodes[f];
      node.test = node.test_pattern = node.doctest_collected = false;
      m_graph.out[f].clear();
    }
    std::erase_if(m_graph.unbounded, [&](const UnboundedImport& u) { return linked[u.node] != 0; });
    std::erase_if(m_graph.open_submodule_importers, [&](uint32_t n) { return linked[n] != 0; });
    Linker linker(*this);
    for (uint32_t f : files) linker.link(f, f + 1);
    std::vector<uint32_t> session = linker.session_modules();
    for (uint32_t f : files) linker.implied_edges_of(f, session);
    // Both lists are in file order, and a file's own entries in the order its linking made them.
    m_graph.unbounded.insert(m_graph.unbounded.end(), linker.unbounded().begin(), linker.unbounded().end());
    std::stable_sort(m_graph.unbounded.begin(), m_graph.unbounded.end(),
                     [](const UnboundedImport& a, const UnboundedImport& b) { return a.node < b.node; });
    auto& open = m_graph.open_submodule_importers;
    open.insert(open.end(), linker.open_submodules().begin(), linker.open_submodules().end());
    std::sort(open.begin(), open.end());
  }
  m_graph.in.assign(m_graph.nodes.size(), {});
  Linker(*this).reverse_edges();
  m_graph.modules = std::move(m_index.names());
  return files.size();
}

} // namespace impact::graph
