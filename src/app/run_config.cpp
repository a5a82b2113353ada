// `impact config`: every setting, its effective value and the layer it came from (a flag, a variable,
// pyproject.toml or the default), as a table or as a versioned JSON document (docs/configuration.md).
#include "app/commands.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace impact::app {

namespace {

using json = nlohmann::ordered_json;

// One row: the key, its value as JSON (null for an argv that is not set) and its source.
struct Row {
  std::string key;
  json value;
  std::string source;
};

json triggers_json(const std::vector<TriggerRule>& rules) {
  json out = json::array();
  for (const auto& r : rules) {
    out.push_back({{"name", r.name}, {"paths", r.paths}, {"run", r.run_all ? json("all") : json(r.run)}});
  }
  return out;
}

std::vector<Row> rows_of(const ImpactConfig& config) {
  auto argv = [](const Setting<std::vector<std::string>>& s) { return s.is_set() ? json(s.value) : json(nullptr); };
  return {{"pytest-command", argv(config.pytest_command), to_string(config.pytest_command.source)},
          {"fallback-command", argv(config.fallback_command), to_string(config.fallback_command.source)},
          {"ignore", json(config.ignore.value), to_string(config.ignore.source)},
          {"always-run", json(config.always_run.value), to_string(config.always_run.source)},
          {"triggers", triggers_json(config.triggers.value), to_string(config.triggers.source)},
          {"mode", std::string(to_string(config.mode.value)), to_string(config.mode.source)},
          {"strict", config.strict.value, to_string(config.strict.source)},
          {"use-index", config.use_index.value, to_string(config.use_index.source)},
          {"projects", argv(config.projects), to_string(config.projects.source)},
          {"cache-remote", config.cache_remote.is_set() ? json(config.cache_remote.value.string()) : json(nullptr),
           to_string(config.cache_remote.source)}};
}

std::string text_of(const json& value) {
  if (value.is_null()) return "(not set)";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

} // namespace

int run_config(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  std::vector<Row> rows = rows_of(config);
  if (options.format == cli::Format::json) {
    json settings = json::object();
    for (const auto& row : rows) settings[row.key] = {{"value", row.value}, {"source", row.source}};
    json doc = {{"schema", "impact.config"},
                {"version", 1},
                {"file", config.file.empty() ? json(nullptr) : json(config.file.string())},
                {"settings", settings}};
    fmt::print("{}\n", doc.dump(2, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  fmt::print("# {}\n", config.file.empty() ? std::string("no [tool.impact] in pyproject.toml")
                                           : fmt::format("[tool.impact] in {}", config.file.string()));
  size_t width = 0;
  for (const auto& row : rows) width = std::max(width, text_of(row.value).size());
  for (const auto& row : rows) fmt::print("{:<18} {:<{}}  {}\n", row.key, text_of(row.value), width, row.source);
  return 0;
}

} // namespace impact::app
