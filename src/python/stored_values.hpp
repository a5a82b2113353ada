#pragma once
// Module-level names bound to values that only hold what they name (docs/selection.md `stored-values`):
// `ALIAS = f`, `HANDLERS = {"a": f, "b": mod.g}`, `bound = functools.partial(f, 1)`, and
// `old = deprecated(f, ...)` where the callee may be the project's own wrapping decorator (the decision
// checks). The import runs none of what they name, so code that reaches `f` reaches the name bound to it
// rather than making the module's import-time code a reader of `f`.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace impact::python {

// Byte ranges in the source, ascending.
struct StoredRanges {
  std::vector<std::pair<uint32_t, uint32_t>> chains;  // every chain in a stored position
  // Names that are no reads: the name each value is bound to, and both names of a class body's alias
  // of a method (`next = __next__`: Symbol::aliases says it).
  std::vector<std::pair<uint32_t, uint32_t>> bound;
  // Lines (1-based) of string literals a value holds: an argument of the call that makes it
  // (`old = deprecated(f, replace="pkg.new")`, `partial(f, "a.b")`), where no other string or
  // statement shares the line. mark_held_strings() flags their string references.
  std::vector<uint32_t> string_lines;
};

// Sets k_import_held on the string references (ImportKind::string_ref) at `lines` (ascending).
void mark_held_strings(const std::vector<uint32_t>& lines, FileFacts& facts);

// Fills facts.stored_values from the module's top-level assignments and returns where they are: the
// reference pass (collect_references) keeps the stored chains apart from the module-level code that
// runs at import, and does not count a value's own name as read by it. Reads facts.imports (for
// `partial`) and facts.symbols (a function named `partial` defined here is not functools').
// Also fills Symbol::aliases: `name = method` in a class body, where `method` is a function the class
// body defined before that statement.
StoredRanges find_stored_values(TSNode root, std::string_view source, FileFacts& facts);

} // namespace impact::python
