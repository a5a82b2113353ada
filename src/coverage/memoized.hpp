#pragma once
// Functions whose results may be cached across calls (docs/coverage.md, `memoized`): coverage.py saw
// such a body run for the first test that called it only, so the index cannot answer for it.
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/semantic.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace impact {

// A changed function whose results may be cached across calls: coverage saw its body run for the
// first test that called it only (docs/coverage.md, `memoized`). A decorator named like a cache
// (functools.cache, lru_cache, memoize, once, reify, lazy, singleton), also under an import's other
// name (`from functools import cache as remember`); any decorator the project makes (a function of
// the file, a name it binds by assignment, `keep = lru_cache(...)`, or an import from a project
// module: `@once` may keep what the function returned); and a function the module wraps by such a call
// (`load = lru_cache(...)(_load)`, `load = once(_load)`). Known decorators that keep nothing (property, staticmethod,
// contextmanager, wraps, pytest's) and other libraries' decorators with other names are trusted.
// Returns the changed symbol of `sem` (file `file`, facts `at`) and the decorator or use that may cache it.
std::optional<std::pair<std::string, std::string>> memoized(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                                            std::string_view file, const FileSemantics& sem);

} // namespace impact
