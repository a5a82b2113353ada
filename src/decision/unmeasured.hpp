#pragma once
// docs/coverage.md, "Per-file rules": where the coverage index answers a change, the static answer
// still stands for the tests the index cannot speak for.
#include "decision/decide_parts.hpp"
#include "impact/coverage.hpp"
#include "impact/graph.hpp"

#include <string>
#include <vector>

namespace impact::decision {

class NonPythonRules;

// Keeps, of `static_answer` (the static analysis of the changes the index answered), what lies in a
// test file the index never measured as it is now or in one of `drifted` (sorted paths), and in a file
// whose tests partly left no coverage, those tests: a whole file selected there becomes its
// unrecorded tests.
Selection keep_unmeasured(Selection static_answer, const CoverageInput& coverage, const std::vector<std::string>& drifted,
                          const ImportGraph& graph);

// The test files that may read a file of CoverageInput::drifted_data (rules `data-files`, `file-readers`:
// the test files that load its readers), sorted; every test file when one of them has readers no rule
// bounds. Configuration and pin files are left to their own rules.
std::vector<std::string> tests_reading_drifted_data(const CoverageInput& coverage, NonPythonRules& rules,
                                                    const ImportGraph& graph);

} // namespace impact::decision
