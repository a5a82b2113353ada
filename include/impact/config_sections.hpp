#pragma once
#ifdef IMPACT_FORBID_CONFIG // defined for the stages that may not use config (src/CMakeLists.txt)
#error "this stage may not use config (docs/architecture.md)"
#endif
// A changed pyproject.toml, setup.cfg or tox.ini read by section: which sections differ between the
// two sides, and which of them only lint and format tools read (docs/selection.md, `config-sections`).
#include "impact/vocabulary.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// Whether impact reads `path` by section: pyproject.toml, setup.cfg and tox.ini, at any depth.
bool sectioned_config(const RepoPath& path);

// The sections whose content differs between `before` and `after` (an absent side is empty text):
// "tool.ruff", "project.dependencies", "build-system" for TOML (tables under [tool] and keys of
// [project] one by one, other top-level keys whole); the section names for INI ("flake8",
// "tool:pytest", "mypy-pkg.*"). Comments and layout are no difference. nullopt when either side cannot
// be parsed: then nothing can be said by section.
std::optional<std::vector<std::string>> changed_sections(const RepoPath& path, std::string_view before,
                                                          std::string_view after);

// True for the sections of pyproject.toml that list dependencies: "project.dependencies",
// "project.optional-dependencies", "dependency-groups".
bool dependency_section(std::string_view section);

// Every requirement string of pyproject.toml's dependency sections, each group as its own list
// ("project.dependencies", "project.optional-dependencies.test", "dependency-groups.dev"); nullopt when
// the text cannot be parsed or a list holds something that is not a string (a dependency group's
// `{include-group = "x"}` is kept as "include-group:x").
std::optional<std::vector<std::pair<std::string, std::vector<std::string>>>> dependency_lists(std::string_view pyproject);

// The files pyproject.toml's [project] names as packaging metadata: `readme` (a string or
// `{ file = }`), `license = { file = }`, and `license-files` patterns as written.
std::vector<std::string> packaging_files(std::string_view pyproject);

// tox.ini: the sections among `changed` that start no test run on either side: a [testenv:NAME]
// whose every command runs a documentation, lint, format, type-check, packaging or pinning program
// (sphinx-build, flake8, mypy, pre-commit, twine, pip-compile, `python -m build`, ...) and that no other
// section refers to, or [tox] when only the keys that list environments (envlist, labels) differ.
// Empty when a side cannot be parsed.
std::vector<std::string> sections_running_no_tests(std::string_view before, std::string_view after,
                                                   const std::vector<std::string>& changed);

// tox.ini: true when `section` of this text is such an environment.
bool section_runs_no_tests(std::string_view tox_ini, const std::string& section);

// True for a section that only lint, format, type-check and release tools read ([tool.ruff],
// [flake8], [mypy], [tool.towncrier], ...): it changes how code is checked, not what a test does.
bool lint_section(std::string_view section);

} // namespace impact
