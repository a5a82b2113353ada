#include "decision/rules/changed_strict.hpp"

#include "decision/walk.hpp"

#include <algorithm>
#include <map>

namespace impact::decision::rules {

std::vector<std::string> unconnected_changes(const ImportGraph& graph, const std::vector<StrictCandidate>& candidates) {
  std::map<std::string, std::vector<uint32_t>> by_path;
  for (const auto& c : candidates) {
    auto& seeds = by_path[c.path];
    seeds.insert(seeds.end(), c.seeds.begin(), c.seeds.end());
  }
  std::vector<std::string> out;
  for (const auto& [path, seeds] : by_path) {
    ReverseWalk walk(graph);
    for (uint32_t node : seeds) walk.seed(node, Relation::modified);
    walk.run();
    bool connected = std::any_of(walk.order().begin(), walk.order().end(), [&](uint32_t node) {
      return graph.nodes[node].test && !graph.nodes[node].ghost;
    });
    if (!connected) out.push_back(path);
  }
  return out;
}

} // namespace impact::decision::rules
