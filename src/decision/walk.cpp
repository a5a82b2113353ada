#include "decision/walk.hpp"
#include "decision/relation.hpp"

namespace impact::decision {

void ReverseWalk::seed(uint32_t node, Relation relation) {
  if (reached(node)) return;
  m_via[node] = Via{State::seed, node, 0, relation};
  m_order.push_back(node);
}

void ReverseWalk::link(uint32_t node, uint32_t towards, Relation relation, uint32_t line) {
  if (reached(node)) return;
  m_via[node] = Via{State::edge, towards, line, relation};
  m_order.push_back(node);
}

void ReverseWalk::run() {
  for (; m_next < m_order.size(); ++m_next) {
    uint32_t node = m_order[m_next];
    for (const auto& [from, edge] : m_graph.in[node]) {
      if (reached(from)) continue;
      m_via[from] = Via{State::edge, node, edge.line, relation_of(edge.kind)};
      m_order.push_back(from);
    }
  }
}

std::vector<Hop> ReverseWalk::chain(uint32_t node) const {
  std::vector<Hop> hops;
  for (size_t guard = 0; guard <= m_graph.nodes.size(); ++guard) {
    const Via& via = m_via[node];
    hops.push_back(Hop{m_graph.nodes[node].path.str, via.relation, via.line, {}});
    if (via.state != State::edge) break;
    node = via.towards;
  }
  return hops;
}

std::vector<bool> ReverseWalk::seeds_reaching_tests() const {
  std::vector<bool> out(m_graph.nodes.size(), false);
  for (uint32_t node : m_order) {
    if (m_graph.nodes[node].test && !m_graph.nodes[node].ghost) out[seed_of(node)] = true;
  }
  return out;
}

uint32_t ReverseWalk::seed_of(uint32_t node) const {
  for (size_t guard = 0; guard <= m_graph.nodes.size() && m_via[node].state == State::edge; ++guard) {
    node = m_via[node].towards;
  }
  return node;
}

} // namespace impact::decision
