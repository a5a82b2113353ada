#pragma once
// Whether CPython would compile a file: tree-sitter recovers from errors that CPython rejects and
// accepts Python 2 and version-dependent syntax, so a file it parses cleanly may still fail to import.
// The check reads the tree (ERROR and MISSING nodes, constructs the grammar accepts but CPython does
// not) and the bytes (encoding, null bytes, tab consistency, nesting limits). See docs/selection.md,
// rule syntax-error.
#include "impact/python/compile_check.hpp"

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace impact::python {

// Checks `source`, whose tree is `root` (a null node when it could not be parsed).
CompileCheck check_compiles(std::string_view source, TSNode root);

// The byte-level part: encoding, null bytes, indentation (TabError, unindent, depth), brackets.
// Records into `out` only when it finds something earlier than what `out` holds. `line_starts`
// receives the byte offset where each logical line starts (its first token), ascending.
void check_bytes(std::string_view source, CompileCheck& out, std::vector<uint32_t>& line_starts);

// The tree-level part: syntax the grammar accepts and CPython rejects, and the Python version each
// construct needs. A simple statement may not span a logical line start: tree-sitter's recovery
// sometimes reads on past a line break CPython ends the statement at.
void check_tree(std::string_view source, TSNode root, const std::vector<uint32_t>& line_starts, CompileCheck& out);

// Literal checks (compile_literals.cpp): a number's spelling; a string's prefix, escapes, bytes
// content and f-string rules (and the version its replacement fields need).
void check_number(std::string_view text, uint32_t line, CompileCheck& out);
void check_string(std::string_view source, TSNode string, CompileCheck& out);

// Records a finding in `out` when it is the first one (by line) or more certain at the same line.
void note_problem(CompileCheck& out, SyntaxIssue issue, uint32_t line);
// Records that line `line` needs Python 3.`minor`.
void note_version(CompileCheck& out, uint8_t minor, uint32_t line);

} // namespace impact::python
