#pragma once
#ifdef IMPACT_FORBID_DECISION // defined for the stages that may not use decision (src/CMakeLists.txt)
#error "this stage may not use decision (docs/architecture.md, allowed edges)"
#endif
// Stage 5, the decision: from the change set and the graph to one of three outcomes, each selected
// test carrying the chain of evidence that reached it. Pure: no I/O, no git, no pytest.
#include "impact/changes.hpp"
#include "impact/coverage.hpp"
#include "impact/pins.hpp"
#include "impact/semantic.hpp"

#include <string>
#include <vector>

namespace impact {

struct Environment;
class ImportGraph;
class ProjectFacts;
class ProjectLayout;

enum class Outcome { selected, run_all, nothing };

std::string_view to_string(Outcome outcome);

// One link of an evidence chain: `path` reaches the next hop through `relation` (on `line`, when
// written in the source). The last hop of a chain is the changed file, with relation "changed".
struct Hop {
  std::string path;
  std::string relation;
  uint32_t line = 0;
  std::string symbol; // the function, method or class of `path` the hop is about, when known

  bool operator==(const Hop&) const = default;
};

// A test to run: a pytest node id (a file, or file::Class::test) and why.
struct SelectedTest {
  std::string node_id;
  std::vector<Hop> chain; // from the test to a changed file
  std::string note;       // e.g. "may load the change through a dynamic import at src/app/plugins.py:12"
};

// What the decision made of one changed file.
struct FileVerdict {
  RepoPath path;
  RepoPath old_path; // for renames
  FileStatus status = FileStatus::modified;
  std::string kind;   // python, test, conftest, config, non_python, submodule, ignored
  std::string effect; // one line for people: "reaches 3 test file(s)", "run_all: config_changed"
  long tests = -1;    // selected tests it leads to; -1 when not counted
  std::string change; // the semantic diff's kind for the file (Python files), "" otherwise
  std::vector<SymbolChange> symbols; // the changed symbols (Python files)
  std::string source;   // where its tests came from: "coverage", "static", or "" (not a Python file)
  std::string fallback; // when the coverage index was not used for it: why ("drift", "not_indexed", ...)
  // With source "coverage": the base function bodies whose coverage answered (a test the index left
  // out ran none of their lines: `impact explain` says so).
  std::vector<LineSpan> covered_bodies;
};

// Something the analysis could not vouch for, and what it did about it.
struct Uncertainty {
  std::string path;
  uint32_t line = 0;
  std::string what;
};

struct Decision {
  Outcome outcome = Outcome::nothing;
  std::string reason; // stable snake_case: why run_all, or why nothing
  std::string detail; // for people: "pyproject.toml changed"
  std::vector<SelectedTest> selected; // sorted by node id
  // The file-level bound: every test file the changed files reach through imports, conftest.py files
  // and plugins, with the chain (what `--file-level` would select). Symbol-level selection is a subset.
  std::vector<SelectedTest> file_level;
  std::vector<FileVerdict> files;
  std::vector<Uncertainty> uncertainties;
  std::vector<std::string> warnings;
  Mode mode_requested = Mode::balanced;
  Mode mode_effective = Mode::balanced;
};

// What decide() needs. Without facts, layout and semantics the decision is made at file level.
// A text file pytest collects for its >>> examples (--doctest-glob), with the modules they import.
struct TextDoctest {
  RepoPath path;
  std::vector<std::pair<std::string, uint32_t>> modules; // dotted name, line
};

// A changed Python file that CPython may not compile (docs/selection.md, syntax-error): every import
// of it fails, so it is analysed at file level, and a session that loads it fails to start.
struct SyntaxProblem {
  RepoPath path;
  std::string why; // "new side, line 3: print statement (Python 2)"
};

// A changed pyproject.toml, setup.cfg or tox.ini read by section (docs/selection.md, config-sections):
// the sections that differ, or nullopt when a side cannot be parsed.
struct ConfigSections {
  RepoPath path;
  std::optional<std::vector<std::string>> sections;
};

// What the rules for files that are not Python read besides the facts (docs/selection.md, rules
// config-sections, dependency-pins, quiet-files, file-readers).
struct NonPythonInput {
  std::vector<ConfigSections> sections;
  std::vector<PinChange> pins;            // changed pin files and dependency lists
  const Environment* environment = nullptr; // the installed environment, when a pin changed and it could be read
  std::vector<std::string> pytest_args;   // pytest's whole argv as PytestConfig::addopts has it
  std::vector<std::string> packaging_files; // [project] readme, license file, license-files patterns
  const ProjectFacts* facts = nullptr; // every Python file's facts, also at file level (readers are found in them)
};

struct DecisionInput {
  const ChangeSet& changes;
  const ImportGraph& graph;
  std::vector<std::string> ignore; // [tool.impact] ignore globs
  bool strict = false;
  Mode mode = Mode::balanced;
  const ProjectFacts* facts = nullptr;
  const ProjectLayout* layout = nullptr;
  const std::vector<FileSemantics>* semantics = nullptr; // one per changed Python file
  const CoverageInput* coverage = nullptr; // the coverage index's evidence, or nullptr without an index
  uint32_t max_depth = k_default_max_depth; // symbol hops before a file is analysed at file level
  double budget_ms = 0;     // time for the symbol walk before it falls back to file level (0: none)
  std::vector<TextDoctest> text_doctests{};
  std::vector<SyntaxProblem> syntax_problems{}; // read in every mode, --file-level included
  NonPythonInput non_python{};
};

Decision decide(const DecisionInput& input);

// The decision when there is no base to compare with (a CI push build): run_all, reason no_ci_base,
// `why` as the detail (decision/no_base.cpp).
Decision decide_without_base(std::string why, Mode mode);

// True for a file that is not Python whose rule reads every Python file's facts (docs/selection.md:
// quiet-files and file-readers, dependency-pins, config-sections): the caller loads the facts for it.
bool non_python_reads_facts(const RepoPath& path);

// True for files that configure the interpreter, the dependencies or pytest itself.
bool is_config_file(const RepoPath& path);

} // namespace impact
