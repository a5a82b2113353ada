#pragma once
#ifdef IMPACT_FORBID_ENVIRONMENT // defined for the stages that may not use environment (src/CMakeLists.txt)
#error "this stage may not use environment (docs/architecture.md)"
#endif
// The installed environment pytest runs in: which distributions are installed, the top-level modules
// each provides, what each requires, and which are pytest plugins. Read only when a dependency pin
// changed (docs/selection.md, `dependency-pins`): a pin names distributions, code imports modules.
#include "impact/vocabulary.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace impact {

struct Distribution {
  std::string name;                      // normalized (PEP 503)
  std::string version;
  std::vector<std::string> import_names; // top-level modules and packages it installs
  std::vector<std::string> requirements;       // normalized names of what it always requires
  std::vector<std::string> extra_requirements; // what its optional features (extras) require, but not
                                               // its development extras (docs, tests, lint: see
                                               // development_extra())
  bool pytest_plugin = false;            // it registers a pytest11 entry point
};

// True for an extra that serves work on the distribution itself rather than a feature of its code:
// `test`, `testing`, `dev`, `docs`, `lint`, `typing` and the like (a `tests-*` or `docs_*` prefix too).
// Installed code does not import its own test or documentation tools, so their requirements are not
// the distribution's dependencies.
bool development_extra(std::string_view extra);

struct Environment {
  std::vector<std::filesystem::path> site_dirs; // where it was read
  std::map<std::string, Distribution> distributions; // by normalized name
};

// Reads every *.dist-info and *.egg-info of `site_dirs` (a folder or file that cannot be read is
// skipped: the distribution is then unknown, which the caller treats as uncertain).
Environment read_environment(const std::vector<std::filesystem::path>& site_dirs);

// The folders of `interpreter`'s sys.path that hold installed distributions, by asking it; nullopt when
// it cannot be run.
std::optional<std::vector<std::filesystem::path>> site_dirs_of(const std::string& interpreter,
                                                               const std::filesystem::path& cwd);

// The Python interpreter behind a pytest argv: argv[0] itself when it is a python, else the
// interpreter its #! line names (a `pytest` console script). nullopt when neither can be told.
std::optional<std::string> interpreter_of(const std::vector<std::string>& pytest_argv);

// Reads the environment of `interpreter` as read_environment(site_dirs_of(...)) does, and keeps it in
// `cache_file`: a later call reuses it while the interpreter, PYTHONPATH and the modification time of
// every folder it was read from are unchanged (an install, upgrade or removal changes the folder that
// holds the *.dist-info). nullopt when the interpreter cannot be asked.
std::optional<Environment> read_environment_cached(const std::string& interpreter, const std::filesystem::path& cwd,
                                                   const std::filesystem::path& cache_file, const std::string& pythonpath);

// Every installed distribution's version, by normalized name: what a coverage index records.
std::map<std::string, std::string> versions_of(const Environment& env);

// The distributions installed, removed or of another version in `now` than in `recorded`, by name.
std::vector<MovedDistribution> environment_drift(const std::map<std::string, std::string>& recorded,
                                                 const std::map<std::string, std::string>& now);

} // namespace impact
