#pragma once
// What the rules for changed files that are not Python need from the repository and the
// environment (docs/selection.md, config-sections, dependency-pins, quiet-files, file-readers): the
// changed config files read by section, the changed pins read by distribution, the installed
// environment when a pin moved, and pytest's arguments.
#include "impact/changes.hpp"
#include "impact/config.hpp"
#include "impact/decision.hpp"
#include "impact/environment.hpp"
#include "impact/project.hpp"

#include <optional>
#include <vector>

namespace impact::app {

// True when a change set holds a file these rules read with the facts of every Python file
// (documentation, tooling and lint files, pins, sectioned config files).
bool needs_facts_for_non_python(const ChangeSet& changes);

// The installed environment of the interpreter that runs pytest (the configured pytest command's),
// read through the cache folder's environment.json; nullopt when that interpreter cannot be found or asked.
std::optional<Environment> pytest_environment(const ImpactConfig& config, const EnvLookup& env,
                                              const std::filesystem::path& root);

// `environment` receives the installed environment when a pin moved; the result points into it.
NonPythonInput non_python_input(Repository& repo, const ChangeSet& changes, const std::vector<SourceFile>& inventory,
                                const PytestConfig& pytest, const ImpactConfig& config, const EnvLookup& env,
                                std::optional<Environment>& environment);

} // namespace impact::app
