// [tool.impact]: read strictly, because a half-understood configuration selects the wrong tests.
#include "config/pyproject.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "util/suggest.hpp"

#include <nlohmann/json.hpp>

namespace impact {

namespace {

constexpr std::string_view k_docs = "see docs/configuration.md";

std::vector<std::string> read_strings(const toml::node& node, const std::string& key, const std::string& file,
                                      std::string_view example) {
  const auto* array = node.as_array();
  if (array == nullptr) {
    throw Error("{}: [tool.impact] {} must be an array of strings, e.g. {}; {}", file, key, example, k_docs);
  }
  std::vector<std::string> out;
  for (const auto& element : *array) {
    auto s = element.value<std::string>();
    if (!s) throw Error("{}: [tool.impact] {} must hold only strings; {}", file, key, k_docs);
    out.push_back(*s);
  }
  return out;
}

std::vector<std::string> read_nonempty_argv(const toml::node& node, const std::string& key, const std::string& file) {
  auto argv = read_strings(node, key, file, R"(["uv", "run", "pytest"])");
  if (argv.empty() || argv.front().empty()) {
    throw Error("{}: [tool.impact] {} is empty; give the program and its arguments, or remove the key", file, key);
  }
  return argv;
}

Mode read_mode(std::string_view text, const std::string& where) {
  auto mode = parse_mode(text);
  if (!mode) throw Error("{}: unknown mode '{}'; use fast, balanced or safe", where, text);
  return *mode;
}

std::vector<std::string> argv_from_json(const std::string& text, const std::string& where) {
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_array() || parsed.empty()) {
    throw Error("{} must be a non-empty JSON array of strings, e.g. [\"scripts/ci.sh\", \"--all\"]", where);
  }
  std::vector<std::string> out;
  for (const auto& element : parsed) {
    if (!element.is_string()) throw Error("{} must hold only strings", where);
    out.push_back(element.get<std::string>());
  }
  if (out.front().empty()) throw Error("{}: the program name is empty", where);
  return out;
}

bool read_bool_env(const std::string& value, const std::string& name) {
  if (value == "1" || value == "true" || value == "yes") return true;
  if (value == "0" || value == "false" || value == "no") return false;
  throw Error("{}={}: use 1 or 0", name, value);
}

} // namespace

const std::vector<std::string>& impact_config_keys() {
  static const std::vector<std::string> k_keys = {"pytest-command", "fallback-command", "ignore", "mode", "strict",
                                                  "use-index"};
  return k_keys;
}

ImpactConfig load_impact_config(const std::filesystem::path& repo_root, const EnvLookup& env) {
  ImpactConfig config;
  const std::string file = "pyproject.toml";
  auto pyproject = config::read_pyproject(repo_root / file, file);
  const toml::node* section = pyproject ? pyproject->at_path("tool.impact").node() : nullptr;
  if (section != nullptr) {
    const auto* table = section->as_table();
    if (table == nullptr) throw Error("{}: [tool.impact] must be a table; {}", file, k_docs);
    config.file = repo_root / file;
    for (const auto& [key_node, value] : *table) {
      std::string key(key_node.str());
      if (key == "pytest-command") {
        config.pytest_command = {read_nonempty_argv(value, key, file), file};
      } else if (key == "fallback-command") {
        config.fallback_command = {read_nonempty_argv(value, key, file), file};
      } else if (key == "ignore") {
        config.ignore = {read_strings(value, key, file, R"(["docs/", "*.md"])"), file};
      } else if (key == "mode") {
        auto text = value.value<std::string>();
        if (!text) throw Error("{}: [tool.impact] mode must be a string: \"fast\", \"balanced\" or \"safe\"", file);
        config.mode = {read_mode(*text, file + ": [tool.impact] mode"), file};
      } else if (key == "strict" || key == "use-index") {
        auto flag = value.is_boolean() ? value.value<bool>() : std::nullopt;
        if (!flag) throw Error("{}: [tool.impact] {} must be true or false", file, key);
        (key == "strict" ? config.strict : config.use_index) = {*flag, file};
      } else {
        auto near = util::closest(key, impact_config_keys());
        if (near) throw Error("{}: [tool.impact] unknown key '{}', did you mean '{}'?", file, key, *near);
        throw Error("{}: [tool.impact] unknown key '{}'; {}", file, key, k_docs);
      }
    }
  }
  if (auto mode = env("IMPACT_MODE")) config.mode = {read_mode(*mode, "IMPACT_MODE"), "IMPACT_MODE"};
  if (auto strict = env("IMPACT_STRICT")) config.strict = {read_bool_env(*strict, "IMPACT_STRICT"), "IMPACT_STRICT"};
  if (auto no_index = env("IMPACT_NO_INDEX")) {
    config.use_index = {!read_bool_env(*no_index, "IMPACT_NO_INDEX"), "IMPACT_NO_INDEX"};
  }
  if (auto fallback = env("IMPACT_FALLBACK_COMMAND")) {
    config.fallback_command = {argv_from_json(*fallback, "IMPACT_FALLBACK_COMMAND"), "IMPACT_FALLBACK_COMMAND"};
  }
  return config;
}

} // namespace impact
