#pragma once
// Functions code may read rather than run (docs/coverage.md, "Functions read, not run"): a test that
// reads a function's docstring, source text or code object runs no line of its body, so coverage.py
// records nothing that would tie the test to a change there.
#include "impact/python/project_facts.hpp"
#include "impact/semantic.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace impact {

// Why the index cannot answer the changes `sem` of file `path`, or nullopt: a changed function whose
// docstring changed too, where the project names a docstring reader; or one the project hands to other
// code as a value (an argument, an element of a display, a stored value) or reads `__code__` of, where
// it names a reader of source text or code objects (inspect.getsource, `__code__`, dis, ...), or a
// reader of a function's kind (inspect.isgeneratorfunction, ...) and `kind_may_change()` (asked only
// then): the change may make a function a generator or a plain one.
std::optional<std::string> read_not_run(const ProjectFacts& facts, std::string_view path, const FileSemantics& sem,
                                        const std::function<bool()>& kind_may_change);

} // namespace impact
