#pragma once
// docs/selection.md `changed-strict`: with --changed-strict, a changed file from which no test file can
// be reached runs everything, for a merge queue that must not let an unconnected change through.
#include "impact/graph.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace impact::decision::rules {

// A changed file the decision found no selected test for, and the graph nodes a walk starts from to
// connect it: the file itself (and its old path's ghost), or the code that reads it.
struct StrictCandidate {
  std::string path;
  std::vector<uint32_t> seeds;
};

// The paths of `candidates` from which no test file is reached by imports, conftest.py files and
// plugins, sorted (one walk per path, over all its seeds; a path given twice is one file). A candidate
// without seeds is unconnected.
std::vector<std::string> unconnected_changes(const ImportGraph& graph, const std::vector<StrictCandidate>& candidates);

} // namespace impact::decision::rules
