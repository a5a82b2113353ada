// The byte-level half of the compile check: what CPython's tokenizer refuses before any parsing, and
// tree-sitter accepts or skips: the source encoding (PEP 263, PEP 3120), null bytes, characters that
// are neither tokens nor ASCII whitespace, inconsistent tabs (TabError), an unindent to no outer level,
// more than 100 levels of indentation and brackets nested past 200 (Parser/tokenizer.c: MAXINDENT,
// MAXLEVEL).
#include "python/compile_check.hpp"
#include "impact/python/source_view.hpp"

#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace impact::python {

namespace {

constexpr size_t k_max_indent = 100; // Parser/tokenizer.h MAXINDENT
constexpr int k_max_level = 200;     // Parser/tokenizer.h MAXLEVEL

uint32_t line_at(std::string_view s, size_t pos) {
  uint32_t line = 1;
  for (size_t i = 0; i < pos && i < s.size(); ++i) {
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= s.size() || s[i + 1] != '\n'))) ++line;
  }
  return line;
}

// The length of the UTF-8 sequence at `i`, or 0 when it is not valid (strict: no overlongs, no
// surrogates, nothing past U+10FFFF).
size_t utf8_length(std::string_view s, size_t i, uint32_t* code = nullptr) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1FU) : n == 3 ? (c & 0x0FU) : (c & 0x07U);
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3FU);
  }
  static constexpr std::array<uint32_t, 5> k_min = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < k_min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (code != nullptr) *code = cp;
  return n;
}

enum class Codec { utf8, latin1, ascii_only, ascii_compatible, unknown };

// CPython's get_normal_name(), then the few codecs impact can check.
Codec codec_of(const std::string& name) {
  std::string n = name;
  for (char& c : n) c = c == '_' ? '-' : c;
  auto is = [&](std::string_view base) { return n == base || n.starts_with(std::string(base) + "-"); };
  if (n.empty() || is("utf-8") || n == "utf8") return Codec::utf8;
  if (is("latin-1") || is("iso-8859-1") || is("iso-latin-1") || n == "latin1" || n == "iso8859-1" || n == "l1" ||
      n == "cp819" || n == "iso-ir-100")
    return Codec::latin1;
  if (n == "ascii" || n == "us-ascii" || n == "646") return Codec::ascii_only;
  // Codecs Python has that read ASCII as ASCII: an ASCII-only file compiles; other bytes impact
  // cannot check.
  if (n.starts_with("cp125") || n.starts_with("windows-125") || n.starts_with("iso-8859-") ||
      n.starts_with("iso8859-") || n.starts_with("latin") || n == "koi8-r" || n == "koi8-u" || n == "euc-jp" ||
      n == "shift-jis" || n == "gbk" || n == "gb2312" || n == "gb18030" || n == "big5" || n == "euc-kr" ||
      n == "mac-roman" || n == "cp437" || n == "cp850")
    return Codec::ascii_compatible;
  return Codec::unknown;
}

void check_encoding(std::string_view s, CompileCheck& out) {
  bool bom = s.starts_with("\xEF\xBB\xBF");
  std::string name = coding_declaration(bom ? s.substr(3) : s);
  Codec codec = codec_of(name);
  if (bom && codec != Codec::utf8) return note_problem(out, SyntaxIssue::invalid_utf8, 1);
  bool ascii = true;
  for (size_t i = 0; i < s.size(); ++i) {
    if (static_cast<unsigned char>(s[i]) >= 0x80) {
      ascii = false;
      if (codec != Codec::utf8) break;
      size_t n = utf8_length(s, i);
      if (n == 0) {
        // CPython 3.11 lets compile() through a bad byte inside a comment; other versions may not.
        size_t line_start = s.find_last_of("\r\n", i);
        line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
        bool comment = s.substr(line_start, i - line_start).find('#') != std::string_view::npos;
        return note_problem(out, comment ? SyntaxIssue::unsure_encoding : SyntaxIssue::invalid_utf8, line_at(s, i));
      }
      i += n - 1;
    }
  }
  if (codec == Codec::ascii_only && !ascii) return note_problem(out, SyntaxIssue::invalid_utf8, 1);
  if (codec == Codec::ascii_compatible && !ascii) note_problem(out, SyntaxIssue::unsure_encoding, 1);
  // Another codec: even an ASCII file fails when Python does not know the name. Widen.
  if (codec == Codec::unknown) note_problem(out, SyntaxIssue::unsure_encoding, 1);
}

// A code point CPython's tokenizer refuses outside strings and comments, though tree-sitter skips it
// as white space.
bool is_space_like(uint32_t cp) {
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || cp == 0x180E || (cp >= 0x2000 && cp <= 0x200B) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x2060 || cp == 0x3000 || cp == 0xFEFF;
}

bool is_prefix_char(char c) {
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c == 'r' || c == 'b' || c == 'u' || c == 'f';
}

// Walks the source as CPython's tokenizer sees lines: strings, comments, brackets and continuations,
// checking each logical line's indentation against the stack (col with tabs to 8, altcol with tabs
// to 1: they must order the same way, else TabError).
class LineScanner {
public:
  LineScanner(std::string_view s, CompileCheck& out, std::vector<uint32_t>& starts)
      : m_s(s), m_out(out), m_starts(starts) {}

  void run() {
    size_t i = m_s.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    bool line_start = true;
    while (i < m_s.size()) {
      if (line_start) {
        line_start = false;
        if (m_level == 0) i = indentation(i);
        if (i >= m_s.size()) break;
      }
      char c = m_s[i];
      if (c == '\n' || c == '\r') {
        i += (c == '\r' && i + 1 < m_s.size() && m_s[i + 1] == '\n') ? 2 : 1;
        ++m_line;
        line_start = true;
        continue;
      }
      if (c == '#') {
        while (i < m_s.size() && m_s[i] != '\n' && m_s[i] != '\r') ++i;
        continue;
      }
      if (c == '\\') {
        if (i + 1 < m_s.size() && (m_s[i + 1] == '\n' || m_s[i + 1] == '\r')) {
          bool crlf = m_s[i + 1] == '\r' && i + 2 < m_s.size() && m_s[i + 2] == '\n';
          i += crlf ? 3 : 2;
          ++m_line;
          // A continuation with nothing after it: "unexpected EOF while parsing" (blanks after it
          // make a last line of their own, and CPython reading bytes accepts one ended by CRLF).
          if (i >= m_s.size() && !crlf) problem(SyntaxIssue::syntax_error);
          continue;
        }
        problem(SyntaxIssue::invalid_character);
        ++i;
        continue;
      }
      if (c != ' ' && c != '\t' && c != '\f') m_last = c;
      if (c == '"' || c == '\'') {
        i = string(i, i);
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
        i = word(i);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        if (m_level >= k_max_level) problem(SyntaxIssue::too_many_parentheses);
        ++m_level;
      } else if (c == ')' || c == ']' || c == '}') {
        if (m_level > 0) --m_level;
      } else if (c == '$' || c == '?' || c == '`' || (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\f') ||
                 c == 0x7F) {
        problem(c == '\0' ? SyntaxIssue::null_byte : SyntaxIssue::invalid_character);
      }
      ++i;
    }
  }

private:
  void problem(SyntaxIssue issue) { note_problem(m_out, issue, m_line); }

  // A name, or a string's prefix; a non-ASCII space refused by CPython.
  size_t word(size_t i) {
    size_t start = i;
    while (i < m_s.size()) {
      unsigned char c = static_cast<unsigned char>(m_s[i]);
      if (c < 0x80) {
        if (!std::isalnum(c) && c != '_') break;
        ++i;
        continue;
      }
      uint32_t cp = 0;
      size_t n = utf8_length(m_s, i, &cp);
      if (n == 0) return i + 1; // the encoding check speaks for it
      if (is_space_like(cp)) {
        problem(SyntaxIssue::invalid_character);
        if (i == start) return i + n;
        break;
      }
      i += n;
    }
    if (i < m_s.size() && (m_s[i] == '"' || m_s[i] == '\'') && i - start <= 2) {
      bool prefix = true;
      for (size_t k = start; k < i; ++k) prefix = prefix && is_prefix_char(m_s[k]);
      if (prefix) return string(start, i);
    }
    return i;
  }

  // A string literal from its prefix at `start`, its quote at `q`; returns the index after it.
  size_t string(size_t /*start*/, size_t q) {
    char quote = m_s[q];
    bool triple = q + 2 < m_s.size() && m_s[q + 1] == quote && m_s[q + 2] == quote;
    size_t i = q + (triple ? 3 : 1);
    while (i < m_s.size()) {
      char c = m_s[i];
      if (c == '\\') {
        if (i + 1 < m_s.size() && (m_s[i + 1] == '\n' || m_s[i + 1] == '\r')) {
          ++m_line;
          i += (m_s[i + 1] == '\r' && i + 2 < m_s.size() && m_s[i + 2] == '\n') ? 3 : 2;
          continue;
        }
        i += 2;
        continue;
      }
      if (c == '\0') problem(SyntaxIssue::null_byte);
      if (c == '\n' || c == '\r') {
        if (!triple) return i; // unterminated: the tree says so
        ++m_line;
        i += (c == '\r' && i + 1 < m_s.size() && m_s[i + 1] == '\n') ? 2 : 1;
        continue;
      }
      if (c == quote && (!triple || (i + 2 < m_s.size() && m_s[i + 1] == quote && m_s[i + 2] == quote))) {
        return i + (triple ? 3 : 1);
      }
      ++i;
    }
    return i;
  }

  // Measures a line's indentation; blank and comment-only lines do not count.
  size_t indentation(size_t i) {
    size_t col = 0, alt = 0;
    for (; i < m_s.size(); ++i) {
      char c = m_s[i];
      if (c == ' ') {
        ++col;
        ++alt;
      } else if (c == '\t') {
        col = (col / 8 + 1) * 8;
        ++alt;
      } else if (c == '\f') {
        col = alt = 0;
      } else {
        break;
      }
    }
    if (i >= m_s.size() || m_s[i] == '#' || m_s[i] == '\n' || m_s[i] == '\r') return i;
    if (m_s[i] == '\\' && i + 1 < m_s.size() && (m_s[i + 1] == '\n' || m_s[i + 1] == '\r')) return i;
    m_starts.push_back(static_cast<uint32_t>(i));
    // An indent only opens the block a line ending with ':' announces, and such a line needs one.
    bool opens = m_last == ':';
    if (col > m_cols.back() && !opens) problem(SyntaxIssue::unexpected_indent);
    if (col <= m_cols.back() && opens) problem(SyntaxIssue::unexpected_indent);
    if (col == m_cols.back()) {
      if (alt != m_alts.back()) problem(SyntaxIssue::inconsistent_tabs);
    } else if (col > m_cols.back()) {
      if (m_cols.size() >= k_max_indent) problem(SyntaxIssue::too_deep_indent);
      if (alt <= m_alts.back()) problem(SyntaxIssue::inconsistent_tabs);
      m_cols.push_back(col);
      m_alts.push_back(alt);
    } else {
      while (m_cols.size() > 1 && col < m_cols.back()) {
        m_cols.pop_back();
        m_alts.pop_back();
      }
      if (col != m_cols.back()) problem(SyntaxIssue::unindent_mismatch);
      else if (alt != m_alts.back()) problem(SyntaxIssue::inconsistent_tabs);
    }
    return i;
  }

  std::string_view m_s;
  CompileCheck& m_out;
  std::vector<uint32_t>& m_starts;
  uint32_t m_line = 1;
  int m_level = 0;
  char m_last = 0; // the last character of the last logical line, outside strings and comments
  std::vector<size_t> m_cols{0}, m_alts{0};
};

} // namespace

void check_bytes(std::string_view source, CompileCheck& out, std::vector<uint32_t>& line_starts) {
  if (size_t nul = source.find('\0'); nul != std::string_view::npos) note_problem(out, SyntaxIssue::null_byte, line_at(source, nul));
  check_encoding(source, out);
  LineScanner(source, out, line_starts).run();
}

} // namespace impact::python
