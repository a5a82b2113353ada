#pragma once
// Why a test is not selected, in the terms of the analysis that did not select it: a query over a
// Decision, shared by `impact explain` (a [SKIPPED] test) and `impact audit` (a missed test, which
// should have been reached). The words for people are report's (describe_not_selected).
#include "impact/decision.hpp"

#include <string>
#include <vector>

namespace impact {

// The file part of a node id: "tests/t.py" for "tests/t.py::TestA::test_b[1]".
std::string file_of(const std::string& node_id);

// True when running `selected` runs `test`: the same node id, or one that contains it (a file, a class,
// a test whose parametrisations `test` is one of).
bool covers(const std::string& selected, const std::string& test);

// What the analysis knows about a test it did not select.
struct NotSelected {
  // selected_by_analysis (this analysis does select it: another selection left it out), run_all (this
  // analysis runs everything), file_level (its file loads the changed code but no symbol-level chain
  // reaches it), no_static_path (nothing the analysis sees connects it to the change), index_excluded
  // (the coverage index answered for a changed file, and the test ran none of its changed bodies),
  // no_changes;
  // audit adds unavailable (the analysis of the change failed).
  std::string kind;
  std::vector<Hop> chain;         // the chain that reaches it or its file (selected_by_analysis, file_level)
  std::vector<std::string> lines; // the explanation for people, one line each (describe_not_selected)
};

// The kind and the chain; `lines` is left empty.
NotSelected why_not_selected(const Decision& decision, const std::string& node_id);

} // namespace impact
