#pragma once
// The scans that complement the statement walk: dynamic imports (a full walk, paid only when the source
// mentions an import function), dotted string references and a line scan for files that do not parse.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"
#include "python/lexer.hpp"

#include <vector>

namespace impact::python {

// True when a name token of `source` is one of the functions scan_dynamic_imports looks for: only then
// can its walk over every node find anything.
bool names_dynamic_import(std::string_view source, const std::vector<Token>& tokens);

// Finds importlib.import_module / __import__ / runpy / spec_from_file_location calls. A literal argument
// becomes an ImportKind::dynamic import; anything computed an UncertainImport (with its literal prefix).
void scan_dynamic_imports(TSNode root, std::string_view source, FileFacts& facts);

// Records string literals that look like dotted paths ("app.models.User", "app.views:index") as
// ImportKind::string_ref imports; whether they name a module of the project is decided when resolving.
void scan_string_references(std::string_view source, FileFacts& facts);

// Reads `import` / `from ... import` lines with a plain line scan, for files with syntax errors, so that
// a file tree-sitter cannot fully parse still contributes its imports.
void scan_import_lines(std::string_view source, FileFacts& facts);

} // namespace impact::python
