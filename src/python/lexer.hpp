#pragma once
// A Python tokenizer for reading names: identifiers, dots, brackets, assignment operators, strings and
// logical line ends. It skips comments and string contents but lexes the code inside f-string
// replacement fields, so that `f"{helper()}"` still reads `helper`. Byte scanning is far cheaper than
// walking every expression node of the syntax tree, which the cold run cannot afford.
// Callers lex CPython's view of a file (source_view.hpp): line ends are '\n' there, so the '\r' this
// lexer skips as a space never hides a line end, and names are already NFKC.
#include <cstdint>
#include <string_view>
#include <vector>

namespace impact::python {

enum class Tok : uint8_t {
  name,      // identifier or keyword
  dot,
  lparen,
  rparen,
  lbracket,
  rbracket,
  lbrace,
  rbrace,
  assign,    // =
  augassign, // += -= ... := also counts
  comma,
  colon,
  string,
  number,
  newline,   // end of a logical line (outside brackets)
  other,     // any other operator
};

struct Token {
  Tok kind;
  uint32_t begin; // byte offsets into the source
  uint32_t end;
  uint32_t depth; // bracket depth before the token
};

// Replaces `out` with the tokens of `source`, in order. A vector rather than a callback: the lexer's
// loop and its reader's loop each stay tight, and the buffer is reused from file to file.
void lex(std::string_view source, std::vector<Token>& out);

} // namespace impact::python
