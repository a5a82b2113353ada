#pragma once
// docs/selection.md `main-guard`: the body of a module-level `if __name__ == "__main__":` runs only
// where the module runs as a program, never on import. The test files that may run one: those whose
// test code may start a process (decision/processes.hpp), or names runpy, exec or a loader that
// names the module it makes (every test file when test code other than a test module does).
#include "decision/decide_parts.hpp"
#include "decision/walk.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"

#include <map>
#include <vector>

namespace impact::decision::rules {

// Selects, whole, each test file that may run a module as a program, for each of `changes` whose
// main-guard body changed (FileSemantics::runs_as_program; `files` holds their paths). Without facts,
// every test file may (`in.facts`). A program some conftest.py's or plugin's pytest_collect_file may collect as a
// test itself runs everything instead (`collect-hook`, into `triggers`).
void select_program_runners(const DecisionInput& in, const std::vector<const PythonChange*>& changes,
                            const std::vector<FileVerdict>& files, Selection& out, std::vector<Trigger>& triggers);

// Selects the same test files for each file of `reached` (a file whose module-level code the symbol
// walk reached, with the chain that reached it) that no test file loads (`files`, the reverse walk
// seeded with them, reaches no test from it): `pkg/__main__.py` calling a changed function runs only
// as a program.
// `loaded`: `reached` are files whose main guard reaches a changed symbol (SymbolResult::programs),
// whose import runs none of it: selected whether or not a test file loads them.
void select_reached_programs(const DecisionInput& in, const std::map<uint32_t, std::vector<Hop>>& reached,
                             const ReverseWalk& files, Selection& out, std::vector<Trigger>& triggers, bool loaded = false);

// Whether test code may run a module with TYPE_CHECKING set (`type-checking`): a file of the project
// names TYPE_CHECKING and a way to set it or to run a module again (setattr, patch, reload, runpy,
// exec_module; in a test file or conftest.py also exec and import_module). True without `facts`.
bool tests_set_type_checking(const ImportGraph& graph, const ProjectFacts* facts);

// The test files that may run a module as a program (every test file without `facts`).
std::vector<uint32_t> program_runners(const ImportGraph& graph, const ProjectFacts* facts);

// The test files that load, directly or not, code that makes objects of classes its data names
// (unpickling, YAML's object tags, jsonpickle, logging's fileConfig, pydoc.locate, entry points); with
// `from_files`, only such code that also names a path or opens something (a pickle read from a data
// file, not the round trip `pickle.loads(pickle.dumps(x))` of an object the test made itself).
std::vector<uint32_t> data_loaders(const ImportGraph& graph, const ProjectFacts& facts, bool from_files = false);

// The same as a question, computed on the first: a test file with no import path from a change may
// still run its code when it loads data that names a class (docs/selection.md `dynamic-import-uncertain`).
class DataLoaders {
public:
  DataLoaders(const ImportGraph& graph, const ProjectFacts& facts) : m_graph(graph), m_facts(facts) {}
  bool holds(uint32_t node) {
    if (m_loaders.empty()) {
      m_loaders.assign(m_graph.nodes.size() + 1, 0); // one more: never empty once computed
      for (uint32_t n : data_loaders(m_graph, m_facts, true)) m_loaders[n] = 1;
    }
    return m_loaders[node] != 0;
  }

private:
  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  std::vector<char> m_loaders;
};

} // namespace impact::decision::rules
