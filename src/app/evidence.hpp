#pragma once
// Why a test is not selected, in the terms of the analysis that did not select it: shared by
// `impact explain` (a [SKIPPED] test) and `impact audit` (a missed test, which should have been reached).
#include "impact/decision.hpp"

#include <string>
#include <vector>

namespace impact::app {

// The file part of a node id: "tests/t.py" for "tests/t.py::TestA::test_b[1]".
std::string file_of(const std::string& node_id);

// True when running `selected` runs `test`: the same node id, or one that contains it (a file, a class,
// a test whose parametrisations `test` is one of).
bool covers(const std::string& selected, const std::string& test);

// The changed files and symbols of a decision, for people: "src/a.py:Cart.total (implementation), ...".
std::string changed_symbols(const Decision& decision);

// What the analysis knows about a test it did not select.
struct NotSelected {
  // selected_by_analysis (this analysis does select it: another selection left it out), run_all (this
  // analysis runs everything), file_level (its file loads the changed code but no symbol-level chain
  // reaches it), no_static_path (nothing the analysis sees connects it to the change), no_changes.
  std::string kind;
  std::vector<Hop> chain;         // the chain that reaches it or its file (selected_by_analysis, file_level)
  std::vector<std::string> lines; // the explanation for people, one line each
};

NotSelected why_not_selected(const Decision& decision, const std::string& node_id);

} // namespace impact::app
