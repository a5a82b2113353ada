#pragma once
// `impact doctor` (docs/doctor.md): checks that the project is set up the way impact's selection and
// coverage index assume, each check a line saying ok, warn or fail, what it found and the fix.
#include "impact/changes.hpp"
#include "impact/config.hpp"
#include "impact/decision.hpp"
#include "impact/project.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {
class ImportGraph;
class ProjectFacts;
} // namespace impact

namespace impact::app {

enum class CheckStatus { ok, warn, fail };

std::string_view to_string(CheckStatus status); // "ok", "warn", "fail" (docs/json.md: never renamed)

// One check's verdict. `id` is stable (docs/json.md); `items` lists what it found for people (the
// text output caps it); `lists` are the whole lists a program reads, by name (JSON only).
struct Check {
  std::string id;
  CheckStatus status = CheckStatus::ok;
  std::string what;
  std::string fix; // "" when there is nothing to fix
  std::vector<std::string> items;
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
};

// The test node ids that one side knows and the other does not, each sorted, parameters removed.
struct IdDifference {
  std::vector<std::string> only_impact; // impact enumerates them, pytest does not collect them
  std::vector<std::string> only_pytest; // pytest collects them, impact does not know them
};

// A pytest node id without its parameters: "t.py::test_a[1-2]" -> "t.py::test_a".
std::string without_parameters(std::string_view id);

// Compares impact's static enumeration of tests with the ids pytest collected (parametrized ids are
// one test). Pure.
IdDifference compare_test_ids(const std::vector<std::string>& impact, const std::vector<std::string>& pytest);

// "tests/test_a.py (3)" per file of `ids`, in path order: the differences grouped for people.
std::vector<std::string> counts_by_file(const std::vector<std::string>& ids);

// The first `cap` of `items`, then "and N more" when some were left out.
std::vector<std::string> capped(const std::vector<std::string>& items, size_t cap);

// What the probe session (pytest --collect-only with impact's doctor plugin) reported.
struct ProbeReport {
  std::vector<std::string> items;          // collected node ids, deselected ones included
  std::vector<std::string> collect_errors; // node ids of files that failed to collect
  std::string executable;                  // sys.executable
  std::optional<std::string> inipath;      // the configuration file pytest read, absolute
  std::string rootpath;                    // pytest's rootdir, absolute
  std::vector<std::pair<std::string, std::optional<std::string>>> origins; // package -> file it imports from
  bool pytest_cov = false;                 // pytest_cov can be imported
  std::string pytest_cov_error;            // why not
  int exit_code = 0;
};

// The project as impact reads it for the checks: the layout, the graph and the facts, from the
// state under test.
struct DoctorProject {
  ChangeSet changes;
  std::vector<SourceFile> inventory;
  const ProjectFacts* facts = nullptr;
  const ProjectLayout* layout = nullptr;
  const ImportGraph* graph = nullptr;
  std::vector<TextDoctest> text_doctests; // text files pytest collects for their examples
};

// The top-level packages and modules of the project's code (not tests, conftest.py or setup.py), by
// the names the import graph gives them.
std::vector<std::string> top_level_packages(const ImportGraph& graph);

// The suite as impact enumerates it statically: every test item of every test file, and the files
// whose items it does not name because a selection runs them whole (modules collected for their
// doctests, text doctests).
struct StaticSuite {
  std::vector<std::string> ids;
  std::vector<std::string> whole_files; // sorted
};
StaticSuite static_suite(const DoctorProject& project);

// Runs pytest --collect-only once with the doctor's plugin; nullopt and `problem` when it reported
// nothing.
std::optional<ProbeReport> run_probe(const std::vector<std::string>& pytest_argv, const std::filesystem::path& root,
                                     const std::vector<std::string>& packages,
                                     const std::vector<std::string>& passthrough, const EnvLookup& env,
                                     std::string& problem);

// The checks, one file each (doctor_*.cpp).
Check imports_check(const ProbeReport& probe, const std::filesystem::path& root, const ImportGraph& graph);
Check collection_check(const ProbeReport& probe, const StaticSuite& suite, const std::string& rootdir);
Check pytest_cov_check(const ProbeReport& probe);
Check config_location_check(const ProbeReport& probe, const std::filesystem::path& root, const PytestConfig& pytest);
Check index_check(const std::filesystem::path& index_path, const ImportGraph& graph);
Check non_python_check(Repository& repo, const DoctorProject& project, const ImpactConfig& config,
                       const PytestConfig& pytest, const EnvLookup& env);

// The report, for people and as a JSON document (docs/json.md, impact.doctor).
std::string render_doctor_text(const std::vector<Check>& checks);
std::string render_doctor_json(const std::vector<Check>& checks);

} // namespace impact::app
