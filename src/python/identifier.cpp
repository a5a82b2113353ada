// normalized_identifier(): PEP 3131's NFKC, through utf8proc (Debian's libutf8proc-dev).
#include "python/identifier.hpp"

#include <utf8proc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace impact::python {

namespace {

// Whether code point `c` may be part of an identifier: XID_Continue, approximated by its general
// category (letters, letter numbers, marks, decimal digits, connector punctuation).
bool identifier_code_point(utf8proc_int32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  switch (utf8proc_category(c)) {
  case UTF8PROC_CATEGORY_LU:
  case UTF8PROC_CATEGORY_LL:
  case UTF8PROC_CATEGORY_LT:
  case UTF8PROC_CATEGORY_LM:
  case UTF8PROC_CATEGORY_LO:
  case UTF8PROC_CATEGORY_NL:
  case UTF8PROC_CATEGORY_MN:
  case UTF8PROC_CATEGORY_MC:
  case UTF8PROC_CATEGORY_ND:
  case UTF8PROC_CATEGORY_PC: return true;
  default: return false;
  }
}

bool valid_identifier(std::string_view s) {
  if (s.empty() || (s.front() >= '0' && s.front() <= '9')) return false;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  auto left = static_cast<utf8proc_ssize_t>(s.size());
  while (left > 0) {
    utf8proc_int32_t c = 0;
    utf8proc_ssize_t n = utf8proc_iterate(p, left, &c);
    if (n <= 0 || !identifier_code_point(c)) return false;
    p += n;
    left -= n;
  }
  return true;
}

} // namespace

bool has_non_ascii(std::string_view text) {
  const char* p = text.data();
  size_t n = text.size();
  uint64_t any = 0;
  for (; n >= 32; p += 32, n -= 32) {
    uint64_t w[4];
    std::memcpy(w, p, 32);
    any |= w[0] | w[1] | w[2] | w[3];
    if ((any & 0x8080808080808080ULL) != 0) return true;
  }
  for (; n > 0; ++p, --n) {
    if ((static_cast<unsigned char>(*p) & 0x80) != 0) return true;
  }
  return false;
}

std::optional<std::string> normalized_identifier(std::string_view name) {
  if (!has_non_ascii(name)) return std::nullopt;
  std::string copy(name); // utf8proc wants a NUL-terminated string
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> nfkc(
      utf8proc_NFKC(reinterpret_cast<const utf8proc_uint8_t*>(copy.c_str())), &std::free);
  if (!nfkc) return std::nullopt; // invalid UTF-8: no identifier
  std::string out(reinterpret_cast<const char*>(nfkc.get()));
  if (out == name || !valid_identifier(out)) return std::nullopt;
  return out;
}

} // namespace impact::python
