#pragma once
// ModuleIndex: dotted module names -> graph nodes, for every import root a file lies under.
#include "impact/graph.hpp"
#include "util/string_set.hpp"

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace impact::graph {

// The dotted names `path` can be imported as, one per import root it lies under.
std::vector<std::string> module_names_of(std::string_view path, const util::StringSet& roots);

class ModuleIndex {
public:
  void add(const std::string& name, uint32_t node) { m_names[name].push_back(node); }
  // Nodes named `name`; empty when it is not a module of the project.
  const std::vector<uint32_t>& find(std::string_view name) const;
  // Calls `visit(name, nodes)` for every module whose name starts with `prefix`.
  template <typename Visit>
  void for_each_with_prefix(std::string_view prefix, Visit&& visit) const {
    for (const auto& [name, nodes] : m_names) {
      if (std::string_view(name).starts_with(prefix)) visit(name, nodes);
    }
  }

  util::StringMap<std::vector<uint32_t>>& names() { return m_names; }

private:
  util::StringMap<std::vector<uint32_t>> m_names;
};

} // namespace impact::graph
