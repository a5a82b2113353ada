#include "util/terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace impact::util {

bool use_colour(int fd) {
  const char* force = std::getenv("CLICOLOR_FORCE");
  if (force != nullptr && std::strcmp(force, "0") != 0 && *force != '\0') return true;
  if (std::getenv("NO_COLOR") != nullptr) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(fd) != 0;
}

} // namespace impact::util
