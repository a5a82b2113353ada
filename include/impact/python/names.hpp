#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// Python's reserved words and builtin names, as the reference collector tells them from references,
// and the parts of a dotted name.
#include <string_view>

namespace impact::python {

// Whether `s` is a keyword (`None`, `True` and `False` included).
bool is_keyword(std::string_view s);
// Whether `s` names a builtin the collector knows (a module rebinding it is checked by the caller).
bool is_builtin(std::string_view s);

// The last part of a dotted name: "a.b.c" -> "c"; "c" -> "c".
inline std::string_view last_part(std::string_view qualname) {
  auto dot = qualname.rfind('.');
  return dot == std::string_view::npos ? qualname : qualname.substr(dot + 1);
}

} // namespace impact::python
