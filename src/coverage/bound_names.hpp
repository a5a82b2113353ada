#pragma once
// The names some lines of Python bind (docs/coverage.md, "Block level"). A name bound anywhere in a
// function is local to the whole function: a replaced line that binds a name the function also reads
// from outside makes every read of it local, on lines the replaced line's tests never ran.
#include <set>
#include <string>
#include <string_view>

namespace impact {

// The names `code` (whole lines, possibly a part of a longer statement) may bind in the scope it is
// written in: assignment and augmented assignment targets, `:=`, `for` targets, `as` names, imports,
// `del`, `def` and `class` names, annotated names, `case` patterns, and the names `global` or
// `nonlocal` declares (as "global NAME"). It errs towards more names: an attribute's or item's base
// (`a` of `a[i] = v`) counts too; strings and comments are skipped.
std::set<std::string> bound_names(std::string_view code);

} // namespace impact
