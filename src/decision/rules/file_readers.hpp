#pragma once
// Which non-Python files cannot change what a test does unless some code reads them (documentation,
// changelogs, editor, lint and CI configuration), and whether a string literal could name a file.
// docs/selection.md, rules `quiet-files` and `file-readers`.
#include "impact/vocabulary.hpp"

#include <optional>
#include <string_view>

namespace impact {

enum class QuietKind {
  documentation, // prose and project metadata: README, CHANGES, LICENSE at the root, anything under docs/
  tooling,       // editor, version control and CI configuration: .pre-commit-config.yaml, .github/, ...
  lint,          // lint and type-check configuration: .flake8, mypy.ini, ...; a pytest lint plugin reads it
};

// The kind of a file that only documents or configures tools outside the test session, by its path;
// nullopt for any other file (data, templates, fixtures: what code may read).
std::optional<QuietKind> quiet_kind(const RepoPath& path);
// Whether a folder above the file is a `*.egg-info` folder (lower-case the path first).
bool in_egg_info(std::string_view path);

// True when `literal` (a path-like fragment of a string in Python code) could name `path` or a folder
// holding it: it contains the file's name, it is a wildcard pattern its name matches, it is the file's
// extension or stem, or one of its components is a folder above the file. Case is ignored (a
// case-insensitive file system opens "readme.md" as README.md). Over-matching is safe: it only makes
// code a reader.
bool could_name(std::string_view literal, const RepoPath& path);

// True when `literal` could name the Python source file `path`, read as text (a test that scans the
// sources, code that exec()s a file): it holds the file's name with its extension ("defaults.py",
// "golden/model_ab.py"; for the names every package repeats, `__init__.py`, `conftest.py`,
// `setup.py`, `__main__.py`, only with the folder above it), or, when `scans` (the literal is in test
// code), it is a wildcard pattern for Python files its name matches ("*.py"), or the extension ".py"
// in a file that also `lists` a folder (`os.walk` and `name.endswith(".py")`). Stricter than
// could_name: every Python file is a module already, folder names are everywhere, and pytester's
// `makefile(".py", ...)` writes files of its own.
bool could_name_source(std::string_view literal, const RepoPath& path, bool scans, bool lists);

// True for pytest arguments that turn on a plugin which reads documentation as tests (text doctests,
// Markdown or reStructuredText code blocks): with one, documentation is never quiet.
bool collects_documentation(std::string_view pytest_arg);

// True for pytest arguments that turn on a lint or type-check plugin (pytest-mypy, pytest-flake8,
// pytest-pylint, pytest-ruff, ...): with one, lint configuration changes test outcomes.
bool runs_linters(std::string_view pytest_arg);

} // namespace impact
