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

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

struct Environment;
class ImportGraph;
class ProjectFacts;
class ProjectLayout;

enum class Outcome { selected, run_all, nothing };

std::string_view to_string(Outcome outcome);

// How one hop of an evidence chain reaches the next (docs/symbols.md, Evidence). Each value, with its
// word and the docs/selection.md rules it serves, is declared once, in impact/relations.def.
enum class Relation : uint8_t {
#define IMPACT_RELATION(value, word, rules) value,
#include "impact/relations.def"
#undef IMPACT_RELATION
};

// The word text and JSON write for a relation (docs/json.md: never renamed).
std::string_view to_string(Relation relation);
// The relation a word names, or nullopt: reading a saved decision back.
std::optional<Relation> relation_named(std::string_view word);
// The docs/selection.md rule ids (or `<doc>.md#<heading>`) the relation serves, separated by spaces.
std::string_view rules_of(Relation relation);
// Every relation, in the order of impact/relations.def.
const std::vector<Relation>& all_relations();

// One link of an evidence chain: `path` reaches the next hop through `relation` (on `line`, when
// written in the source). The last hop of a chain is the changed file, with the change as relation.
struct Hop {
  std::string path;
  Relation relation = Relation::modified;
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

// What a changed file is to the decision (docs/json.md, `files[].kind`).
enum class FileKind : uint8_t {
  python,        // a Python module that is neither a test file nor a conftest.py
  test,          // a test file pytest collects
  conftest,      // a conftest.py
  config,        // a file that configures pytest, the interpreter or the dependencies (rules config-files, config-sections)
  non_python,    // any other file that is not Python (rule non-python)
  submodule,     // a submodule's commit
  mode,          // a Python file whose executable bit changed (rule mode-change)
  ignored,       // matched by [tool.impact] ignore
  documentation, // prose and project metadata (rule quiet-files)
  tooling,       // editor, version control and CI configuration (rule quiet-files)
  lint,          // lint and type-check configuration (rule quiet-files)
  pins,          // a requirements file or lockfile read by distribution (rule dependency-pins); keep last (read_report)
};

std::string_view to_string(FileKind kind);

// Where a changed Python file's tests came from (docs/json.md, `files[].source`).
enum class TestSource : uint8_t {
  none,     // not a Python file the analysis followed (null in JSON)
  coverage, // the coverage index vouched for the change
  static_,  // the static analysis ("static")
};

std::string_view to_string(TestSource source); // "" for none

// Why the whole suite runs, or why nothing does (docs/selection.md, Reasons): stable snake_case words.
enum class Reason : uint8_t {
  none,                        // the outcome is selected: no reason (null in JSON)
  config_changed,              // a configuration file changed (rules config-files, config-sections, dependency-pins)
  non_python_changed,          // a file that is not Python changed (rule non-python)
  submodule_changed,           // a submodule's commit changed
  mode_changed,                // a Python file's executable bit changed (rule mode-change)
  uncertain_dynamic_import,    // --strict, and a computed import could load the change
  no_ci_base,                  // a CI build with no base to compare with
  syntax_error,                // a changed file that may not compile is loaded by every session (rule syntax-error)
  import_only_test_files,      // the change reaches only collected files that define no tests
  triggered,                   // a [tool.impact] triggers rule with run = "all" matched a changed file (rule triggers)
  environment_changed,         // the installed environment moved since the coverage index recorded it (rule environment-drift)
  unconnected_change,          // --changed-strict, and no test file can load a changed file (rule changed-strict)
  collect_hook,                // the change reaches a pytest_collect_file hook, whose items impact cannot list (rule collect-hook)
  unaddressable_path,          // a selected test's file path holds a '[', which pytest's arguments cannot spell (rule test-node-ids)
  no_changes,                  // nothing: no file changed
  no_tests_reached,            // nothing: no test file can load the changed files
  only_quiet_files,            // nothing: every changed file is one nothing reads (rules quiet-files, config-sections)
  only_ignored_files,          // nothing: every changed file matches [tool.impact] ignore
  only_comments_or_formatting, // nothing: only comments or layout changed (not in safe mode); keep last (all_reasons)
};

std::string_view to_string(Reason reason); // "" for none
// Every reason but none, in declaration order: reading a saved decision back.
const std::vector<Reason>& all_reasons();

// What the decision made of one changed file.
struct FileVerdict {
  RepoPath path;
  RepoPath old_path; // for renames
  FileStatus status = FileStatus::modified;
  FileKind kind = FileKind::python;
  std::string effect; // one line for people: "reaches 3 test file(s)", "run_all: config_changed"
  long tests = -1;    // selected tests it leads to; -1 when not counted
  std::string change; // the semantic diff's kind for the file (Python files), "" otherwise
  std::vector<SymbolChange> symbols; // the changed symbols (Python files)
  TestSource source = TestSource::none; // where its tests came from
  CoverageFallback fallback = CoverageFallback::none; // when the coverage index was not used for it: why
  // With source coverage: the base function bodies whose coverage answered (a test the index left
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
  Reason reason = Reason::none; // why run_all, or why nothing
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
  std::vector<std::string> names; // every word its examples spell, sorted (python::doctest_names)
  bool dynamic = false;           // they may reach code by a name they do not spell
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
  std::vector<std::string> runs_no_tests; // of those, tox environments that start no test run
};

// A non-Python file of the state under test whose text names another file (a template that extends
// or includes it, a manifest that lists it): docs/selection.md, data-files.
struct FileMention {
  RepoPath path;  // the file whose text holds the name
  RepoPath names; // the file it names: a changed data file, or another file that names one
  uint32_t line = 0;
};

// What the rules for files that are not Python read besides the facts (docs/selection.md, rules
// config-sections, dependency-pins, quiet-files, file-readers, data-files).
// A text file that is not Python, named by a string of a Python file that runs code it is given (exec,
// eval): the file's import statements may run in that file (docs/selection.md, `executed-text`).
struct ExecutedText {
  RepoPath reader;      // the Python file with the string and the exec
  uint32_t line = 0;    // the string's first line
  RepoPath text;        // the file it names
  std::vector<std::pair<std::string, uint32_t>> modules; // what the text imports (dotted name, line)
};

// A template file that is not Python whose field reads an attribute a changed method or property has
// the name of (`{user.display_name}`, `{{ user.full }}`): docs/selection.md, `data-templates`.
struct TemplateRead {
  RepoPath text;    // the template
  uint32_t line = 0; // the field's line
  RepoPath changed; // the changed Python file that defines a symbol of that name
  std::string name; // the attribute's name
};

struct NonPythonInput {
  std::vector<ConfigSections> sections;
  std::vector<PinChange> pins;            // changed pin files and dependency lists
  const Environment* environment = nullptr; // the installed environment, when a pin changed and it could be read
  std::vector<std::string> pytest_args;   // pytest's whole argv as PytestConfig::addopts has it
  std::vector<std::string> packaging_files; // [project] readme, license file, license-files patterns
  const ProjectFacts* facts = nullptr; // every Python file's facts, also at file level (readers are found in them)
  // For the changed data files: the files that name them, and the files that name those, and so on.
  std::vector<FileMention> mentions;
  std::string mentions_unknown; // why the files could not all be searched ("" when they were): no data file is bounded
  std::vector<ExecutedText> executed; // text files that code which execs may run, with imports
  std::vector<TemplateRead> template_reads; // templates whose fields name a changed method or property
};

struct DecisionInput {
  const ChangeSet& changes;
  const ImportGraph& graph;
  std::vector<std::string> ignore; // [tool.impact] ignore globs
  bool strict = false;
  Mode mode = Mode::balanced;
  bool changed_strict = false; // --changed-strict: a changed file no test file can load runs everything
  const ProjectFacts* facts = nullptr;
  const ProjectLayout* layout = nullptr;
  const std::vector<FileSemantics>* semantics = nullptr; // one per changed Python file
  const CoverageInput* coverage = nullptr; // the coverage index's evidence, or nullptr without an index
  uint32_t max_depth = k_default_max_depth; // symbol hops before a file is analysed at file level
  double budget_ms = 0;     // time for the symbol walk before it falls back to file level (0: none)
  std::vector<TextDoctest> text_doctests{};
  std::vector<SyntaxProblem> syntax_problems{}; // read in every mode, --file-level included
  NonPythonInput non_python{};
  std::vector<std::string> always_run{}; // [tool.impact] always-run: node ids, test files, globs
  std::vector<std::string> last_failed{}; // --include-failed: the node ids pytest's last run failed
  std::vector<TriggerRule> triggers{};   // [tool.impact] triggers
  // What moved in the installed environment since the coverage index recorded it; the environment now
  // is non_python.environment.
  std::vector<MovedDistribution> environment_drift{};
};

Decision decide(const DecisionInput& input);

// The decision when there is no base to compare with (a CI push build): run_all, reason no_ci_base,
// `why` as the detail (decision/no_base.cpp).
Decision decide_without_base(std::string why, Mode mode);

// True for a file that is not Python whose rule reads every Python file's facts (docs/selection.md:
// quiet-files and file-readers, data-files, dependency-pins, config-sections): the caller loads the
// facts for it.
bool non_python_reads_facts(const RepoPath& path);

// True for a data file (docs/selection.md, data-files): not Python, configuration, a pin file or a
// quiet file. Its readers may bound it, and the files that name it are searched for it.
bool is_data_file(const RepoPath& path);

// True for files that configure the interpreter, the dependencies or pytest itself.
bool is_config_file(const RepoPath& path);

} // namespace impact
