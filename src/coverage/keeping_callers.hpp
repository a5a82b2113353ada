#pragma once
// Callers that may keep what a changed function computed (docs/coverage.md, "Results kept by a
// caller"): coverage.py saw the changed body run under the first test that asked for the result only;
// a later test that got the kept result ran the caller, not the body.
#include "coverage/blocks.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/semantic.hpp"

#include <cstdint>
#include <functional>
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

// The files, other than `at`, whose functions may call a changed function of `sem` and keep what it
// computed: those that name one (by its last name) and import file `at` directly or through one other
// file (a package's __init__.py re-exporting it). keeping_callers() is asked about each.
std::vector<uint32_t> files_that_may_keep(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                          const FileSemantics& sem);

// The current text of file `i` of the facts, or nothing when it cannot be read.
using ReadText = std::function<std::optional<std::string>(size_t)>;

// A changed function whose result a caller of the same file may keep in module-level data (`_cache[k] =
// compute(k)`, `_instance = build()`): the caller's later calls skip it, so a test that ran the caller
// but not the changed body may still use its result. The tests that ran any line of such a caller are
// added: a caller is a function of the file that names the changed function and reads a name the
// module binds by assignment, unless that name's value can hold no result: one no code of the file
// can change (FileFacts::constant_names) and no other file names. Returns why the index cannot
// answer when such a caller ran outside a test (its cache filled at import).
std::optional<std::string> add_caching_callers(const ProjectFacts& facts, size_t at, const FileSemantics& sem,
                                               const std::vector<Hunk>& hunks, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                               BlockAnswer& blocks, const ReadText& read_current);

// Adds to `blocks` the tests that ran any body line of the caller spanning `def_line`..`last_line` in
// the current file (its `def` line runs at import), read at the base lines `hunks` (git's, base ->
// current) map them to, widened to a hunk's base lines where they fall in one. Returns `why` when
// one of its lines ran outside a test (its result kept from import time: the index cannot answer).
// `shown`: the caller is in another file than the changed one (`lines` are that file's): its tests are
// shown at that line of the changed file, and its body is not one of the changed file's.
std::optional<std::string> add_caller_tests(uint32_t def_line, uint32_t last_line, const std::vector<Hunk>& hunks,
                                            std::string why, const std::map<uint32_t, std::vector<uint32_t>>& lines,
                                            BlockAnswer& blocks, std::optional<uint32_t> shown = std::nullopt);

} // namespace impact
