#pragma once
// What a changed file that is not Python does to the decision (docs/selection.md, rules
// `config-files`, `config-sections`, `dependency-pins`, `quiet-files`, `file-readers`, `non-python`):
// run everything, nothing, or the tests of the code that reads it.
#include "decision/rules/dependency_pins.hpp"
#include "impact/vocabulary.hpp"
#include "impact/decision.hpp"
#include "impact/environment.hpp"
#include "impact/python/project_facts.hpp"

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <string>
#include <vector>

namespace impact::decision {

// A Python file that reads a changed non-Python file, and how: the seed of a file-level walk.
struct Reader {
  uint32_t node = 0;    // the reader's graph node
  Relation relation = Relation::reads_file; // reads_file, lists_folder, imports_distribution
  uint32_t line = 0;
  std::vector<Hop> via; // the files between the reader and the changed file: each names the next (names_file)
};

struct NonPythonEffect {
  enum class What { run_all, quiet, readers };
  What what = What::run_all;
  Reason reason = Reason::none; // run_all: config_changed or non_python_changed
  std::string detail; // run_all: for people
  FileKind kind = FileKind::non_python; // the file's kind in the decision: config, documentation, tooling, lint, pins, non_python
  std::string effect; // quiet: why it selects nothing
  std::vector<Reader> readers;
  std::vector<std::string> warnings;
};

// A reader to start from, and the hops that end its chains: the files that name the changed file, if
// any, then the changed file it reads.
struct ReaderSeed {
  Reader reader;
  std::vector<Hop> tail;
};

// Every file the readers reach (a reader itself included), with its chain: from the file through the
// reader to the changed file it reads. A walk of its own, so that a file the Python changes also
// reach still counts as reached from a reader.
std::vector<std::pair<uint32_t, std::vector<Hop>>> reached_from_readers(const ImportGraph& graph,
                                                                        const std::vector<ReaderSeed>& seeds);

// What a changed file whose sides are not both Python does to the decision.
struct NonPythonVerdict {
  FileKind kind = FileKind::non_python; // the verdict's kind
  std::string effect; // the verdict's effect line
  std::optional<std::pair<Reason, std::string>> trigger; // run_all: reason and detail
  std::vector<ReaderSeed> readers; // whose test files run whole
  std::vector<std::string> warnings;
  bool quiet = false; // it selects nothing (rules quiet-files, config-sections)
};

class NonPythonRules {
public:
  explicit NonPythonRules(const DecisionInput& in);
  ~NonPythonRules();
  NonPythonRules(const NonPythonRules&) = delete;
  NonPythonRules& operator=(const NonPythonRules&) = delete;

  NonPythonEffect effect(const RepoPath& path, FileStatus status);
  // The installed environment moved since the coverage index recorded it (rule `environment-drift`,
  // decision/rules/environment_drift.cpp): the importers of what moved, or everything.
  NonPythonVerdict drift(const std::vector<MovedDistribution>& moved);
  // Both sides of one change (`mixed`: one of them is a Python module, so the file became or stopped
  // being one: its importers see a module come or go, and everything runs).
  NonPythonVerdict judge(const std::vector<const RepoPath*>& sides, bool mixed, const RepoPath& path,
                         FileStatus status);

  // The three below, appended to `out`.
  void python_readers(const RepoPath& path, FileStatus status, std::vector<ReaderSeed>& out);

  // The code that may read the changed Python file `path` as text (rule `source-readers`): seeds whose
  // test files run whole, whatever the change (a comment too).
  std::vector<ReaderSeed> source_readers(const RepoPath& path, FileStatus status);

  // The code that execs a text file importing the changed Python file `path` (rule `executed-text`):
  // seeds whose test files run whole.
  std::vector<ReaderSeed> executed_text_readers(const RepoPath& path, FileStatus status);

  // The code that reads a template whose fields name a method or property changed in `path` (rule
  // `data-templates`): seeds whose test files run whole.
  std::vector<ReaderSeed> template_readers(const RepoPath& path, FileStatus status);

private:
  struct Tables;
  const DecisionInput& m_in;
  std::unique_ptr<Tables> m_tables; // what every file's facts say, read on first use
  Tables& tables();
  const std::string& collect_hook();
  const ProjectFacts* facts() const; // the decision's, or, at file level, the ones read for these rules
  NonPythonEffect config_file(const RepoPath& path);
  NonPythonEffect config_sections(const RepoPath& path);
  std::vector<Reader> text_readers(const RepoPath& path);
  NonPythonEffect pin_file(const RepoPath& path, const PinChange* change);
  NonPythonEffect importers(const RepoPath& path, PinAnswer answer, bool unimported_runs_all);
  NonPythonEffect quiet_file(const RepoPath& path, FileStatus status);
  NonPythonEffect data_file(const RepoPath& path);
  std::optional<std::string> unbounded_reason(const RepoPath& path, FileKind kind);
  bool any_import(bool (*wanted)(const ImportView&, const ImportScratch&));
  bool imports_django();
  bool reads_metadata();
};

} // namespace impact::decision
