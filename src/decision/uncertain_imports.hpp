#pragma once
// docs/selection.md `dynamic-import-uncertain`: a computed import (`import_module(name)`) can load any
// module, so the tests that load the file holding it may run the change.
#include "decision/decide_parts.hpp"
#include "decision/walk.hpp"
#include "impact/decision.hpp"

#include <cstdint>
#include <vector>

namespace impact::decision {

// Links each computed import whose file some test loads to the first of `seeds` (the changed files) in
// `walk`, and notes it in `out.uncertainties`; `--mode fast` only warns, `--strict` adds a trigger
// instead. A hook that collects items (`collect-hook`) holding one adds its trigger too.
void link_uncertain_imports(const DecisionInput& in, const std::vector<uint32_t>& seeds, ReverseWalk& walk,
                            Decision& out, std::vector<Trigger>& triggers);

} // namespace impact::decision
