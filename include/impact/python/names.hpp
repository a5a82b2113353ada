#pragma once
// Python's reserved words and builtin names, as the reference collector tells them from references.
#include <string_view>

namespace impact::python {

// Whether `s` is a keyword (`None`, `True` and `False` included).
bool is_keyword(std::string_view s);
// Whether `s` names a builtin the collector knows (a module rebinding it is checked by the caller).
bool is_builtin(std::string_view s);

} // namespace impact::python
