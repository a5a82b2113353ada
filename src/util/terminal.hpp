#pragma once
// Whether to colour output: only on a terminal, never with NO_COLOR set to a value that is not empty
// (no-color.org) or TERM=dumb, always with CLICOLOR_FORCE set and not 0 (ninja's rules).
namespace impact::util {

bool use_colour(int fd);

} // namespace impact::util
