#pragma once
// A module's main guard, `if __name__ == "__main__":` directly at module level: its body runs only
// when the module runs as a program (`python -m pkg.cli`, `python tool.py`, runpy), never on import.
// The semantic diff hashes it apart (main_block); the reference pass keeps its reads apart
// (FileFacts::module_program, docs/selection.md `main-guard`).
#include "python/grammar.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::python {

// Whether `condition` is `__name__ == "__main__"` (either way round, either quote).
bool is_main_test(TSNode condition, std::string_view source);

// Whether `condition` is `TYPE_CHECKING` or `<module>.TYPE_CHECKING` (`typing.TYPE_CHECKING`, `t.TYPE_CHECKING`):
// the test of a block only a type checker reads.
bool is_type_checking_test(TSNode condition, std::string_view source);

// The byte ranges of the bodies of the main guards among `root`'s statements, ascending. Their elif
// and else branches run on import and are not part of them.
std::vector<std::pair<uint32_t, uint32_t>> main_guard_bodies(TSNode root, std::string_view source);

// Whether byte `at` is inside one of `bodies` (main_guard_bodies()).
inline bool in_main_guard(const std::vector<std::pair<uint32_t, uint32_t>>& bodies, uint32_t at) {
  auto it = std::upper_bound(bodies.begin(), bodies.end(), std::make_pair(at, UINT32_MAX));
  return it != bodies.begin() && at < std::prev(it)->second;
}

} // namespace impact::python
