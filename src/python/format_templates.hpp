#pragma once
// `"{0.name}".format(user)` reads `user.name`: the replacement fields of a literal template given to
// str.format or format_map read attributes of the arguments (docs/selection.md `dynamic-access`).
#include "python/lexer.hpp"

#include <cstdint>
#include <string_view>

namespace impact::python {

// Follows the token stream for a literal template: a run of string tokens (in parentheses or not),
// a dot, then `format` or `format_map`.
class FormatTemplates {
public:
  // Token `t` of source `src`: the template's source text when `t` is the method's name after one,
  // else empty.
  std::string_view next(const Token& t, std::string_view src) {
    std::string_view out;
    std::string_view word = t.kind == Tok::name ? src.substr(t.begin, t.end - t.begin) : std::string_view();
    if (m_dot && (word == "format" || word == "format_map")) out = src.substr(m_begin, m_end - m_begin);
    bool strings = m_end != 0 && !m_dot && !m_closed;
    bool after_lparen = m_lparen;
    if (t.kind == Tok::string && (strings || m_end == 0 || m_dot)) {
      if (!strings) {
        *this = FormatTemplates{};
        m_begin = t.begin;
        m_parenthesized = after_lparen;
      }
      m_end = t.end;
    } else if (t.kind == Tok::rparen && strings && m_parenthesized) {
      m_closed = true; // ("a" "b").format(...)
    } else if (t.kind == Tok::dot && m_end != 0 && !m_dot && (m_parenthesized ? m_closed : strings)) {
      m_dot = true;
    } else {
      *this = FormatTemplates{};
    }
    m_lparen = t.kind == Tok::lparen;
    return out;
  }

private:
  uint32_t m_begin = 0, m_end = 0; // the run of string tokens just read (end 0: none)
  bool m_parenthesized = false;    // the run follows `(`
  bool m_dot = false;              // ... and the dot after it was read
  bool m_closed = false;           // ... its `)` was read
  bool m_lparen = false;           // the last token was `(`
};

} // namespace impact::python
