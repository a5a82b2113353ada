// docs/selection.md, syntax-error: which session-wide file (a conftest.py, a plugin) loads a file that
// does not compile.
#include "decision/syntax_rules.hpp"
#include "decision/walk.hpp"
#include "impact/graph.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace impact::decision {

std::optional<std::string> session_loader(const ImportGraph& graph, uint32_t node) {
  ReverseWalk walk(graph);
  walk.seed(node, Relation::syntax_error);
  walk.run();
  for (uint32_t n : walk.order()) {
    const GraphNode& g = graph.nodes[n];
    if (g.ghost) continue;
    bool plugin = std::any_of(graph.in[n].begin(), graph.in[n].end(),
                              [](const auto& e) { return e.second.kind == EdgeKind::pytest_plugin; });
    if (g.conftest || plugin) return g.path.str;
  }
  return std::nullopt;
}

std::string session_failure(const SyntaxProblem& problem, const std::string& loader) {
  if (loader == problem.path.str) {
    return fmt::format("{} is loaded into every pytest session and {}", loader, problem.why);
  }
  return fmt::format("{} is loaded into every pytest session and imports {}, whose {}", loader, problem.path,
                     problem.why);
}

} // namespace impact::decision
