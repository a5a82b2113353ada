#pragma once
// docs/coverage.md, "Per-file rules": where the coverage index answers a change, the static answer
// still stands for the tests the index cannot speak for.
#include "decision/decide_parts.hpp"
#include "impact/coverage.hpp"
#include "impact/graph.hpp"

namespace impact::decision {

// Keeps, of `static_answer` (the static analysis of the changes the index answered), what lies in a
// test file the index never measured as it is now, and in a file whose tests partly left no coverage,
// those tests: a whole file selected there becomes its unrecorded tests.
Selection keep_unmeasured(Selection static_answer, const CoverageInput& coverage, const ImportGraph& graph);

} // namespace impact::decision
