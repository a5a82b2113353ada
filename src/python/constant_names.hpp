#pragma once
// Module-level names that hold the same value for as long as the module lives (docs/coverage.md,
// "Results kept in module-level data"): bound once, at module level, to a value no code of the file
// can change. A str, number or tuple of such (`TIME_PAT = r"(\d+:\d+)"`, `ARRAY_TYPES = (list, tuple)`),
// a compiled pattern, or a dict, list or set of such values that every use in the file only reads:
// an item or a membership test, iteration, a read-only method (`TABLE.get(k)`), an argument of a
// builtin that makes something new (`sorted(TABLE)`). A `global` statement, a second binding, a store
// or `del` through the name, any other method call and any use that lets the value out (an argument
// of another call, `alias = TABLE`, `return TABLE`) keep the name out: a function could keep a result
// there. A logger (`log = logging.getLogger(__name__)`) whose uses are its logging methods counts too.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"
#include "python/lexer.hpp"

#include <string_view>
#include <vector>

namespace impact::python {

// Fills facts.constant_names from the file's tokens (python/lexer.hpp): only the names' own
// occurrences are looked up in the tree. Reads facts.symbols, facts.module_names and facts.imports
// (a builtin the module rebinds is not the builtin).
void find_constant_names(TSNode root, std::string_view source, const std::vector<Token>& tokens, FileFacts& facts);

} // namespace impact::python
