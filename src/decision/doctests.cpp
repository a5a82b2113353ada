#include "decision/doctests.hpp"
#include "impact/python/project_facts.hpp"

#include <algorithm>
#include <optional>

namespace impact::decision {

namespace {

// `doctest_namespace` is one dict for the whole session: a fixture that fills it (anywhere, not only
// in a conftest.py above the doctest) hands its names to every doctest that runs after it. semver's
// tests/conftest.py fills it with `semver` and `Version`, which docs/usage/*.rst read unimported.
// The first such file the walk reached, if any.
std::optional<uint32_t> reached_filler(const DecisionInput& in, const ReverseWalk& walk) {
  // --file-level runs have no symbol facts (in.facts), but the facts are read all the same.
  const ProjectFacts* facts = in.facts != nullptr ? in.facts : in.non_python.facts;
  if (facts == nullptr) {
    // Unknown which file fills it: any reached file may.
    if (walk.order().empty()) return std::nullopt;
    return walk.order().front();
  }
  for (uint32_t h : facts->files_mentioning("doctest_namespace")) {
    if (h < in.graph.nodes.size() && walk.reached(h)) return h;
  }
  return std::nullopt;
}

std::vector<Hop> chain_to(const ReverseWalk& walk, Hop first, uint32_t node) {
  std::vector<Hop> chain{std::move(first)};
  auto rest = walk.chain(node);
  chain.insert(chain.end(), rest.begin(), rest.end());
  return chain;
}

} // namespace

void select_doctests(const DecisionInput& in, const ReverseWalk& walk, Selection& out,
                     const std::function<void(Selection&, uint32_t, std::vector<Hop>)>& select_file) {
  std::optional<uint32_t> filler = reached_filler(in, walk);
  for (const auto& doc : in.text_doctests) {
    bool selected = false;
    for (const auto& [module, line] : doc.modules) {
      const auto& nodes = in.graph.modules_named(module);
      auto hit = std::find_if(nodes.begin(), nodes.end(), [&](uint32_t n) { return walk.reached(n); });
      if (hit == nodes.end()) continue;
      out.tests.emplace(doc.path.str, chain_to(walk, Hop{doc.path.str, Relation::doctest_imports, line, {}}, *hit));
      selected = true;
      break;
    }
    if (selected) continue;
    in.graph.conftests_from(doc.path.parent(), [&](uint32_t c) {
      if (!walk.reached(c)) return true;
      out.tests.emplace(doc.path.str, chain_to(walk, Hop{doc.path.str, Relation::conftest, 0, {}}, c));
      selected = true;
      return false;
    });
    if (!selected && filler) {
      out.tests.emplace(doc.path.str, chain_to(walk, Hop{doc.path.str, Relation::doctest_namespace, 0, {}}, *filler));
    }
  }
  if (!filler) return;
  // A module collected for its doctests (--doctest-modules) reads the namespace too.
  for (uint32_t node = 0; node < in.graph.nodes.size(); ++node) {
    const GraphNode& n = in.graph.nodes[node];
    if (n.test && !n.test_pattern && !n.ghost && !walk.reached(node)) {
      select_file(out, node, chain_to(walk, Hop{n.path.str, Relation::doctest_namespace, 0, {}}, *filler));
    }
  }
}

} // namespace impact::decision
