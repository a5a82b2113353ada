#include "decision/rules/session_hooks.hpp"

#include "decision/rules/registration.hpp"

#include <algorithm>

namespace impact::decision::rules {

std::optional<std::pair<uint32_t, uint32_t>> session_hook_file(const ImportGraph& graph, const ProjectFacts& facts,
                                                               const ReverseWalk& walk) {
  FactsView view;
  for (uint32_t node : walk.order()) {
    const GraphNode& n = graph.nodes[node];
    if (node >= facts.size() || n.ghost) continue;
    // Hooks are read from conftest.py files and plugins (`pytest_plugins`, `-p`, entry points) only.
    bool plugin = std::any_of(graph.in[node].begin(), graph.in[node].end(),
                              [](const auto& e) { return e.second.kind == EdgeKind::pytest_plugin; });
    if (!n.conftest && !plugin) continue;
    facts.view(node, view);
    for (const SymbolView& s : view.symbols) {
      if (session_hook(s)) return std::pair{node, s.def_line};
    }
  }
  return std::nullopt;
}

} // namespace impact::decision::rules
