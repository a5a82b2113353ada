#pragma once
// docs/coverage.md, "Tests that start processes": coverage.py sees into a child process only where
// pytest-cov's start-up hook runs in it (the child inherits its environment variables and uses an
// interpreter with pytest-cov installed). A test that starts one with an environment of its own, or
// another interpreter, can run code of the project that the index never records for it; where the
// index answers a change, such a test keeps its share of the static answer. So does a test that loads
// project code that forks: a forked child's coverage is never saved.
#include "decision/decide_parts.hpp"
#include "decision/test_code.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"

#include "util/string_set.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace impact::decision {

class ProcessStarters {
public:
  // Without facts (nullptr), every test file may start one.
  ProcessStarters(const ImportGraph& graph, const ProjectFacts* facts);

  // Whether any test code of the project may start a process (cheap: asked before anything else).
  bool any() const { return m_any; }
  // Whether test file `node` may start one: its own code, a conftest.py in its scope, or test code it
  // imports (a helper module beside the tests) names a way to start a process, or it loads project
  // code that forks (multiprocessing, os.fork, ProcessPoolExecutor, ...), whose children coverage.py
  // does not record.
  bool starts(uint32_t node);
  // Keeps, of `static_answer`, what lies in test files that may start a process: where the way to start
  // one lies in the test file or a helper module it imports (not a conftest.py, not forking project
  // code), only the tests that may use it (test_starts()).
  Selection keep(Selection static_answer);

private:
  // Whether test `test` (the part of its node id after the file) of test file `node` may start a
  // process: it, its class, a fixture it requests or an autouse fixture of its file leads to a
  // function of the file or its helper modules that names a way to start one.
  bool test_starts(uint32_t node, std::string_view test);
  // The functions of the test file's own code and its helper modules that lead to a way to start a
  // process, by name; false when the file must be kept whole (module-level code that names one, a
  // conftest.py, forking code).
  bool starting_names(uint32_t node, util::StringSet& names);

  bool starter(uint32_t node) const { return m_unknown || (node < m_starter.size() && m_starter[node]); }

  const ImportGraph* m_graph;
  TestCode m_tests;
  std::vector<bool> m_starter; // per graph node: test code that names a way to start a process
  std::vector<bool> m_loads_fork; // per graph node: loads project code that forks (empty: none does)
  bool m_any = false;
  bool m_unknown = false; // no facts to read
  std::unordered_map<uint32_t, bool> m_starts;
  const ProjectFacts* m_facts = nullptr;
  // Per test file asked about: starting_names() (none: kept whole), and the file's facts, decoded once.
  struct Starting {
    std::optional<util::StringSet> names;
    FactsView view;
  };
  std::unordered_map<uint32_t, Starting> m_names;
  std::vector<bool> m_seen; // scratch of starts()
};

} // namespace impact::decision
