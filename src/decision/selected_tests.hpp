#pragma once
// From tests found to the decision's list of them: the index's answer as a Selection, and a
// Selection written out as SelectedTest entries with their notes.
#include "decision/decide_parts.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"

#include <optional>
#include <string>
#include <vector>

namespace impact::decision {

// The note a chain earns: why a test that may not need to run cannot be ruled out (a computed import
// on the way), or nothing.
std::string note_of(const std::vector<Hop>& chain);

// The coverage index's answer: the tests whose recorded coverage hit the changed lines (each change's
// CoverageUse), chained to the line.
Selection covered_tests(const std::vector<const PythonChange*>& changes, const std::vector<FileVerdict>& files,
                        const ImportGraph& graph);

// The whole files and single tests of a selection as SelectedTest entries (a test of a file that runs
// whole is left out), appended to `out`.
void list_selected(std::map<uint32_t, std::vector<Hop>>&& whole, std::map<std::string, std::vector<Hop>>&& tests,
                   const ImportGraph& graph, std::vector<SelectedTest>& out);

// docs/selection.md `test-node-ids`: pytest reads a command-line argument's text from its first `[` on
// as a parameter id, so a test whose file path holds a `[` (`tests/cases[v2]/test_a.py`) cannot be
// named, nor its folder: the whole suite runs (`unaddressable_path`), the file named.
std::optional<Trigger> unaddressable_test(const std::vector<SelectedTest>& selected);

} // namespace impact::decision
