#pragma once
// Whether to colour output: only on a terminal, never with NO_COLOR set to a value that is not empty
// (no-color.org) or TERM=dumb, always with CLICOLOR_FORCE set and not 0 (ninja's rules).
#include "impact/vocabulary.hpp"

namespace impact::util {

// `env` is the process environment (process_env()), or a fake in tests.
bool use_colour(int fd, const EnvLookup& env);

} // namespace impact::util
