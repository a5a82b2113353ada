#pragma once
// docs/selection.md `collection`: which doctests run for a change. A text doctest (--doctest-glob)
// runs whole when a module its examples import is reached, or a conftest.py above it; any doctest,
// text or module (--doctest-modules), when a file that fills `doctest_namespace` is reached.
#include "decision/decide_parts.hpp"
#include "decision/walk.hpp"
#include "impact/decision.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace impact::decision {

// Adds the doctests the file-level walk `walk` reaches to `out`; `select_file(out, node, chain)`
// selects a module collected for its doctests.
void select_doctests(const DecisionInput& in, const ReverseWalk& walk, Selection& out,
                     const std::function<void(Selection&, uint32_t, std::vector<Hop>)>& select_file);

} // namespace impact::decision
