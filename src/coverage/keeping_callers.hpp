#pragma once
// Callers that may keep what a changed function computed (docs/coverage.md, "Results kept by a
// caller"): coverage.py saw the changed body run under the first test that asked for the result only;
// a later test that got the kept result ran the caller, not the body.
#include "coverage/blocks.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/semantic.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

struct KeepingCaller {
  std::string qualname;
  uint32_t def_line = 0, last_line = 0;
  std::string changed; // the changed function it leads to
  std::string how;     // what may keep the result, for people
  // Memoized itself, or setting an attribute a later read finds without calling it: a test that got
  // the kept result ran no line of the caller, so no coverage names it (the index cannot answer).
  bool memoized = false;
};

// The functions of file `at` (`file`, content `content`) that call a changed function of `sem`,
// directly or through other functions of the file (up to k_keeping_depth calls up), and may keep what
// they got across calls: memoized themselves (memoized.hpp), or storing into a container that
// outlives the call (keeping_callers.cpp, keeps_items: an item of an attribute or of any name but a
// fresh local, a mutating call on one, setattr). A direct caller that keeps a result in module-level
// data is also found by the evidence's own rule.
std::vector<KeepingCaller> keeping_callers(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                           std::string_view file, const FileSemantics& sem, std::string_view content);

inline constexpr int k_keeping_depth = 6;

// Adds to `blocks` the tests that ran any body line of the caller spanning `def_line`..`last_line` in
// the current file (its `def` line runs at import), read at the base lines `hunks` (git's, base ->
// current) map them to, widened to a hunk's base lines where they fall in one. Returns `why` when
// one of its lines ran outside a test (its result kept from import time: the index cannot answer).
std::optional<std::string> add_caller_tests(uint32_t def_line, uint32_t last_line, const std::vector<Hunk>& hunks,
                                            std::string why, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                            BlockAnswer& blocks);

} // namespace impact
