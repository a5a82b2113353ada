#pragma once
// pytest as the run path finds it: IMPACT_PYTEST, [tool.impact] pytest-command (or --pytest-command),
// the active environment, the project's virtualenv, PATH (docs/cli.md, "How pytest is found").
#include "impact/config.hpp"
#include "impact/run.hpp"

#include <filesystem>

namespace impact::app {

// Throws impact::Error with the fix when pytest cannot be found.
Command configured_pytest(const ImpactConfig& config, const EnvLookup& env, const std::filesystem::path& root);

} // namespace impact::app
