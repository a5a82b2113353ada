#pragma once
#ifdef IMPACT_FORBID_PROJECT // defined for the stages that may not use project (src/CMakeLists.txt)
#error "this stage may not use project (docs/architecture.md, allowed edges)"
#endif
// The project model: the pytest configuration (found and read the way pytest does), and the layout
// derived from it and the file inventory: which files pytest collects, where imports are resolved from.
#include "impact/vocabulary.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace impact {

class ProjectFacts;
struct FileFacts;
struct SymbolView;

// Every place pytest reads its arguments from besides the ini file's addopts, in pytest's order.
struct PytestInvocation {
  std::string env_addopts;               // $PYTEST_ADDOPTS
  std::string env_plugins;               // $PYTEST_PLUGINS (comma-separated modules)
  std::vector<std::string> command_args; // the configured pytest command's own arguments, then those after `--`
};

// The options of pytest's ini file that decide collection and imports, with pytest's defaults, as
// the arguments pytest reads (-o, -c, --rootdir, ...) leave them.
struct PytestConfig {
  std::string inifile;    // repo-relative path of the file read (-c may name one outside); "" when there is none
  std::string rootdir;    // repo-relative; "" is the repository root (pytest's invocation folder)
  std::vector<std::string> testpaths;
  std::vector<std::string> python_files{"test_*.py", "*_test.py"};
  std::vector<std::string> python_classes{"Test"};
  std::vector<std::string> python_functions{"test"};
  std::vector<std::string> pythonpath;
  std::vector<std::string> norecursedirs{"*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}"};
  std::vector<std::string> addopts; // ini addopts, PYTEST_ADDOPTS, then the command line: pytest's whole argv
  std::vector<std::string> usefixtures; // the ini usefixtures option: fixtures every test uses
  // Read from addopts:
  bool doctest_modules = false;
  // --doctest-glob patterns: text files whose >>> examples pytest collects (its default is test*.txt).
  std::vector<std::string> doctest_globs{"test*.txt"};
  std::vector<std::string> plugins;        // -p NAME: modules loaded into every session
  std::vector<std::string> ignore_paths;   // --ignore=PATH (repo-relative)
  std::vector<std::string> ignore_globs;   // --ignore-glob=GLOB
  // Positional arguments (the file part of node ids, repo-relative): collected as testpaths are, a
  // file whatever its name. With --pyargs they may be module names instead.
  std::vector<std::string> arg_paths;
  bool pyargs = false;
  std::vector<std::string> unknown_options; // options pytest itself does not define (a plugin's)
  // Every value of the ini section, so that module names in settings (DJANGO_SETTINGS_MODULE = a.b)
  // become dependencies of every test.
  std::vector<std::string> values;
  // pytest11 entry points declared by the project: plugins loaded into every session.
  std::vector<std::string> entry_point_plugins;
};

// Finds pytest's configuration the way pytest 7 does when run from the repository root: the file
// -c names, else pytest.ini, .pytest.ini, pyproject.toml with [tool.pytest.ini_options], tox.ini with
// [pytest], setup.cfg with [tool:pytest], in that order, in the root; -o overrides its values; the
// rootdir is --rootdir, else the folder of the file -c names, else the root. Options and positional
// paths are read from the ini file's addopts, PYTEST_ADDOPTS and the command line, in that order.
// Throws impact::Error on a malformed file, naming it, on a file -c names that cannot be read, and on
// an -o without '=' (pytest stops on it too).
PytestConfig read_pytest_config(const std::filesystem::path& repo_root, const PytestInvocation& invocation);

// The same with only the environment: `env_addopts` is $PYTEST_ADDOPTS, `env_plugins` $PYTEST_PLUGINS.
PytestConfig read_pytest_config(const std::filesystem::path& repo_root, const std::string& env_addopts,
                                const std::string& env_plugins = "");

// The file pytest would read its configuration from in folder `dir` (root-relative, "" the root) and
// only there, in pytest's order (pytest.ini, .pytest.ini, pyproject.toml with [tool.pytest.ini_options],
// tox.ini with [pytest], setup.cfg with [tool:pytest]): its root-relative path, or "" when the folder
// has none. Throws impact::Error on a malformed file, naming it. (Monorepo discovery asks it of each
// folder it visits.)
std::string pytest_config_file(const std::filesystem::path& root, const std::string& dir);

// Node kinds of the layout, per Python file.
enum FileRole : uint8_t {
  k_role_module = 0,
  k_role_test = 1,     // pytest collects it in a full run and it has collectible items
  k_role_conftest = 2,
  k_role_test_pattern = 4, // matches python_files under the collection roots, collectible or not
};

// The layout of the project: collection roots, import roots and each Python file's role.
class ProjectLayout {
public:
  ProjectLayout(PytestConfig config, const std::vector<SourceFile>& inventory, const ProjectFacts& facts);

  const PytestConfig& config() const { return m_config; }
  // Directories that are on sys.path when tests run (repo-relative, "" is the root), most specific last.
  const std::vector<std::string>& import_roots() const { return m_roots; }
  // True when `dir` (repo-relative) holds an __init__.py.
  bool is_package_dir(std::string_view dir) const;
  // True when pytest would collect `path` in a full run (it may still hold no tests).
  bool matches_test_pattern(const RepoPath& path) const;
  // True when a full run reaches `path`'s folder: under a collection root, not excluded by
  // norecursedirs, --ignore or collect_ignore. (Where --doctest-modules looks for doctests.)
  bool is_collected_path(const RepoPath& path) const;
  // Files pytest would collect if they were on disk, left out by a sparse checkout (not_checked_out).
  std::vector<std::string> tests_not_checked_out() const;
  // True when `facts` define something pytest collects from a test module.
  bool has_collectible_items(const FileFacts& facts) const;
  bool is_test_name(std::string_view function_name) const;
  bool is_test_class_name(std::string_view class_name) const;
  // True when symbol `index` of a test module's `symbols` is a test pytest collects: a top-level
  // function named like a test, or a method named like one whose enclosing definitions are all classes
  // pytest collects (named like a test class without __init__, or with bases to inherit from: a
  // unittest.TestCase subclass collects test* methods whatever python_functions says). The caller
  // checks that the file is a test module.
  bool is_test_item(const std::vector<SymbolView>& symbols, int32_t index) const;
  // True when pytest may make the instances of class `index` of a test module's `symbols` itself: named
  // like a test class, or with a base (a unittest.TestCase subclass, a class it inherits tests from).
  // No code of the project need name such a class.
  bool may_collect_class(const std::vector<SymbolView>& symbols, int32_t index) const;

  // Everything the layout holds, as bytes: two layouts with the same fingerprint answer every question
  // above alike (the stored graph is keyed by it). A member added below goes into it too.
  std::string fingerprint() const;

private:
  void collection_roots(const std::set<std::string>& dirs, const std::vector<SourceFile>& inventory);
  void add_module_roots(std::string_view name, const std::set<std::string>& dirs,
                        const std::vector<SourceFile>& inventory);
  bool in_collection_root(std::string_view path) const;
  bool is_not_checked_out(std::string_view path) const;
  bool matches_name(const RepoPath& path) const; // python_files, or named in testpaths

  std::string_view root_of(std::string_view path) const; // the longest collection root holding `path`
  bool excluded_by_norecurse(std::string_view path) const;
  bool excluded_by_ignores(std::string_view path) const;

  PytestConfig m_config;
  std::vector<std::string> m_roots;
  std::vector<std::string> m_collection_roots; // repo-relative files or directories
  std::vector<std::string> m_package_dirs;     // sorted
  struct Ignore {
    std::string dir;
    std::vector<std::string> paths;
    std::vector<std::string> globs;
  };
  std::vector<Ignore> m_conftest_ignores;
  std::vector<std::string> m_venv_dirs;
  std::vector<std::string> m_not_checked_out; // sorted
};

bool is_conftest(const RepoPath& path);

// pytest's node id of the test `qualname` ("Class.test") defined in `path`: "path::Class::test".
std::string test_node_id(std::string_view path, std::string_view qualname);
// The inverse for the part of a node id after its file: "Class::test" -> "Class.test".
std::string dotted_qualname(std::string_view test_part);

} // namespace impact
