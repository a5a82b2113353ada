#include "app/commands.hpp"
#include "impact/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace impact::app {

int run_config(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ImpactConfig config = load_impact_config(repo->root(), env);
  auto argv = [](const Setting<std::vector<std::string>>& s) {
    return s.is_set() ? fmt::format("{}", s.value) : std::string("(not set)");
  };
  fmt::print("{:<18} {:<40} {}\n", "pytest-command", argv(config.pytest_command), config.pytest_command.source);
  fmt::print("{:<18} {:<40} {}\n", "fallback-command", argv(config.fallback_command), config.fallback_command.source);
  fmt::print("{:<18} {:<40} {}\n", "ignore", fmt::format("{}", config.ignore.value), config.ignore.source);
  fmt::print("{:<18} {:<40} {}\n", "mode", to_string(config.mode.value), config.mode.source);
  fmt::print("{:<18} {:<40} {}\n", "strict", config.strict.value, config.strict.source);
  fmt::print("{:<18} {:<40} {}\n", "use-index", config.use_index.value, config.use_index.source);
  return 0;
}

} // namespace impact::app
