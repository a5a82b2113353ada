#pragma once
// Whether to colour output: only on a terminal, never with NO_COLOR or TERM=dumb, always with
// CLICOLOR_FORCE (ninja's rules).
namespace impact::util {

bool use_colour(int fd);

} // namespace impact::util
