#pragma once
// ASCII case folding for file names, paths and literals: bytes past 127 (UTF-8) are kept as they are.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace impact {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

} // namespace impact
