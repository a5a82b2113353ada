#pragma once
// docs/selection.md `collection`: which doctests run for a change. A text doctest (--doctest-glob)
// runs whole when a module its examples import is reached, or a conftest.py above it; any doctest,
// text or module (--doctest-modules), when a file that fills `doctest_namespace` is reached. At
// symbol level a text doctest is one more reader: it runs when the change reaches the import-time
// code of what it loads, or a symbol whose name its examples spell.
#include "decision/decide_parts.hpp"
#include "decision/symbol_walk.hpp"
#include "decision/walk.hpp"
#include "impact/decision.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace impact::decision {

// What the symbol walk tells of text doctests: the files whose import-time code the change reaches,
// and for each text doctest the chain of a reached symbol its examples name.
struct PageFilter {
  std::vector<uint32_t> import_time; // the nodes, ascending
  bool at_import(uint32_t node) const { return std::binary_search(import_time.begin(), import_time.end(), node); }
  std::vector<uint32_t> fillers; // the files that mention doctest_namespace
  std::unordered_map<std::string, std::vector<Hop>> named; // text doctest path -> chain
};

// The names the symbol walk should watch for (nullopt: text doctests keep the file-level answer, as in
// --mode safe or when there are none): every word of every text doctest, and the names of what
// fixtures store into doctest_namespace, which any doctest may read.
std::optional<NameWatch> doctest_watch(const DecisionInput& in);

// The filter from a finished walk that watched; nullopt when it reached code that runs unnamed or
// ran out of budget. `import_time`: the walk of the files whose every importer is affected.
std::optional<PageFilter> doctest_filter(const DecisionInput& in, const NameWatch& watch, const SymbolResult& result,
                                         const ReverseWalk& import_time);

// Adds the doctests the file-level walk `walk` reaches to `out`; `select_file(out, node, chain)`
// selects a module collected for its doctests. With `pages`, a text doctest the walk reaches runs
// only when the filter keeps it.
void select_doctests(const DecisionInput& in, const ReverseWalk& walk, Selection& out,
                     const std::function<void(Selection&, uint32_t, std::vector<Hop>)>& select_file,
                     const PageFilter* pages = nullptr);

// With --doctest-modules the examples in a test module's docstrings are tests too, which no test
// function's code reads: each test module with examples that `walk` reached goes to `whole` (at symbol
// level, where its functions are otherwise narrowed one by one).
void test_module_examples(const DecisionInput& in, const ReverseWalk& walk,
                          std::unordered_map<uint32_t, std::vector<Hop>>& whole);

} // namespace impact::decision
