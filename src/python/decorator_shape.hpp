#pragma once
// Which of a file's functions are decorators that only wrap what they are given (docs/selection.md
// `registration`): `def deco(func)` that returns `func` itself or a function of its own that calls
// `func`, and hands `func` (and that wrapper) to nothing else; or a factory (`def deco(arg)`) whose
// every return is such a decorator, or `partial(deco, ...)`. A function behind such a decorator is
// still called through its name only, so the decision follows its name instead of every importer.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <string_view>

namespace impact::python {

// Sets Symbol::wraps_only on each function of `facts` that has that shape.
void mark_wrapping_decorators(TSNode root, std::string_view source, FileFacts& facts);

} // namespace impact::python
