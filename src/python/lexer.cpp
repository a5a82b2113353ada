#include "python/lexer.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace impact::python {

namespace {

// Identifier bytes by table: 1 may start an identifier, 2 may only continue one (digits).
constexpr std::array<uint8_t, 256> k_ident = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    t[static_cast<size_t>(c)] = start ? 1 : (c >= '0' && c <= '9') ? 2 : 0;
  }
  return t;
}();

bool ident_start(unsigned char c) { return k_ident[c] == 1; }
bool ident_char(unsigned char c) { return k_ident[c] != 0; }

// True when `prefix` (the identifier just read) is a string prefix: r, b, u, f, rb, br, fr, rf.
bool string_prefix(std::string_view p, bool& is_f, bool& is_raw) {
  if (p.empty() || p.size() > 2) return false;
  is_f = false;
  is_raw = false;
  bool bytes = false, u = false;
  for (char c : p) {
    switch (c | 0x20) {
    case 'r': if (is_raw) return false; is_raw = true; break;
    case 'f': if (is_f) return false; is_f = true; break;
    case 'b': if (bytes) return false; bytes = true; break;
    case 'u': if (u) return false; u = true; break;
    default: return false;
    }
  }
  if (u && p.size() > 1) return false;
  if (is_f && bytes) return false;
  return true;
}

class Lexer {
public:
  Lexer(std::string_view src, std::vector<Token>& out) : m_src(src), m_out(out) {}

  void run() { code(m_src.size(), false); }

private:
  void emit(Tok kind, size_t begin, size_t end) {
    m_out.push_back(Token{kind, static_cast<uint32_t>(begin), static_cast<uint32_t>(end), m_depth});
  }

  // Lexes code until `limit`, or, inside an f-string replacement field (`in_field`), until the '}',
  // ':' or '!' that ends the expression at the field's own bracket depth.
  void code(size_t limit, bool in_field) {
    uint32_t field_depth = m_depth;
    while (m_pos < limit) {
      auto c = static_cast<unsigned char>(m_src[m_pos]);
      if (c == ' ') { // indentation and spacing: most bytes of most files
        do ++m_pos;
        while (m_pos < limit && m_src[m_pos] == ' ');
        continue;
      }
      if (in_field && m_depth == field_depth && (c == '}' || c == ':' || (c == '!' && peek(1) != '='))) return;
      if (c == '#') {
        const void* eol = std::memchr(m_src.data() + m_pos, '\n', limit - m_pos);
        m_pos = eol == nullptr ? limit : static_cast<size_t>(static_cast<const char*>(eol) - m_src.data());
      } else if (c == '\n') {
        if (m_depth == 0 && !in_field) emit(Tok::newline, m_pos, m_pos + 1);
        ++m_pos;
      } else if (c == '\\' && peek(1) == '\n') {
        m_pos += 2;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\\') {
        ++m_pos;
      } else if (ident_start(c)) {
        size_t begin = m_pos;
        while (m_pos < limit && ident_char(static_cast<unsigned char>(m_src[m_pos]))) ++m_pos;
        bool is_f = false, is_raw = false;
        if (m_pos < limit && (m_src[m_pos] == '"' || m_src[m_pos] == '\'') &&
            string_prefix(m_src.substr(begin, m_pos - begin), is_f, is_raw)) {
          string(begin, is_f, is_raw);
        } else {
          emit(Tok::name, begin, m_pos);
        }
      } else if (c == '"' || c == '\'') {
        string(m_pos, false, false);
      } else if (c >= '0' && c <= '9') {
        number();
      } else if (c == '.') {
        if (peek(1) >= '0' && peek(1) <= '9') number();
        else if (peek(1) == '.' && peek(2) == '.') emit_advance(Tok::other, 3);
        else emit_advance(Tok::dot, 1);
      } else if (c == '(' || c == '[' || c == '{') {
        emit_advance(c == '(' ? Tok::lparen : c == '[' ? Tok::lbracket : Tok::lbrace, 1);
        ++m_depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (m_depth > 0) --m_depth;
        emit_advance(c == ')' ? Tok::rparen : c == ']' ? Tok::rbracket : Tok::rbrace, 1);
      } else if (c == ',') {
        emit_advance(Tok::comma, 1);
      } else {
        op();
      }
    }
  }

  char peek(size_t ahead) const { return m_pos + ahead < m_src.size() ? m_src[m_pos + ahead] : '\0'; }

  void emit_advance(Tok kind, size_t length) {
    emit(kind, m_pos, m_pos + length);
    m_pos += length;
  }

  void number() {
    size_t begin = m_pos;
    while (m_pos < m_src.size()) {
      char c = m_src[m_pos];
      bool exponent_sign = (c == '+' || c == '-') && m_pos > begin && (m_src[m_pos - 1] == 'e' || m_src[m_pos - 1] == 'E') &&
                           !(m_src[begin] == '0' && m_pos > begin + 1 && (m_src[begin + 1] == 'x' || m_src[begin + 1] == 'X'));
      if (ident_char(static_cast<unsigned char>(c)) || c == '.' || exponent_sign) ++m_pos;
      else break;
    }
    emit(Tok::number, begin, m_pos);
  }

  void op() {
    char c = m_src[m_pos];
    char n = peek(1);
    if (c == '=' && n != '=') return emit_advance(Tok::assign, 1);
    if (c == ':' && n == '=') return emit_advance(Tok::augassign, 2);
    if (c == ':') return emit_advance(Tok::colon, 1);
    // Two- and three-character operators ending in '=' are augmented assignments, except comparisons.
    if ((c == '*' || c == '/' || c == '<' || c == '>') && n == c && peek(2) == '=') return emit_advance(Tok::augassign, 3);
    if (n == '=' && (c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '&' || c == '|' || c == '^' || c == '@')) {
      return emit_advance(Tok::augassign, 2);
    }
    if (n == '=' && (c == '=' || c == '!' || c == '<' || c == '>')) return emit_advance(Tok::other, 2);
    emit_advance(Tok::other, 1);
  }

  // A string literal starting at `begin` (its prefix included); m_pos is at the opening quote.
  void string(size_t begin, bool is_f, bool is_raw) {
    char quote = m_src[m_pos];
    bool triple = peek(1) == quote && peek(2) == quote;
    m_pos += triple ? 3 : 1;
    while (m_pos < m_src.size()) {
      if (!is_f) skip_plain(quote, triple);
      if (m_pos >= m_src.size()) break;
      char c = m_src[m_pos];
      if (c == '\\') {
        // An escaped character never closes the string, raw or not; a backslash at the very end of
        // the file escapes nothing, and the token must not end past the source.
        m_pos = std::min(m_pos + 2, m_src.size());
        continue;
      }
      if (!triple && c == '\n') break; // unterminated: stop at the line end
      if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        m_pos += triple ? 3 : 1;
        emit(Tok::string, begin, m_pos);
        return;
      }
      if (is_f && c == '{') {
        if (peek(1) == '{') {
          m_pos += 2;
          continue;
        }
        ++m_pos;
        if (m_fields < k_max_fields) field();
        continue;
      }
      ++m_pos;
    }
    (void)is_raw;
    emit(Tok::string, begin, m_pos);
  }

  // Inside a string that is no f-string: jumps to the next byte that may matter (the quote, a
  // backslash, or, for a one-line string, the line end), by memchr rather than byte by byte.
  void skip_plain(char quote, bool triple) {
    const char* base = m_src.data();
    size_t end = m_src.size();
    const void* q = std::memchr(base + m_pos, quote, end - m_pos);
    size_t stop = q == nullptr ? end : static_cast<size_t>(static_cast<const char*>(q) - base);
    if (const void* b = std::memchr(base + m_pos, '\\', stop - m_pos)) stop = static_cast<size_t>(static_cast<const char*>(b) - base);
    if (!triple) {
      if (const void* n = std::memchr(base + m_pos, '\n', stop - m_pos)) stop = static_cast<size_t>(static_cast<const char*>(n) - base);
    }
    m_pos = stop;
  }

  // An f-string replacement field after its '{': the expression, then an optional conversion and a
  // format spec that may hold nested fields.
  void field() {
    ++m_fields;
    uint32_t saved = m_depth;
    m_depth = 1; // inside the braces: newlines do not end statements
    code(m_src.size(), true);
    m_depth = saved;
    while (m_pos < m_src.size() && m_src[m_pos] != '}') {
      if (m_src[m_pos] == '{') {
        ++m_pos;
        if (m_fields < k_max_fields) field();
        continue;
      }
      if (m_src[m_pos] == '\n' || m_src[m_pos] == '"' || m_src[m_pos] == '\'') break;
      ++m_pos;
    }
    if (m_pos < m_src.size() && m_src[m_pos] == '}') ++m_pos;
    --m_fields;
  }

  // Replacement fields nest by recursion: past this depth the lexer reads no deeper, so that a file
  // of `f"{f"{f"{...` cannot overflow the stack. CPython rejects f-strings nested past 150 levels
  // ("too many nested f-strings"), so no file that compiles loses a name.
  static constexpr uint32_t k_max_fields = 200;

  std::string_view m_src;
  std::vector<Token>& m_out;
  size_t m_pos = 0;
  uint32_t m_depth = 0;
  uint32_t m_fields = 0; // replacement fields open
};

} // namespace

void lex(std::string_view source, std::vector<Token>& out) {
  out.clear();
  out.reserve(source.size() / 5); // about one token per five bytes of typical code
  Lexer(source, out).run();
}

} // namespace impact::python
