#pragma once
// The block rule of the coverage index (docs/coverage.md, "Block level"): a change inside a function
// body of the base version is answered by the tests whose call phase ran the code lines it replaces,
// or, for an insertion or a line no test ran, any line of that body.
#include "impact/coverage.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact {

// What the blocks of one changed file say: the tests, or why the index cannot answer.
struct BlockAnswer {
  CoverageFallback fallback = CoverageFallback::none;
  std::string detail;                 // for people, when fallback is set
  std::map<uint32_t, uint32_t> tests; // test id -> the first body line whose coverage names it
  // The base lines whose coverage answered: the bodies, and the lines answered one by one, sorted.
  std::vector<LineSpan> bodies;
};

// Answers the change `hunks` (git's, base -> current) of `path` from `lines` (the index's line map of
// the base content `base`; `current` is the file now). `whole_suite`: the index saw every test of the
// suite, so a body that no test ran is run by none. `arcs`: the index was measured with coverage.py's
// arcs (branch data), which record a resumed generator's exit.
// Whether the change `hunks` (base -> current) may make a plain function a generator or the reverse: a
// hunk adds or removes a line that holds `yield` or `await`, or the functions whose own body holds a
// `yield` differ (deleting a `for` line can move an unchanged `yield` into a nested def).
bool kinds_may_differ(const std::vector<Hunk>& hunks, std::string_view base, std::string_view current);

BlockAnswer answer_by_blocks(std::string_view path, const std::vector<Hunk>& hunks, std::string_view base,
                             std::string_view current, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                             bool whole_suite, bool arcs);

} // namespace impact
