#include "app/pytest_command.hpp"

#include "impact/error.hpp"
#include "impact/project/pytest_args.hpp"

namespace impact::app {

std::optional<Command> find_configured_pytest(const ImpactConfig& config, const EnvLookup& env,
                                              const std::filesystem::path& root) {
  PytestLookup lookup{env, std::nullopt, {}, root};
  if (config.pytest_command.is_set()) {
    lookup.configured = config.pytest_command.value;
    lookup.configured_source = describe_source("pytest-command", config.pytest_command.source);
  }
  return find_pytest(lookup);
}

Command configured_pytest(const ImpactConfig& config, const EnvLookup& env, const std::filesystem::path& root) {
  auto command = find_configured_pytest(config, env, root);
  if (!command) throw Error("{}", k_pytest_not_found);
  return *command;
}

PytestInvocation pytest_invocation(const ImpactConfig& config, const EnvLookup& env,
                                   const std::vector<std::string>& passthrough) {
  PytestInvocation out{env("PYTEST_ADDOPTS").value_or(""), env("PYTEST_PLUGINS").value_or(""), {}};
  if (config.pytest_command.is_set()) out.command_args = pytest_args_of_command(config.pytest_command.value);
  out.command_args.insert(out.command_args.end(), passthrough.begin(), passthrough.end());
  return out;
}

} // namespace impact::app
