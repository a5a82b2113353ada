#pragma once
// Rule `source-readers` through a module object (docs/selection.md): code that finds a module's own
// file by what the module records (`Path(kernels.__file__).read_text()`, `linecache.getline(k.__file__,
// 2)`, `k.__loader__.get_source(k.__name__)`, `k.__spec__.origin`) may read its text, a comment too.
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace impact::decision {

// The files whose code reads `__file__`, `__loader__` or `__spec__` of a module that may be graph node
// `changed`, or hands a name imported from it to inspect.getfile() or getsourcefile() (`open(
// inspect.getfile(square))`), each with the line of the function holding the read (or of the import
// binding the module, at module level). A module is matched by the last part of its dotted name, after the file's import
// aliases are undone (`import pkg.kernels as k` makes `k.__file__` the file of `kernels`); a module
// object held in a local or a parameter (`for m in mods: m.__file__`) is not followed.
std::vector<std::pair<uint32_t, uint32_t>> module_file_readers(const ProjectFacts& facts, const ImportGraph& graph,
                                                               uint32_t changed);

} // namespace impact::decision
