#pragma once
#ifdef IMPACT_FORBID_CONFIG // defined for the stages that may not use config (src/CMakeLists.txt)
#error "this stage may not use config (docs/architecture.md, allowed edges)"
#endif
// impact's own settings: [tool.impact] in the repository's pyproject.toml, overridden by environment
// variables, overridden by flags. Every setting remembers where its value came from (`impact config`
// shows it), so that a message can say where to fix a value.
#include "impact/vocabulary.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace impact {

// Where a setting's value came from: a kind, and the file, variable or flag that set it.
struct SettingSource {
  enum class Kind : uint8_t {
    default_, // nothing set it: impact's default ("default")
    file,     // [tool.impact] in a file: name is the file ("pyproject.toml")
    env,      // an environment variable: name is the variable ("IMPACT_MODE")
    flag,     // a command-line flag: name is the flag as given ("--mode", "--no-index")
  };
  Kind kind = Kind::default_;
  std::string name; // empty for default_

  static SettingSource from_file(std::string name) { return {Kind::file, std::move(name)}; }
  static SettingSource from_env(std::string name) { return {Kind::env, std::move(name)}; }
  static SettingSource from_flag(std::string name) { return {Kind::flag, std::move(name)}; }
  bool operator==(const SettingSource&) const = default;
};

// The source as `impact config` writes it, in text and JSON: "default", or its name.
std::string to_string(const SettingSource& source);

template <typename T>
struct Setting {
  T value{};
  SettingSource source{};
  bool is_set() const { return source.kind != SettingSource::Kind::default_; }
};

struct ImpactConfig {
  std::filesystem::path file; // the pyproject.toml that had [tool.impact], or empty
  Setting<std::vector<std::string>> pytest_command;
  Setting<std::vector<std::string>> fallback_command;
  Setting<std::vector<std::string>> ignore;
  Setting<std::vector<std::string>> always_run; // tests that run with every selection (file only)
  Setting<std::vector<TriggerRule>> triggers;   // declared edges from paths to tests (file only)
  // Monorepo mode: globs of the project folders to run, at the repository root (file only;
  // docs/monorepo.md). Unset: every project discovery finds.
  Setting<std::vector<std::string>> projects;
  Setting<Mode> mode{Mode::balanced};
  Setting<bool> strict{false};
  Setting<bool> use_index{true};
  // The shared cache's folder (docs/cache.md, "The shared cache"), absolute; empty when not set.
  Setting<std::filesystem::path> cache_remote;
  // The lowest Python 3 minor version [project] requires-python allows (">=3.9" gives 9): what the
  // compile check judges version-dependent syntax by. nullopt when it says nothing readable.
  std::optional<uint8_t> python_minor;
};

// The settings given on the command line, the highest layer: each one that is set replaces the
// environment's and the file's value whole (an --ignore list replaces the configured list).
struct ConfigFlags {
  std::optional<std::vector<std::string>> pytest_command;   // --pytest-command '["uv", "run", "pytest"]'
  std::optional<std::vector<std::string>> fallback_command; // --fallback-command '["scripts/ci.sh"]'
  std::optional<std::vector<std::string>> ignore;           // --ignore GLOB, repeatable
  std::optional<Mode> mode;                                 // --mode
  std::optional<bool> strict;                               // --strict / --no-strict
  std::optional<bool> use_index;                            // --use-index / --no-index
  std::optional<std::filesystem::path> cache_remote;        // --cache-remote DIR (absolute)
};

// Reads [tool.impact] from <repo_root>/pyproject.toml, then applies the environment (IMPACT_PYTEST,
// IMPACT_FALLBACK_COMMAND, IMPACT_IGNORE, IMPACT_MODE, IMPACT_STRICT, IMPACT_NO_INDEX, IMPACT_CACHE_REMOTE),
// then `flags`. A relative cache-remote is relative to the repository root in the file, to the current folder
// in the variable.
// Every layer is read and checked in full, even where a higher one overrides it: throws impact::Error
// at the first bad key or value, naming the file or variable, the key and the fix.
ImpactConfig load_impact_config(const std::filesystem::path& repo_root, const EnvLookup& env,
                                const ConfigFlags& flags = {});

// An argv written as a JSON array of strings (IMPACT_FALLBACK_COMMAND, --fallback-command). Throws
// impact::Error naming `where` unless it is a non-empty array of strings with a non-empty program.
std::vector<std::string> parse_argv_json(const std::string& text, const std::string& where);

// Where a setting came from, for messages: "fallback-command in pyproject.toml", "IMPACT_PYTEST",
// "--fallback-command".
std::string describe_source(const std::string& key, const SettingSource& source);

// The lowest Python 3 minor version a PEP 440 specifier allows (">=3.9,<4" gives 9, "~=3.10" 10,
// "==3.11.*" 11), or nullopt when it names no lower bound impact can read (no clause, Poetry's "^3.9"
// or "||", a major other than 3).
std::optional<uint8_t> lowest_python_minor(std::string_view requires_python);

// The names of every [tool.impact] key, in the order `impact config` prints them.
const std::vector<std::string>& impact_config_keys();

} // namespace impact
