#include "app/pytest_command.hpp"

#include "impact/error.hpp"

namespace impact::app {

Command configured_pytest(const ImpactConfig& config, const EnvLookup& env, const std::filesystem::path& root) {
  PytestLookup lookup{env, std::nullopt, {}, root};
  if (config.pytest_command.is_set()) {
    lookup.configured = config.pytest_command.value;
    lookup.configured_source = describe_source("pytest-command", config.pytest_command.source);
  }
  auto command = find_pytest(lookup);
  if (!command) {
    throw Error("pytest not found: activate the virtualenv that has it, or set IMPACT_PYTEST or [tool.impact] "
                "pytest-command");
  }
  return *command;
}

} // namespace impact::app
