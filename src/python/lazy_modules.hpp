#pragma once
// `__lazy_modules__ = {"pkg.a", ...}` at module level (PEP 810) makes the file's own imports of those
// modules lazy: its strings name what the file's import statements already link, and are read by no
// other code. They are no string references (docs/selection.md `string-references`), which would make
// the module's import-time code read every name of those modules.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <string_view>

namespace impact::python {

// Drops the string references of a module-level `__lazy_modules__` literal from `facts`.
void drop_lazy_module_names(TSNode root, std::string_view source, FileFacts& facts);

} // namespace impact::python
