#pragma once
// The parts of a decision in progress that decide.cpp's Decider keeps: a changed Python file as the
// decision sees it, the tests one part of the analysis found, and what makes the whole suite run.
#include "impact/decision.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace impact::decision {

struct Trigger {
  Reason reason = Reason::none;
  std::string detail;
};

// The facts of every Python file: the decision's, or at file level (no symbol facts) the ones read
// for the rules of files that are not Python; nullptr when neither was read.
inline const ProjectFacts* facts_read(const DecisionInput& in) {
  return in.facts != nullptr ? in.facts : in.non_python.facts;
}

// A changed Python file as the decision sees it.
struct PythonChange {
  size_t verdict = 0;              // index in Decision::files
  std::vector<uint32_t> nodes;     // its graph nodes: the current file, and/or the ghost of the old path
  std::optional<uint32_t> current; // the node of the current file
  const FileSemantics* semantics = nullptr;
  FileStatus status = FileStatus::modified;
  const CoverageUse* coverage = nullptr; // the index's verdict on it, when there is an index
  bool unloaded = false;                 // no test file loads it (imports, conftest.py files, plugins)
};

// Tests found by one part of the analysis, before they are merged into the decision.
struct Selection {
  std::map<uint32_t, std::vector<Hop>> whole;       // test files selected whole
  std::map<std::string, std::vector<Hop>> tests;    // single tests
  std::map<uint32_t, std::vector<Hop>> import_only; // reached files that define no tests

  void merge(Selection&& other) {
    whole.merge(other.whole);
    tests.merge(other.tests);
    import_only.merge(other.import_only);
  }
};

} // namespace impact::decision
