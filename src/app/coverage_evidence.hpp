#pragma once
// Stage 4 applied to one change: what the coverage index can vouch for, file by file.
#include "impact/changes.hpp"
#include "impact/coverage.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"
#include "impact/python.hpp"
#include "impact/semantic.hpp"

namespace impact::app {

// Reads the index for the changed Python files: a file's changed lines are answered by the tests whose
// coverage hit them when the index measured exactly the file's content at the diff base, the change is
// to function bodies only, replaces or deletes lines (no insertions), and every test named still exists.
// Everything else is left to the static analysis, with the reason. Throws impact::Error for an index
// that cannot be read.
CoverageInput coverage_evidence(Repository& repo, const ChangeSet& changes, const std::vector<FileSemantics>& semantics,
                                const ProjectFacts& facts, const ImportGraph& graph, IndexReader& index);

} // namespace impact::app
