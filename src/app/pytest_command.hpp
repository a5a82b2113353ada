#pragma once
// pytest as the run path finds it: IMPACT_PYTEST, [tool.impact] pytest-command (or --pytest-command),
// the active environment, the project's virtualenv, PATH (docs/cli.md, "How pytest is found").
#include "impact/config.hpp"
#include "impact/project.hpp"
#include "impact/run.hpp"

#include <filesystem>
#include <optional>
#include <string_view>

namespace impact::app {

// The message, with the fix, when pytest cannot be found.
inline constexpr std::string_view k_pytest_not_found =
    "pytest not found: activate the virtualenv that has it, or set IMPACT_PYTEST or [tool.impact] pytest-command";

// std::nullopt when pytest cannot be found.
std::optional<Command> find_configured_pytest(const ImpactConfig& config, const EnvLookup& env,
                                              const std::filesystem::path& root);

// Throws impact::Error with k_pytest_not_found when pytest cannot be found.
Command configured_pytest(const ImpactConfig& config, const EnvLookup& env, const std::filesystem::path& root);

// Where pytest will read its arguments from on this run: PYTEST_ADDOPTS, PYTEST_PLUGINS, the
// configured pytest-command's own arguments (those after its pytest word), then `passthrough` (the
// arguments after `--`). Every command that reads pytest's configuration passes this.
PytestInvocation pytest_invocation(const ImpactConfig& config, const EnvLookup& env,
                                   const std::vector<std::string>& passthrough);

} // namespace impact::app
