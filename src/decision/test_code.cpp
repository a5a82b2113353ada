#include "decision/test_code.hpp"

#include <algorithm>
#include <string_view>

namespace impact::decision {

namespace {

std::string_view folder_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

} // namespace

TestCode::TestCode(const ImportGraph& graph) : m_graph(&graph) {
  for (const auto& n : graph.nodes) {
    if (n.test && !n.ghost) m_folders.emplace(folder_of(n.path.view()));
  }
}

bool TestCode::holds(uint32_t node) const {
  std::string_view folder = folder_of(m_graph->nodes[node].path.view());
  for (;;) {
    if (m_folders.contains(folder)) return true;
    if (folder.empty()) return false;
    folder = folder_of(folder);
  }
}

bool TestCode::test_module_only(uint32_t node) const {
  const GraphNode& n = m_graph->nodes[node];
  if (!n.test && !n.conftest) return false;
  const auto& importers = m_graph->in[node];
  return std::all_of(importers.begin(), importers.end(), [&](const auto& e) { return holds(e.first); });
}

} // namespace impact::decision
