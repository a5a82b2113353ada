// Quiet files (documentation, tooling, lint configuration) and whether a literal could name a file.
#include "decision/rules/file_readers.hpp"

#include <catch2/catch.hpp>

using namespace impact;

namespace {
std::optional<QuietKind> kind_of(const char* path) { return quiet_kind(RepoPath(path)); }
} // namespace

TEST_CASE("quiet files: documentation at the root and under docs/") {
  CHECK(kind_of("CHANGES.rst") == QuietKind::documentation);
  CHECK(kind_of("README.md") == QuietKind::documentation);
  CHECK(kind_of("LICENSE") == QuietKind::documentation);
  CHECK(kind_of("docs/index.rst") == QuietKind::documentation);
  CHECK(kind_of("docs/_static/logo.png") == QuietKind::documentation);
  CHECK(kind_of("changelog.d/123.bugfix.md") == QuietKind::documentation);
  // Not documentation: a README inside the package (package data), data at the root, a README with a
  // data extension.
  CHECK_FALSE(kind_of("src/pkg/README.md"));
  CHECK_FALSE(kind_of("words.txt"));
  CHECK_FALSE(kind_of("README.json"));
  CHECK_FALSE(kind_of("tests/data/CHANGES.rst"));
}

TEST_CASE("quiet files: tooling and lint configuration") {
  CHECK(kind_of(".pre-commit-config.yaml") == QuietKind::tooling);
  CHECK(kind_of(".github/workflows/test.yml") == QuietKind::tooling);
  CHECK(kind_of("src/.gitignore") == QuietKind::tooling);
  CHECK(kind_of(".flake8") == QuietKind::lint);
  CHECK(kind_of("mypy.ini") == QuietKind::lint);
  CHECK_FALSE(kind_of(".coveragerc")); // pytest-cov reads it: fail_under changes the exit code
  CHECK_FALSE(kind_of("tests/data/config.yml"));
  CHECK_FALSE(kind_of(".github")); // a file named like the folder, at the root
}

TEST_CASE("quiet files: what test, coverage and packaging tools write when they run") {
  CHECK(kind_of(".coverage") == QuietKind::tooling);
  CHECK(kind_of(".coverage.host.1234.XyZ") == QuietKind::tooling); // parallel-mode data
  CHECK(kind_of("coverage.xml") == QuietKind::tooling);
  CHECK(kind_of("htmlcov/index.html") == QuietKind::tooling);
  CHECK(kind_of(".hypothesis/examples/0a1b/2c3d") == QuietKind::tooling);
  CHECK(kind_of(".tox/py311/log/1-commands[0].log") == QuietKind::tooling);
  CHECK(kind_of("src/pkg.egg-info/PKG-INFO") == QuietKind::tooling);
  CHECK(kind_of("pkg.egg-info/entry_points.txt") == QuietKind::tooling);
  CHECK(kind_of("src/pkg/.DS_Store") == QuietKind::tooling);
  // Not tool output: a folder of that name below the root, a file named like the folder, a data file
  // whose name only starts like coverage's.
  CHECK_FALSE(kind_of("tests/htmlcov/index.html"));
  CHECK_FALSE(kind_of("pkg.egg-info"));
  CHECK_FALSE(kind_of("tests/data/coverage_report.json"));
  CHECK_FALSE(kind_of(".coveragerc"));
}

TEST_CASE("could_name: names, wildcards, extensions, stems and folders") {
  RepoPath changes("CHANGES.rst");
  CHECK(could_name("CHANGES.rst", changes));
  CHECK(could_name("../changes.rst", changes));
  CHECK(could_name("*.rst", changes));
  CHECK(could_name("**/*", changes));
  CHECK(could_name(".rst", changes));
  CHECK(could_name("rst", changes));
  CHECK(could_name("CHANGES", changes));
  CHECK_FALSE(could_name("README.rst", changes));
  CHECK_FALSE(could_name("*.md", changes));
  CHECK_FALSE(could_name("docs", changes));
  RepoPath page("docs/guide/index.rst");
  CHECK(could_name("docs", page));
  CHECK(could_name("../docs/", page));
  CHECK(could_name("/guide/", page));
  CHECK(could_name("docs\\guide", page));
  CHECK_FALSE(could_name("doc", page));
  CHECK_FALSE(could_name("..", page));
}

TEST_CASE("could_name_source: a Python file named with .py, or scanned by test code") {
  RepoPath defaults("src/pkg/defaults.py");
  CHECK(could_name_source("defaults.py", defaults, false, false));
  CHECK(could_name_source("src/pkg/defaults.py", defaults, false, false));
  CHECK_FALSE(could_name_source("mydefaults.py", defaults, false, false)); // another file's name
  CHECK_FALSE(could_name_source("defaults", defaults, true, true));        // a stem is no file name here
  CHECK_FALSE(could_name_source("pkg", defaults, true, true));             // nor is a folder
  // The names every package repeats count only with the folder above them.
  RepoPath init("src/pkg/__init__.py");
  CHECK_FALSE(could_name_source("__init__.py", init, true, true));
  CHECK(could_name_source("pkg/__init__.py", init, false, false));
  CHECK_FALSE(could_name_source("other/__init__.py", init, false, false));
  // Wildcards for Python files and ".py" only in test code; ".py" only with a folder listing.
  CHECK(could_name_source("*.py", defaults, true, false));
  CHECK(could_name_source("**/*.py", defaults, true, false));
  CHECK_FALSE(could_name_source("*.py", defaults, false, false));
  CHECK_FALSE(could_name_source("test_*.py", defaults, true, false));
  CHECK_FALSE(could_name_source("*", defaults, true, false));
  CHECK(could_name_source(".py", defaults, true, true));
  CHECK_FALSE(could_name_source(".py", defaults, true, false));
}

TEST_CASE("pytest arguments that make documentation or lint configuration part of the session") {
  CHECK(collects_documentation("--doctest-rst"));
  CHECK(collects_documentation("--markdown-docs"));
  CHECK(collects_documentation("--codeblocks"));
  CHECK(collects_documentation("sybil"));
  CHECK_FALSE(collects_documentation("--doctest-modules"));
  CHECK_FALSE(collects_documentation("--doctest-glob=*.rst"));
  CHECK_FALSE(collects_documentation("--failed-first"));
  CHECK_FALSE(collects_documentation("-ra"));
  CHECK(runs_linters("--mypy"));
  CHECK(runs_linters("--flake8"));
  CHECK(runs_linters("--ruff-format"));
  CHECK_FALSE(runs_linters("-x"));
}
