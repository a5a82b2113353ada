#pragma once
// docs/selection.md `test-file-itself`: pytest imports a test module under the name its folders give
// it (the packages above it, by their __init__.py files, then its own), and a second test module of
// the same name fails to import ("import file mismatch"), whichever of the two it collects second.
#include "decision/decide_parts.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"

#include <string>
#include <vector>

namespace impact::decision::rules {

// The name pytest's default import mode gives test module `path`: `test_util` for tests/a/test_util.py
// when tests/a holds no __init__.py, `a.test_util` when it does and tests does not.
std::string test_module_name(const ImportGraph& graph, const RepoPath& path);

// Selects, whole, each other test file whose module name is that of a test file `changes` add (or
// rename into place): the two can no longer both be collected.
void select_name_clashes(const ImportGraph& graph, const std::vector<const PythonChange*>& changes,
                         const std::vector<FileVerdict>& files, Selection& out);

} // namespace impact::decision::rules
