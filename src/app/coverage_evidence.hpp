#pragma once
// Stage 4 applied to one change: what the coverage index can vouch for, file by file.
#include "impact/changes.hpp"
#include "impact/coverage.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/semantic.hpp"

namespace impact::app {

// Reads the index for the changed Python files. A file's changed lines are answered by the tests whose
// coverage hit them when: the index measured exactly the file's content at the diff base; the change
// is to function bodies only and replaces or deletes code lines (no insertions, nothing moved to an
// outer block); every replaced line was run by tests, and only inside a test's own call (not at import
// nor in a fixture); and every test named still exists. Everything else, conftest.py files included,
// is left to the static analysis with the reason (CoverageUse::fallback).
//
// For the files it vouches for, it also lists the test files the index cannot speak for: those that
// differ from what was measured, those that can load a Python file that differs (drift outside the
// change), and those holding a test that left no coverage (it did not run when the index was built).
// Throws impact::Error for an index that cannot be read.
CoverageInput coverage_evidence(Repository& repo, const ChangeSet& changes, const std::vector<FileSemantics>& semantics,
                                const ProjectFacts& facts, const ProjectLayout& layout, const ImportGraph& graph,
                                IndexReader& index);

} // namespace impact::app
