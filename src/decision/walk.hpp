#pragma once
// ReverseWalk: breadth-first from changed files backwards over the graph's edges (to the files that
// load them), remembering for every file reached the edge it was reached through, so that a chain of
// evidence can be read back.
#include "impact/decision.hpp"
#include "impact/graph.hpp"

#include <vector>

namespace impact::decision {

class ReverseWalk {
public:
  explicit ReverseWalk(const ImportGraph& graph) : m_graph(graph), m_via(graph.nodes.size()) {}

  // Starts the walk at `node` (a changed file, described by `relation`); no-op if already reached.
  void seed(uint32_t node, Relation relation);
  // Reaches `node` from `towards` (already reached) through a link the graph does not hold.
  void link(uint32_t node, uint32_t towards, Relation relation, uint32_t line);
  // Walks until every file that loads a reached file is reached.
  void run();

  bool reached(uint32_t node) const { return m_via[node].state != State::unreached; }
  const std::vector<uint32_t>& order() const { return m_order; }
  // The chain from `node` back to the seed that reached it.
  std::vector<Hop> chain(uint32_t node) const;
  // The seed that reached `node` (reached).
  uint32_t seed_of(uint32_t node) const;
  // Per node of the graph: whether it is a seed from which the walk reached a test file.
  std::vector<bool> seeds_reaching_tests() const;

private:
  enum class State : uint8_t { unreached, seed, edge };
  struct Via {
    State state = State::unreached;
    uint32_t towards = 0; // the node this one loads, one hop closer to the seed
    uint32_t line = 0;
    Relation relation = Relation::modified;
  };

  const ImportGraph& m_graph;
  std::vector<Via> m_via;
  std::vector<uint32_t> m_order; // nodes in the order they were reached
  size_t m_next = 0;
};

} // namespace impact::decision
