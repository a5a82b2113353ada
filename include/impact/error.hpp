#pragma once
// The one error type that stops a run. Thrown anywhere, caught once in main, printed as
// "impact: error: <message>" and turned into exit code 2. Messages follow git's style: lowercase,
// no full stop, the problem first and then the fix.
#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace impact {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}

  template <typename... Args>
  explicit Error(fmt::format_string<Args...> format, Args&&... args)
      : std::runtime_error(fmt::format(format, std::forward<Args>(args)...)) {}
};

} // namespace impact
