// The negative tests of the stage boundaries (tests/CMakeLists.txt). Compiled as a util file is, with
// IMPACT_FORBID_DECISION, this include must fail to compile (include_forbidden_fails_to_compile); checked
// by scripts/check-includes as if it were src/util/forbidden.cpp, it must be refused
// (include_edges_refused): util is the first stage and may use no other.
#include "impact/decision.hpp"
