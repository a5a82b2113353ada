// cpython_source(): line-end translation and identifier normalisation, the two places where the bytes
// of a file and the tokens CPython reads from it differ in ways tree-sitter and the lexer do not model.
#include "impact/python/source_view.hpp"

#include "python/identifier.hpp"
#include "python/lexer.hpp"
#include "util/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <vector>

namespace impact::python {

namespace {

// Keywords stay as written: `ｄｅｆ` is a name to CPython (it compares keywords before normalising),
// and rewriting it to `def` would make a keyword of it.
bool is_keyword(std::string_view s) {
  static constexpr std::array<std::string_view, 35> k_keywords = {
      "False", "None",   "True",    "and",      "as",   "assert", "async",  "await", "break",
      "class", "continue", "def",   "del",      "elif", "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",  "while",  "with",   "yield"};
  return std::find(k_keywords.begin(), k_keywords.end(), s) != k_keywords.end();
}

void translate_newlines(std::string_view raw, std::string& out) {
  out.clear();
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\r') {
      out.push_back(c);
      continue;
    }
    out.push_back('\n');
    if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
  }
}

// Rewrites the non-ASCII names of `text` (code only: the lexer skips strings and comments) into
// `out`. Returns false, leaving `out` alone, when no name changes.
bool normalize_identifiers(std::string_view text, std::string& out) {
  std::vector<Token> tokens;
  lex(text, tokens);
  std::string rebuilt;
  size_t copied = 0;
  bool changed = false;
  for (const Token& t : tokens) {
    if (t.kind != Tok::name) continue;
    std::string_view name = text.substr(t.begin, t.end - t.begin);
    if (!has_non_ascii(name)) continue;
    // A name right before a quote is a would-be string prefix (`ｒ"x"`): CPython reads no prefix there.
    if (t.end < text.size() && (text[t.end] == '"' || text[t.end] == '\'')) continue;
    auto nfkc = normalized_identifier(name);
    if (!nfkc || is_keyword(*nfkc)) continue;
    if (!changed) rebuilt.reserve(text.size());
    changed = true;
    rebuilt.append(text.substr(copied, t.begin - copied));
    rebuilt.append(*nfkc);
    copied = t.end;
  }
  if (!changed) return false;
  rebuilt.append(text.substr(copied));
  out = std::move(rebuilt);
  return true;
}

} // namespace

std::string_view cpython_source(std::string_view raw, std::string& buffer) {
  std::string_view text = raw;
  if (raw.find('\r') != std::string_view::npos) {
    translate_newlines(raw, buffer);
    text = buffer;
  }
  if (has_non_ascii(text)) {
    std::string normalized;
    if (normalize_identifiers(text, normalized)) {
      buffer = std::move(normalized);
      text = buffer;
    }
  }
  return text;
}

bool has_lone_carriage_return(std::string_view text) {
  for (size_t at = text.find('\r'); at != std::string_view::npos; at = text.find('\r', at + 1)) {
    if (at + 1 == text.size() || text[at + 1] != '\n') return true;
  }
  return false;
}

std::string coding_declaration(std::string_view text) {
  for (int line = 0; line < 2 && !text.empty(); ++line) {
    size_t end = text.find_first_of("\r\n");
    std::string_view l = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    size_t start = l.find_first_not_of(" \t\f");
    if (start == std::string_view::npos) continue;
    if (l[start] != '#') return {};
    for (size_t at = l.find("coding", start); at != std::string_view::npos; at = l.find("coding", at + 1)) {
      size_t k = at + 6;
      if (k >= l.size() || (l[k] != ':' && l[k] != '=')) continue;
      ++k;
      while (k < l.size() && (l[k] == ' ' || l[k] == '\t')) ++k;
      size_t name = k;
      while (k < l.size() && (std::isalnum(static_cast<unsigned char>(l[k])) || l[k] == '-' || l[k] == '_' || l[k] == '.')) ++k;
      if (k == name) continue;
      return ascii_lower(l.substr(name, k - name));
    }
  }
  return {};
}

} // namespace impact::python
