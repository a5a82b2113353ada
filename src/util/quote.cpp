#include "util/quote.hpp"

#include <fmt/format.h>

namespace impact::util {

namespace {

// The length of the valid UTF-8 sequence at `at` that encodes a printable character (not a C1
// control), or 0 when the bytes there are not one.
size_t printable_utf8(std::string_view s, size_t at) {
  auto byte = [&](size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
  auto continuation = [&](size_t i) { return (byte(i) & 0xC0u) == 0x80u; };
  unsigned c = byte(at);
  if (c >= 0xC2 && c <= 0xDF && continuation(at + 1)) {
    return c == 0xC2 && byte(at + 1) < 0xA0 ? 0 : 2; // U+0080..U+009F are C1 controls
  }
  if (c >= 0xE0 && c <= 0xEF && continuation(at + 1) && continuation(at + 2)) {
    if (c == 0xE0 && byte(at + 1) < 0xA0) return 0; // overlong
    if (c == 0xED && byte(at + 1) >= 0xA0) return 0; // a surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4 && continuation(at + 1) && continuation(at + 2) && continuation(at + 3)) {
    if (c == 0xF0 && byte(at + 1) < 0x90) return 0; // overlong
    if (c == 0xF4 && byte(at + 1) >= 0x90) return 0; // past U+10FFFF
    return 4;
  }
  return 0;
}

// Appends `s` to `out` with git's C escapes; quotes and backslashes too when `quoting`. Returns true
// when anything was escaped.
bool escape(std::string_view s, bool quoting, std::string& out) {
  bool escaped = false;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      if (size_t n = printable_utf8(s, i); n > 0) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    }
    const char* named = nullptr;
    switch (c) {
    case '\a': named = "\\a"; break;
    case '\b': named = "\\b"; break;
    case '\t': named = "\\t"; break;
    case '\n': named = "\\n"; break;
    case '\v': named = "\\v"; break;
    case '\f': named = "\\f"; break;
    case '\r': named = "\\r"; break;
    case '"': named = quoting ? "\\\"" : nullptr; break;
    case '\\': named = quoting ? "\\\\" : nullptr; break;
    default: break;
    }
    if (named != nullptr) {
      out += named;
      escaped = true;
    } else if (c < 0x20 || c == 0x7f || c >= 0x80) {
      out += fmt::format("\\{:03o}", c);
      escaped = true;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return escaped;
}

} // namespace

std::string quote_name(std::string_view name) {
  std::string body;
  if (!escape(name, true, body)) return std::string(name);
  return "\"" + body + "\"";
}

std::string one_line(std::string_view message) {
  std::string out;
  escape(message, false, out);
  return out;
}

} // namespace impact::util
