// The negative test of the rule with no exceptions (tests/CMakeLists.txt, include_private_refused):
// checked by scripts/check-includes as if it were src/app/forbidden.cpp, this include must be refused.
// app may use the python stage, but only through include/impact/: src/python/ headers are its own.
#include "python/grammar.hpp"
