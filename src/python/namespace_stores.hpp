#pragma once
// pytest hands the `doctest_namespace` dict to doctests only: a fixture that fills it
// (`doctest_namespace["semver"] = semver`) gives those values to doctests, not to the tests that run
// the fixture (docs/selection.md `dynamic-access`). The references read only to be stored there are
// kept, and counted as such, so that holding a module as a value is not taken from them.
#include "impact/python/facts.hpp"
#include "python/grammar.hpp"

#include <string_view>

namespace impact::python {

// Moves to the end of each function's refs the ones it reads only to store into doctest_namespace,
// and sets Symbol::namespace_values to their number.
void mark_namespace_values(TSNode root, std::string_view source, FileFacts& facts);

} // namespace impact::python
