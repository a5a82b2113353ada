#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// The shape of a file for the semantic diff (src/semantic): hashes of each symbol's parts and of the
// module-level code, so that two versions compare equal exactly when they mean the same code.
#include "impact/python/compile_check.hpp"
#include "impact/python/facts.hpp"
#include "impact/vocabulary.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// The shape of one symbol for the semantic diff: hashes of its parts, computed from the syntax tree
// with comments and layout left out, so that two versions compare equal exactly when they mean the
// same code.
struct SymbolShape {
  std::string qualname;
  SymbolKind kind = SymbolKind::function;
  LineSpan lines;              // first decorator to last line
  uint64_t at_definition = 0;  // what runs when the def/class statement runs: decorators, default
                               // values, annotations; for a class also its bases and own body
  uint64_t signature = 0;      // parameter names and kinds, return annotation (functions)
  uint64_t docstring = 0;
  uint64_t body = 0;           // the body without its docstring (for a class: nothing, see at_definition)
  uint64_t with_comments = 0;  // everything, comments included: tells comment-only from layout-only
};

// The shape of a whole file: its symbols (in source order) and its module-level parts.
struct FileShape {
  std::vector<SymbolShape> symbols;
  uint64_t imports = 0;       // module-level import statements (also inside if/try at module level)
  uint64_t module_code = 0;   // every other module-level statement, defs and classes excluded
  // The body of each module-level `if __name__ == "__main__":`, whole (its imports and definitions
  // too): code that runs only where the module runs as a program, never on import.
  uint64_t main_block = 0;
  // The body of each module-level `if TYPE_CHECKING:` (`typing.TYPE_CHECKING`, `t.TYPE_CHECKING`),
  // whole: code only a type checker reads; it never runs.
  uint64_t type_checking = 0;
  uint64_t docstring = 0;
  uint64_t with_comments = 0; // the whole file, comments included
  uint64_t tokens = 0;        // the whole file without comments
  bool parse_error = false;
  // Bytes between tokens that tree-sitter skips and CPython rejects (a vertical tab, a no-break or
  // zero-width space, a NUL, a stray backslash): the hashes ignore layout, so they cannot see these.
  bool layout_error = false;
  CompileCheck compile;       // whether CPython would compile it
};

// Computes the shape of `source` (parses it; one call per side of a changed file).
FileShape shape_of(std::string_view source);

} // namespace impact
