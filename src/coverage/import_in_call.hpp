#pragma once
// Import-time code that ran inside a test's call (docs/coverage.md, "Imports inside a test's call"). A
// module imported for the first time by a test's call (`import` in a function, import_module, a
// plugin loader) runs its module-level code, and every function that code calls, under that one test's
// context; a session or module fixture first set up by `request.getfixturevalue()` inside a call runs
// its body there too. Later tests use what that run made without running any of it. Such a test's
// lines are not its own: they are counted as run outside any test as well (k_import_time), so that a
// change to a body it ran keeps the static answer (`outside_tests`).
#include "impact/coverage.hpp"

#include <string_view>
#include <unordered_set>

namespace impact {

// Adds to `tests` the tests that, in file `f` whose measured content is `content`, ran a line outside
// every function body (module level, a class body, a `def` header) that ran at no other time (not under
// k_import_time: a module-level lambda or one-line method called later ran its line at import too) and
// may run code as it runs (a call, a decorator, a subscript, a class with bases: not an import, a plain
// `def`, a literal assigned), or a line of the body of a function decorated as a fixture.
void find_imports_in_calls(const MeasuredFile& f, std::string_view content, std::unordered_set<uint32_t>& tests);

// Counts every line that one of `tests` ran as run outside any test too.
void mark_imports_in_calls(CoverageIndex& index, const std::unordered_set<uint32_t>& tests);

} // namespace impact
