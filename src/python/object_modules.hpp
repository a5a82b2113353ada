#pragma once
// `import_module(func.__module__)`: the module an object says it was defined in. The object exists,
// so its module is loaded already (it is in sys.modules): the call imports nothing new, and is no
// computed import that may load any module (docs/selection.md `dynamic-import-uncertain`).
#include "python/grammar.hpp"

#include <string_view>

namespace impact::python {

// Whether `argument` (the first argument of an import call) is an object's `__module__`: a chain
// ending in `.__module__`, `getattr(x, "__module__", ...)`, or a local name of the enclosing function
// bound only to one of those (and to nothing else: no parameter, loop target or other assignment).
bool names_objects_module(TSNode argument, std::string_view source);

} // namespace impact::python
