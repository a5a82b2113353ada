// Literals tree-sitter accepts and CPython refuses: numbers with leading zeros or misplaced
// underscores (0777, 1__0, 10L), string prefixes of Python 2 (ur""), non-ASCII bytes, truncated
// escapes (\x1, \u12), and f-strings whose replacement fields only Python 3.12 reads (PEP 701).
#include "python/compile_check.hpp"
#include "python/grammar.hpp"

#include <cctype>
#include <cstring>
#include <string>

namespace impact::python {

namespace {

bool is_digit_in(char c, int base) {
  if (base == 16) return std::isxdigit(static_cast<unsigned char>(c)) != 0;
  return c >= '0' && c < static_cast<char>('0' + base);
}

// digit (_? digit)* from `i`; returns the end, or npos when an underscore is misplaced. Empty: i.
size_t digits(std::string_view t, size_t i, int base) {
  size_t start = i;
  while (i < t.size()) {
    if (is_digit_in(t[i], base)) {
      ++i;
    } else if (t[i] == '_' && i > start && i + 1 < t.size() && is_digit_in(t[i + 1], base)) {
      ++i;
    } else {
      break;
    }
  }
  if (i < t.size() && t[i] == '_') return std::string_view::npos;
  return i;
}

bool valid_number(std::string_view t) {
  if (t.empty()) return false;
  if (t.size() > 1 && t[0] == '0' && std::strchr("xXoObB", t[1]) != nullptr) {
    int base = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
    size_t i = 2;
    if (i < t.size() && t[i] == '_') ++i;
    size_t end = digits(t, i, base);
    return end != std::string_view::npos && end > i && end == t.size();
  }
  if (t.back() == 'j' || t.back() == 'J') t.remove_suffix(1);
  size_t i = digits(t, 0, 10);
  if (i == std::string_view::npos) return false;
  size_t int_end = i;
  bool fraction = false, exponent = false;
  if (i < t.size() && t[i] == '.') {
    fraction = true;
    size_t end = digits(t, i + 1, 10);
    if (end == std::string_view::npos) return false;
    if (int_end == 0 && end == i + 1) return false; // a lone "."
    i = end;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    exponent = true;
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    size_t end = digits(t, i, 10);
    if (end == std::string_view::npos || end == i) return false;
    i = end;
  }
  if (i != t.size() || (int_end == 0 && !fraction)) return false;
  // A decimal integer may not start with 0 unless it is all zeros (0777 is Python 2's octal).
  if (!fraction && !exponent && t[0] == '0') {
    for (size_t k = 0; k < int_end; ++k) {
      if (t[k] != '0' && t[k] != '_') return false;
    }
  }
  return true;
}

bool valid_prefix(std::string prefix) {
  for (char& c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view ok : {"", "r", "u", "f", "b", "br", "rb", "fr", "rf"}) {
    if (prefix == ok) return true;
  }
  return false;
}

// The escapes of a non-raw literal's text: \x needs two hex digits; in str, \u four and \U eight
// (at most U+10FFFF); \N{...} names a character impact cannot look up.
void check_escapes(std::string_view text, bool bytes, uint32_t line, CompileCheck& out) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '\\') continue;
    char e = text[i + 1];
    size_t need = e == 'x' ? 2 : (!bytes && e == 'u') ? 4 : (!bytes && e == 'U') ? 8 : 0;
    if (need > 0) {
      uint32_t value = 0;
      for (size_t k = 0; k < need; ++k) {
        char h = i + 2 + k < text.size() ? text[i + 2 + k] : '\0';
        if (!std::isxdigit(static_cast<unsigned char>(h))) return note_problem(out, SyntaxIssue::invalid_string, line);
        value = value * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
      }
      if (value > 0x10FFFF) return note_problem(out, SyntaxIssue::invalid_string, line);
    } else if (!bytes && e == 'N') {
      note_problem(out, SyntaxIssue::unsure_name_escape, line);
    }
    ++i; // the escaped character is not an escape itself
  }
}

// Whether `field` holds a '#' outside the string literals inside it: a comment, which 3.11 refuses,
// where `f"{'#' * level}"` (a '#' in a nested string) compiles on 3.11 as well.
bool comment_in_field(std::string_view field) {
  char in = 0; // the quote of the nested string the scan is in
  size_t triple = 0;
  for (size_t i = 0; i < field.size(); ++i) {
    char c = field[i];
    if (in != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == in && (triple == 0 || field.substr(i, 3) == std::string(3, in))) {
        if (triple != 0) i += 2;
        in = 0;
      }
    } else if (c == '\'' || c == '"') {
      in = c;
      triple = field.substr(i, 3) == std::string(3, c) ? 3 : 0;
      if (triple != 0) i += 2;
    } else if (c == '#') {
      return true;
    }
  }
  return false;
}

// What Python 3.12 reads in a replacement field and 3.11 does not: a backslash, a comment, the
// enclosing quote, a line break in a single-quoted f-string.
void check_field(std::string_view field, std::string_view quote, uint32_t line, CompileCheck& out) {
  bool newer = field.find('\\') != std::string_view::npos || comment_in_field(field) ||
               field.find(quote) != std::string_view::npos ||
               (quote.size() == 1 && field.find_first_of("\r\n") != std::string_view::npos);
  if (newer) note_version(out, 12, line);
}

// One replacement field: its expression (not its format spec, where '#' is a flag), its '=' (3.8)
// and its conversion (!s, !r, !a).
void field(std::string_view source, TSNode interpolation, std::string_view quote, CompileCheck& out) {
  uint32_t line = line_of(ts_node_start_point(interpolation));
  TSNode expression = ts_node_child_by_field_name(interpolation, "expression", 10);
  if (ts_node_is_null(expression)) return note_problem(out, SyntaxIssue::syntax_error, line);
  check_field(node_text(expression, source), quote, line, out);
  uint32_t count = ts_node_child_count(interpolation);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(interpolation, i);
    std::string_view type = ts_node_type(c);
    if (type == "=") note_version(out, 8, line);
    if (type == "comment") note_version(out, 12, line); // tree-sitter keeps a comment out of the expression

    if (type == "type_conversion") {
      std::string_view t = node_text(c, source);
      if (t != "!s" && t != "!r" && t != "!a") note_problem(out, SyntaxIssue::invalid_string, line);
    }
  }
}

} // namespace

void check_number(std::string_view text, uint32_t line, CompileCheck& out) {
  if (!valid_number(text)) note_problem(out, SyntaxIssue::invalid_number, line);
}

void check_string(std::string_view source, TSNode string, CompileCheck& out) {
  uint32_t line = line_of(ts_node_start_point(string));
  uint32_t count = ts_node_child_count(string);
  if (count < 2) return;
  TSNode start = ts_node_child(string, 0);
  std::string_view opening = node_text(start, source);
  size_t q = opening.find_first_of("'\"");
  if (q == std::string_view::npos) return note_problem(out, SyntaxIssue::syntax_error, line);
  std::string prefix(opening.substr(0, q));
  if (!valid_prefix(prefix)) return note_problem(out, SyntaxIssue::invalid_string_prefix, line);
  std::string_view quote = opening.substr(q);
  bool raw = prefix.find_first_of("rR") != std::string::npos;
  bool bytes = prefix.find_first_of("bB") != std::string::npos;
  bool fstring = prefix.find_first_of("fF") != std::string::npos;
  uint32_t begin = ts_node_end_byte(start);
  uint32_t end = ts_node_start_byte(ts_node_child(string, count - 1));
  if (end < begin || end > source.size()) return;
  // The literal parts (between replacement fields) and the fields themselves.
  uint32_t at = begin;
  auto literal = [&](uint32_t to) {
    std::string_view text = source.substr(at, to - at);
    if (bytes) {
      for (char c : text) {
        if (static_cast<unsigned char>(c) >= 0x80) return note_problem(out, SyntaxIssue::invalid_string, line);
      }
    }
    if (!raw) check_escapes(text, bytes, line, out);
    if (fstring) {
      // '}' must be doubled; tree-sitter keeps "{{" and "}}" as escape_interpolation, not here.
      std::string_view rest = text;
      for (size_t k = 0; k < rest.size(); ++k) {
        if (rest[k] != '}') continue;
        if (k + 1 < rest.size() && rest[k + 1] == '}') ++k;
        else return note_problem(out, SyntaxIssue::invalid_string, line);
      }
    }
  };
  for (uint32_t i = 1; i + 1 < count; ++i) {
    TSNode child = ts_node_child(string, i);
    std::string_view type = ts_node_type(child);
    if (type == "interpolation") {
      literal(ts_node_start_byte(child));
      at = ts_node_end_byte(child);
      field(source, child, quote, out);
    } else if (type == "escape_interpolation") {
      literal(ts_node_start_byte(child));
      at = ts_node_end_byte(child);
    }
  }
  literal(end);
}

} // namespace impact::python
