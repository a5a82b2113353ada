#include "util/terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace impact::util {

namespace {

// Set to something: no-color.org counts an empty NO_COLOR (as `NO_COLOR= cmd` leaves it) as unset.
bool set_and_not_empty(const char* value) { return value != nullptr && *value != '\0'; }

} // namespace

bool use_colour(int fd) {
  const char* force = std::getenv("CLICOLOR_FORCE");
  if (set_and_not_empty(force) && std::strcmp(force, "0") != 0) return true;
  if (set_and_not_empty(std::getenv("NO_COLOR"))) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(fd) != 0;
}

} // namespace impact::util
