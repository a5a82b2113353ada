#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// The source text as CPython's tokenizer reads it, so that every reader of a Python file (the syntax
// tree, the reference pass, the byte scans, the semantic diff) sees the tokens the interpreter sees.
#include <string>
#include <string_view>

namespace impact::python {

// `raw` with CPython's universal newlines (`\r\n` and a lone `\r` each end a line, as `\n`; inside
// strings too, where the interpreter's value changes the same way) and every non-ASCII identifier in
// code NFKC-normalised (PEP 3131). Returns `raw` itself when neither applies: a file with no '\r' and
// no byte >= 0x80 costs two scans and no copy. Otherwise the text is built in `buffer` and viewed.
std::string_view cpython_source(std::string_view raw, std::string& buffer);

// True when `text` has a '\r' not followed by '\n': a line end to CPython that git and coverage
// line numbers disagree about (git counts only '\n').
bool has_lone_carriage_return(std::string_view text);

// The encoding a PEP 263 declaration names (`# -*- coding: latin-1 -*-`), lowercased, or "": read on
// line 1, and on line 2 only after a comment or blank line 1, as CPython's tokenizer reads it. It is a
// comment to the parser, yet it decides what every non-ASCII byte of the file means.
std::string coding_declaration(std::string_view text);

} // namespace impact::python
