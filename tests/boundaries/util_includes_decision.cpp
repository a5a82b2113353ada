// The negative test of the stage boundaries (tests/CMakeLists.txt, include_edges_refused): checked as if
// it were src/util/forbidden.cpp, this include must be refused, since util is the first stage and may
// use no other. Never compiled.
#include "impact/decision.hpp"
