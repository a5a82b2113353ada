#include "util/terminal.hpp"

#include <unistd.h>

namespace impact::util {

// A variable set to "" counts as unset (no-color.org: `NO_COLOR= cmd` must not turn colour off).
bool use_colour(int fd, const EnvLookup& env) {
  auto value = [&env](const char* name) {
    auto v = env(name);
    return v && !v->empty() ? v : std::nullopt;
  };
  if (auto force = value("CLICOLOR_FORCE"); force && *force != "0") return true;
  if (value("NO_COLOR")) return false;
  if (value("TERM") == "dumb") return false;
  return ::isatty(fd) != 0;
}

} // namespace impact::util
