#pragma once
#ifdef IMPACT_FORBID_MONOREPO // defined for the stages that may not use monorepo (src/CMakeLists.txt)
#error "this stage may not use monorepo (docs/architecture.md, allowed edges)"
#endif
// Monorepo mode (docs/monorepo.md): the pytest projects of one repository whose root has no pytest
// configuration of its own, found by their configuration files; the edges between them; and a view of
// the repository that shows one project as if it were the whole repository, so that each is analysed
// as pytest run inside its folder would see it.
#include "impact/changes.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact::monorepo {

// How deep discovery looks below the root: a project nested deeper is found only through a
// `projects` glob of [tool.impact].
constexpr int k_discovery_depth = 5;
// How deep a `projects` glob may reach.
constexpr int k_pinned_depth = 32;

// One pytest project of a monorepo: a folder, the file that makes it one, and how it came into the set.
struct Project {
  std::string dir;      // root-relative folder, never "" (the root is not a project in monorepo mode)
  std::string config;   // root-relative file pytest reads there ("libs/a/pyproject.toml")
  std::string found_by; // "discovered", "projects in pyproject.toml", "--project", "-C"
};

// The folders under `root`, at most `max_depth` levels down, that hold a pytest configuration
// (project.hpp, pytest_config_file), sorted by folder. A project owns its subtree: nothing below a
// project is looked at. Hidden folders, virtualenvs (a pyvenv.cfg or conda-meta inside), node_modules,
// site-packages and __pycache__ are pruned, and symbolic links are not followed. Throws
// impact::Error on a malformed configuration file, naming it.
// With `loose_test`, also sets it to the first file (root-relative; "" when none) that pytest run at
// the root collects by default (`test_*.py`, `*_test.py`) in a folder the walk entered, one no
// project owns: such a file makes the root a project of its own (docs/monorepo.md), as in a library
// that keeps its tests at the root and has a benchmarks folder with a pytest.ini of its own.
std::vector<Project> discover_projects(const std::filesystem::path& root, int max_depth = k_discovery_depth,
                                       std::string* loose_test = nullptr);

// True when discovery does not enter `dir` (a folder on disk).
bool is_pruned(const std::filesystem::path& dir);

// The projects whose folder matches one of `globs` (Python's glob.glob on root-relative paths; a
// trailing '/' is dropped), found up to k_pinned_depth levels down, each `found_by` `source`. A glob
// that matches no project adds a warning to `warnings`.
std::vector<Project> pinned_projects(const std::filesystem::path& root, const std::vector<std::string>& globs,
                                     const std::string& source, std::vector<std::string>& warnings);

// The project whose folder holds root-relative `path` (or is it), or nullptr.
const Project* owner_of(const std::vector<Project>& projects, std::string_view path);

// The projects named by `paths` (root-relative folders, as --project gives them), in `projects`' order,
// each `found_by` `source`. Throws impact::Error naming a path that is not one of `projects`' folders,
// with the fix.
std::vector<Project> restrict_to(const std::vector<Project>& projects, const std::vector<std::string>& paths,
                                 const std::string& source);

// The project's folder as one word for file names: "libs/core" gives "libs-core".
std::string slug(std::string_view dir);

} // namespace impact::monorepo

namespace impact::monorepo {

// The repository's change set, taken once at the root, and its inventory, listed on first use: what
// every ProjectView of one run shares, so that 40 projects cost one diff and one listing.
struct RootSnapshot {
  ChangeSet changes;
  std::optional<std::vector<SourceFile>> inventory;
};

// A Repository that shows folder `prefix` of `parent` as if it were the whole repository: root() is
// the folder, every path is relative to it, and only the changed files and the files under it are
// seen (a file renamed across its edge is deleted on one side, added on the other). With `prefix` ""
// it is the root, less the folders of `excluded` (the projects): what a change outside every project
// is judged on. changes() returns the snapshot's change set, whatever the request (the root took it
// with the same request). Every other question goes to `parent`, which must outlive the view; the
// view is used from one thread at a time, as the parent is (read_current aside, as Repository says).
class ProjectView : public Repository {
public:
  ProjectView(Repository& parent, std::string prefix, std::shared_ptr<RootSnapshot> snapshot,
              std::vector<std::string> excluded = {});

  const std::filesystem::path& root() const override { return m_root; }
  ChangeSet changes(const ChangeRequest& request) override;
  std::vector<SourceFile> inventory(const ChangeSet& changes) override;
  FileRead read_current(const SourceFile& file) override;
  FileRead read_base(const ChangeSet& changes, const RepoPath& path) override;
  std::string head_commit() override { return m_parent.head_commit(); }
  bool has_revision(const std::string& rev) override { return m_parent.has_revision(rev); }
  Ancestry ancestry(const std::string& commit) override { return m_parent.ancestry(commit); }
  bool is_shallow() override { return m_parent.is_shallow(); }

  // Root-relative `path` as this view names it, or nullopt when the view does not see it.
  std::optional<std::string> inside(std::string_view path) const;
  // The root-relative path of the view's `path`.
  std::string outside(std::string_view path) const;

private:
  Repository& m_parent;
  std::string m_prefix; // "" or "libs/a"
  std::vector<std::string> m_excluded;
  std::shared_ptr<RootSnapshot> m_snapshot;
  std::filesystem::path m_root;
};

} // namespace impact::monorepo

namespace impact::monorepo {

// Why one project depends on another: a declaration, or an import impact's graph sees.
struct Edge {
  std::string from; // the dependent project's folder
  std::string to;   // the folder of the project it depends on
  bool declared = false;
  std::string why; // "libs-a in [project] dependencies of libs/b/pyproject.toml", "imports a (libs/b/x.py)"
};

// The edges the projects' pyproject.toml files declare: a dependency (any list: [project]
// dependencies, optional dependencies, [dependency-groups], Poetry's) naming another project's
// distribution, or a path dependency into another project's folder; the same in setup.cfg's
// requirement lists and in pip requirements files (requirements*.txt, requirements/*.txt: a name, or
// a path as `-e ../a`, `../a`, `file:../a`). Throws impact::Error on a malformed pyproject.toml or
// setup.cfg, or an unreadable requirements file, naming it.
std::vector<Edge> declared_edges(const std::filesystem::path& root, const std::vector<Project>& projects);

// One Python file's absolute imports, by their first component, root-relative.
struct FileImports {
  std::string path;
  std::vector<std::string> top_names;
};

// The top-level module names a project's Python files provide: each file's first folder (or module)
// under the project, and under its src/ (or lib/, python/) folder the next one.
std::vector<std::string> provided_names(const std::string& project_dir, const std::vector<std::string>& python_files);

// The edges impact sees in imports: a file of project Q imports a top-level name that project P
// provides and Q does not. One edge per pair of projects, naming one such import.
std::vector<Edge> import_edges(const std::vector<Project>& projects, const std::vector<FileImports>& files);

// The projects that depend on one of `changed` (folders), through `edges`, transitively, each with the
// chain that reaches it ("libs/c -> libs/b -> libs/a"), sorted by project; a changed project is in it
// only when another changed project reaches it.
std::vector<std::pair<std::string, std::string>> dependents(const std::vector<Edge>& edges,
                                                            const std::vector<std::string>& changed);

} // namespace impact::monorepo

namespace impact::monorepo {

// The exit code of a monorepo run from the codes of the projects that ran (docs/monorepo.md,
// "Exit codes"), worst first: pytest's internal error (3); a usage error (4); impact's own error or a
// program that could not start (2, 126, 127: 2); interrupted or killed (pytest's 2, 128 + signal: 2);
// failures (1; any other code counts as a failure); 5 only when every project says "no tests
// collected"; else 0 (none ran, or all passed).
int merge_exit_codes(const std::vector<int>& codes);

} // namespace impact::monorepo
