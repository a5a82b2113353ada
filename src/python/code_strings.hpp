#pragma once
// Imports written inside strings of code: `[sys.executable, "-c", "import pkg; print(pkg.f())"]`, a
// script a test writes to tmp_path and runs, pytester's `makepyfile("from pkg import api ...")`. That
// code runs the modules it imports (in another process, or through exec) and may read any of their
// names, none of which the file spells outside the string (docs/selection.md, `string-references`).
#include "impact/python/facts.hpp"
#include "python/lexer.hpp"

#include <string_view>
#include <vector>

namespace impact::python {

// The modules the import statements of one string's text name: "import a.b, c" gives a.b and c;
// "from a import b, c" gives a.b and a.c (b may be a submodule or a name of a); relative imports
// and `*` give nothing. A statement starts the text or follows a line end (`\n` too) or `;`.
std::vector<std::string> imported_in_code(std::string_view text);

// Adds an ImportKind::string_ref import flagged k_import_code for each module the strings of the file
// import (docstrings and other strings that are statements of their own excepted).
void scan_code_strings(std::string_view source, const std::vector<Token>& tokens, FileFacts& facts);

} // namespace impact::python
