#include "python/module_lookup.hpp"

namespace impact::python {

namespace {

// The text of a plain string literal token ('x', "x", r"x"); nullopt for an f-string, bytes or a
// triple-quoted string (no module name has a newline).
std::optional<std::string_view> plain_literal(std::string_view token) {
  size_t quote = token.find_first_of("'\"");
  if (quote == std::string_view::npos || quote > 2 || token.size() < quote + 2) return std::nullopt;
  for (char c : token.substr(0, quote)) {
    if (c != 'r' && c != 'R' && c != 'u' && c != 'U') return std::nullopt;
  }
  std::string_view body = token.substr(quote + 1, token.size() - quote - 2);
  if (token.back() != token[quote] || body.find_first_of("'\"\\") != std::string_view::npos) return std::nullopt;
  return body;
}

} // namespace

bool ModuleLookup::opens(std::string_view chain, Tok kind, int32_t owner) {
  // `sys` itself only: `self.modules["x"]` reads an attribute `modules`, which a project may define,
  // and is kept as read (`import sys as s` keeps the older, wider answer).
  bool subscript = kind == Tok::lbracket && chain == "sys.modules";
  bool get = kind == Tok::lparen && chain == "sys.modules.get";
  if (!subscript && !get) return false;
  m_stage = 1;
  m_close = subscript ? Tok::rbracket : Tok::rparen;
  m_owner = owner;
  m_chain.assign(chain);
  m_key.clear();
  return true;
}

std::optional<std::string> ModuleLookup::next(Tok kind, std::string_view text) {
  if (m_stage == 1) {
    std::optional<std::string_view> key = kind == Tok::string ? plain_literal(text) : std::nullopt;
    if (kind == Tok::name && text == "__name__") key = text;
    if (key && !key->empty()) {
      m_key.assign(*key);
      m_stage = 2;
      return std::nullopt;
    }
  } else if (kind == m_close || (m_close == Tok::rparen && kind == Tok::comma)) {
    m_stage = 0;
    std::string out(k_module_lookup);
    out.push_back('.');
    out.append(m_key);
    return out;
  }
  m_stage = 0; // a computed key: the chain as it was
  return m_chain;
}

} // namespace impact::python
