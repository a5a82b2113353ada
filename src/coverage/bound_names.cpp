// bound_names(): coverage/bound_names.hpp. A token scan, not a parse: it only needs to tell whether two
// versions of some lines bind the same names, and any doubt widens the set.
#include "coverage/bound_names.hpp"

#include <vector>

namespace impact {

namespace {

struct Token {
  std::string_view text;
  bool name = false;
  bool newline = false; // the end of a logical line at bracket depth 0
  bool after_dot = false;
};

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

// Skips a string literal starting at `i` (at its quote); returns the index after it.
size_t skip_string(std::string_view s, size_t i) {
  char q = s[i];
  bool triple = s.substr(i, 3) == std::string(3, q);
  size_t at = i + (triple ? 3 : 1);
  while (at < s.size()) {
    if (s[at] == '\\') {
      at += 2;
      continue;
    }
    if (triple ? s.substr(at, 3) == std::string(3, q) : s[at] == q) return at + (triple ? 3 : 1);
    if (!triple && s[at] == '\n') return at;
    ++at;
  }
  return s.size();
}

std::vector<Token> tokens(std::string_view s) {
  std::vector<Token> out;
  int depth = 0;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
      i += 2;
    } else if (c == '\n' || c == ';') {
      if (depth == 0) out.push_back(Token{s.substr(i, 1), false, true});
      ++i;
    } else if (c == '\'' || c == '"') {
      i = skip_string(s, i);
      out.push_back(Token{"\"\""});
    } else if (name_start(c)) {
      size_t end = i;
      while (end < s.size() && name_char(s[end])) ++end;
      if (end < s.size() && (s[end] == '\'' || s[end] == '"') && end - i <= 3) { // a prefixed string: rb"..."
        i = skip_string(s, end);
        out.push_back(Token{"\"\""});
        continue;
      }
      bool dot = !out.empty() && out.back().text == ".";
      out.push_back(Token{s.substr(i, end - i), true, false, dot});
      i = end;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      // Two-character operators that matter: `:=`, `==`, `<=`, `>=`, `!=`, augmented assignments.
      size_t len = 1;
      if (i + 1 < s.size() && s[i + 1] == '=' && std::string_view("=:<>!+-*/%&|^@").find(c) != std::string_view::npos) len = 2;
      if (i + 2 < s.size() && s[i + 2] == '=' && (s.substr(i, 2) == "//" || s.substr(i, 2) == "**" ||
                                                 s.substr(i, 2) == ">>" || s.substr(i, 2) == "<<")) {
        len = 3;
      }
      out.push_back(Token{s.substr(i, len)});
      i += len;
    }
  }
  return out;
}

bool assignment(std::string_view op) {
  if (op == "=") return true;
  if (op.size() < 2 || op.back() != '=') return false;
  return op != "==" && op != "<=" && op != ">=" && op != "!=" && op != ":=";
}

} // namespace

std::set<std::string> bound_names(std::string_view code) {
  std::set<std::string> out;
  std::vector<Token> all = tokens(code);
  size_t start = 0; // the current statement's first token
  int depth = 0;
  enum class Mode { none, for_targets, import_names, del_names, declared, case_pattern } mode = Mode::none;
  bool item_start = true; // in an import list: the next name starts an item
  for (size_t i = 0; i < all.size(); ++i) {
    const Token& t = all[i];
    if (t.newline) {
      start = i + 1;
      mode = Mode::none;
      continue;
    }
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if ((t.text == ")" || t.text == "]" || t.text == "}") && depth > 0) --depth;
    std::string_view next = i + 1 < all.size() ? all[i + 1].text : std::string_view();
    if (t.name) {
      std::string_view n = t.text;
      if (n == "for") mode = Mode::for_targets;
      else if (n == "in" && mode == Mode::for_targets) mode = Mode::none;
      else if (n == "import") {
        mode = Mode::import_names;
        item_start = true;
        continue;
      }
      else if (n == "del") mode = Mode::del_names;
      else if (n == "global" || n == "nonlocal") mode = Mode::declared;
      else if (n == "case" && i == start) mode = Mode::case_pattern;
      else if ((n == "as" || n == "def" || n == "class") && i + 1 < all.size() && all[i + 1].name) out.emplace(all[i + 1].text);
      else if (next == ":=") out.emplace(n);
      else if (i == start && next == ":" && depth == 0 && n != "else" && n != "try" && n != "finally") {
        out.emplace(n); // an annotated name (a block's keyword is none)
      }
      else if (!t.after_dot) {
        switch (mode) {
        case Mode::for_targets:
        case Mode::del_names:
        case Mode::case_pattern: out.emplace(n); break;
        case Mode::import_names:
          if (item_start) out.emplace(n);
          break;
        case Mode::declared: out.emplace("global " + std::string(n)); break;
        case Mode::none: break;
        }
      }
      item_start = false;
      continue;
    }
    if (t.text == ",") item_start = true;
    if (t.text == ":" && mode == Mode::case_pattern && depth == 0) mode = Mode::none;
    if (depth == 0 && assignment(t.text)) {
      // Every plain name of the targets so far (an attribute's or item's base too: more, never fewer).
      for (size_t k = start; k < i; ++k) {
        if (all[k].name && !all[k].after_dot) out.emplace(all[k].text);
      }
      start = i + 1;
    }
  }
  return out;
}

} // namespace impact
