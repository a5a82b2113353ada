#pragma once
// Test code and the code under test: pytest imports a test module or a conftest.py under a name that
// depends on its rootdir and import mode, which no code outside the tests spells, so a lookup by a
// computed name there cannot get one (docs/selection.md, `dynamic-access`, `dynamic-import-uncertain`).
#include "impact/graph.hpp"
#include "util/string_set.hpp"

#include <cstdint>
#include <string>

namespace impact::decision {

class TestCode {
public:
  explicit TestCode(const ImportGraph& graph);

  // Whether file `node` lies in a folder that holds a test module, or below one. The root folder
  // counts only when a test module is there itself.
  bool holds(uint32_t node) const;
  // Whether `node` is a test module or a conftest.py that only test code imports.
  bool test_module_only(uint32_t node) const;

private:
  const ImportGraph* m_graph;
  util::StringSet m_folders;
};

} // namespace impact::decision
