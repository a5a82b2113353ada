#pragma once
// impact's own settings: [tool.impact] in the repository's pyproject.toml, overridden by environment
// variables and flags. Every setting remembers where its value came from (`impact config` shows it).
#include "impact/ci.hpp"
#include "impact/decision.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace impact {

template <typename T>
struct Setting {
  T value{};
  std::string source = "default"; // "default", "pyproject.toml", "IMPACT_MODE", "--mode"
  bool is_set() const { return source != "default"; }
};

struct ImpactConfig {
  std::filesystem::path file; // the pyproject.toml that had [tool.impact], or empty
  Setting<std::vector<std::string>> pytest_command;
  Setting<std::vector<std::string>> fallback_command;
  Setting<std::vector<std::string>> ignore;
  Setting<Mode> mode{Mode::balanced};
  Setting<bool> strict{false};
  Setting<bool> use_index{true};
};

// Reads [tool.impact] from <repo_root>/pyproject.toml, then applies the environment (IMPACT_MODE,
// IMPACT_STRICT, IMPACT_FALLBACK_COMMAND, IMPACT_NO_INDEX). Throws impact::Error at the first bad key
// or value, naming the file, the key and the fix: even a key the run would not use.
ImpactConfig load_impact_config(const std::filesystem::path& repo_root, const EnvLookup& env);

// The names of every [tool.impact] key, for `impact config` and the docs.
const std::vector<std::string>& impact_config_keys();

} // namespace impact
