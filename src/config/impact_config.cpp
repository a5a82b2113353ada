// [tool.impact], the environment and the flags: read strictly, layer by layer, because a
// half-understood configuration selects the wrong tests.
#include "config/pyproject.hpp"
#include "config/selection_rules.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "util/suggest.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace impact {

namespace {

constexpr std::string_view k_docs = "see docs/configuration.md";
constexpr std::string_view k_file = "pyproject.toml";

std::vector<std::string> read_strings(const toml::node& node, const std::string& key, std::string_view example) {
  const auto* array = node.as_array();
  if (array == nullptr) {
    throw Error("{}: [tool.impact] {} must be an array of strings, e.g. {}; {}", k_file, key, example, k_docs);
  }
  std::vector<std::string> out;
  for (const auto& element : *array) {
    auto s = element.value<std::string>();
    if (!s) {
      throw Error("{}: [tool.impact] {} must hold only strings, e.g. {}; quote every element", k_file, key, example);
    }
    out.push_back(*s);
  }
  return out;
}

std::vector<std::string> read_nonempty_argv(const toml::node& node, const std::string& key, std::string_view example) {
  auto argv = read_strings(node, key, example);
  if (argv.empty() || argv.front().empty()) {
    throw Error("{}: [tool.impact] {} is empty; give the program and its arguments, e.g. {}, or remove the key",
                k_file, key, example);
  }
  return argv;
}

Mode read_mode(std::string_view text, const std::string& where) {
  auto mode = parse_mode(text);
  if (!mode) throw Error("{}: unknown mode '{}'; use fast, balanced or safe", where, text);
  return *mode;
}

bool read_bool_env(const std::string& value, const std::string& name) {
  if (value == "1" || value == "true" || value == "yes") return true;
  if (value == "0" || value == "false" || value == "no") return false;
  throw Error("{}={}: not a boolean; use 1 or 0 (or unset it)", name, value);
}

// An array of strings written as JSON, possibly empty (IMPACT_IGNORE).
// A JSON array of strings given in a variable or a flag; `example` shows how to write it.
std::vector<std::string> strings_from_json(const std::string& text, const std::string& where,
                                           std::string_view example = R"(["docs/", "*.md"])") {
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_array()) {
    throw Error("{}: not a JSON array of strings; write it like {}", where, example);
  }
  std::vector<std::string> out;
  for (const auto& element : parsed) {
    if (!element.is_string()) throw Error("{}: {} is not a string; quote every element, like {}", where, element.dump(), example);
    out.push_back(element.get<std::string>());
  }
  return out;
}

} // namespace

std::optional<uint8_t> lowest_python_minor(std::string_view spec) {
  // Poetry's alternatives (`^3.8 || ^3.10`): the lowest of them, known only when each is.
  if (size_t bar = spec.find("||"); bar != std::string_view::npos) {
    auto first = lowest_python_minor(spec.substr(0, bar));
    auto rest = lowest_python_minor(spec.substr(bar + 2));
    if (!first || !rest) return std::nullopt;
    return std::min(*first, *rest);
  }
  std::optional<uint8_t> lowest;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view clause = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    while (!clause.empty() && clause.front() == ' ') clause.remove_prefix(1);
    size_t op_end = clause.find_first_of("0123456789");
    if (op_end == std::string_view::npos) continue;
    std::string_view op = clause.substr(0, op_end);
    while (!op.empty() && op.back() == ' ') op.remove_suffix(1);
    // Poetry's caret and tilde (`^3.9`, `~3.9`) allow the version given and later ones.
    if (op != ">=" && op != ">" && op != "~=" && op != "==" && op != "===" && op != "^" && op != "~" && !op.empty()) continue; // <, <=, !=
    std::string_view version = clause.substr(op_end);
    unsigned major = 0, minor = 0;
    size_t i = 0;
    while (i < version.size() && std::isdigit(static_cast<unsigned char>(version[i]))) major = major * 10 + static_cast<unsigned>(version[i++] - '0');
    if (i < version.size() && version[i] == '.') {
      ++i;
      while (i < version.size() && std::isdigit(static_cast<unsigned char>(version[i]))) minor = minor * 10 + static_cast<unsigned>(version[i++] - '0');
    }
    if (major != 3 || minor > 255) return std::nullopt;
    lowest = std::max<uint8_t>(lowest.value_or(0), static_cast<uint8_t>(minor));
  }
  return lowest;
}

namespace {

// Layer 1: the file.
void apply_file(ImpactConfig& config, const std::filesystem::path& repo_root) {
  const std::string file(k_file);
  auto pyproject = config::read_pyproject(repo_root / file, file);
  if (pyproject) {
    if (auto spec = pyproject->at_path("project.requires-python").value<std::string>()) {
      config.python_minor = lowest_python_minor(*spec);
    } else if (auto poetry = pyproject->at_path("tool.poetry.dependencies.python").value<std::string>()) {
      config.python_minor = lowest_python_minor(*poetry);
    }
  }
  const toml::node* section = pyproject ? pyproject->at_path("tool.impact").node() : nullptr;
  if (section == nullptr) return;
  const auto* table = section->as_table();
  if (table == nullptr) throw Error("{}: [tool.impact] must be a table; {}", file, k_docs);
  config.file = repo_root / file;
  for (const auto& [key_node, value] : *table) {
    std::string key(key_node.str());
    if (key == "pytest-command") {
      config.pytest_command = {read_nonempty_argv(value, key, R"(["uv", "run", "pytest"])"),
                               SettingSource::from_file(file)};
    } else if (key == "fallback-command") {
      config.fallback_command = {read_nonempty_argv(value, key, R"(["scripts/ci-tests.sh", "--all"])"),
                                 SettingSource::from_file(file)};
    } else if (key == "ignore") {
      config.ignore = {read_strings(value, key, R"(["docs/", "*.md"])"), SettingSource::from_file(file)};
    } else if (key == "always-run") {
      config.always_run = {config::read_always_run(value, file), SettingSource::from_file(file)};
    } else if (key == "triggers") {
      config.triggers = {config::read_triggers(value, file), SettingSource::from_file(file)};
    } else if (key == "projects") {
      config.projects = {read_strings(value, key, R"(["libs/*", "services/api"])"), SettingSource::from_file(file)};
    } else if (key == "mode") {
      auto text = value.value<std::string>();
      if (!text) throw Error("{}: [tool.impact] mode must be a string: \"fast\", \"balanced\" or \"safe\"", file);
      config.mode = {read_mode(*text, file + ": [tool.impact] mode"), SettingSource::from_file(file)};
    } else if (key == "strict" || key == "use-index") {
      auto flag = value.is_boolean() ? value.value<bool>() : std::nullopt;
      if (!flag) throw Error("{}: [tool.impact] {} must be true or false (unquoted)", file, key);
      Setting<bool>& setting = key == "strict" ? config.strict : config.use_index;
      setting.value = *flag;
      setting.source = SettingSource::from_file(file);
    } else if (key == "cache-remote") {
      auto text = value.value<std::string>();
      if (!text || text->empty()) {
        throw Error("{}: [tool.impact] cache-remote must be a folder's path, a non-empty string (\"/mnt/ci-cache/impact\")", file);
      }
      config.cache_remote = {(repo_root / *text).lexically_normal(), SettingSource::from_file(file)};
    } else {
      auto near = util::closest(key, impact_config_keys());
      if (near) throw Error("{}: [tool.impact] unknown key '{}', did you mean '{}'?", file, key, *near);
      throw Error("{}: [tool.impact] unknown key '{}'; remove it ({})", file, key, k_docs);
    }
  }
}

// Layer 2: the environment.
void apply_env(ImpactConfig& config, const EnvLookup& env) {
  if (auto pytest = env("IMPACT_PYTEST")) config.pytest_command = {{*pytest}, SettingSource::from_env("IMPACT_PYTEST")};
  if (auto fallback = env("IMPACT_FALLBACK_COMMAND")) {
    config.fallback_command = {parse_argv_json(*fallback, "IMPACT_FALLBACK_COMMAND"),
                               SettingSource::from_env("IMPACT_FALLBACK_COMMAND")};
  }
  if (auto ignore = env("IMPACT_IGNORE")) {
    config.ignore = {strings_from_json(*ignore, "IMPACT_IGNORE"), SettingSource::from_env("IMPACT_IGNORE")};
  }
  if (auto mode = env("IMPACT_MODE")) config.mode = {read_mode(*mode, "IMPACT_MODE"), SettingSource::from_env("IMPACT_MODE")};
  if (auto strict = env("IMPACT_STRICT")) {
    config.strict = {read_bool_env(*strict, "IMPACT_STRICT"), SettingSource::from_env("IMPACT_STRICT")};
  }
  if (auto no_index = env("IMPACT_NO_INDEX")) {
    config.use_index = {!read_bool_env(*no_index, "IMPACT_NO_INDEX"), SettingSource::from_env("IMPACT_NO_INDEX")};
  }
  if (auto remote = env("IMPACT_CACHE_REMOTE"); remote && !remote->empty()) {
    config.cache_remote = {std::filesystem::absolute(*remote), SettingSource::from_env("IMPACT_CACHE_REMOTE")};
  }
}

// Layer 3: the flags (already checked by the command line parser).
void apply_flags(ImpactConfig& config, const ConfigFlags& flags) {
  if (flags.pytest_command) config.pytest_command = {*flags.pytest_command, SettingSource::from_flag("--pytest-command")};
  if (flags.fallback_command) {
    config.fallback_command = {*flags.fallback_command, SettingSource::from_flag("--fallback-command")};
  }
  if (flags.ignore) config.ignore = {*flags.ignore, SettingSource::from_flag("--ignore")};
  if (flags.mode) config.mode = {*flags.mode, SettingSource::from_flag("--mode")};
  if (flags.strict) config.strict = {*flags.strict, SettingSource::from_flag(*flags.strict ? "--strict" : "--no-strict")};
  if (flags.use_index) {
    config.use_index = {*flags.use_index, SettingSource::from_flag(*flags.use_index ? "--use-index" : "--no-index")};
  }
  if (flags.cache_remote) config.cache_remote = {*flags.cache_remote, SettingSource::from_flag("--cache-remote")};
}

} // namespace

const std::vector<std::string>& impact_config_keys() {
  static const std::vector<std::string> k_keys = {"pytest-command", "fallback-command", "ignore", "always-run",
                                                  "triggers",       "mode",             "strict", "use-index",
                                                  "projects",       "cache-remote"};
  return k_keys;
}

std::vector<std::string> parse_argv_json(const std::string& text, const std::string& where) {
  constexpr std::string_view example = R"(["scripts/ci-tests.sh", "--all"])";
  std::vector<std::string> out = strings_from_json(text, where, example);
  if (out.empty()) throw Error("{}: the argv is empty; give the program and its arguments, like {}", where, example);
  if (out.front().empty()) throw Error("{}: the program name is empty; put the program first, like {}", where, example);
  return out;
}

std::string to_string(const SettingSource& source) {
  return source.kind == SettingSource::Kind::default_ ? std::string("default") : source.name;
}

std::string describe_source(const std::string& key, const SettingSource& source) {
  if (source.kind == SettingSource::Kind::file) return key + " in " + source.name;
  return to_string(source);
}

ImpactConfig load_impact_config(const std::filesystem::path& repo_root, const EnvLookup& env, const ConfigFlags& flags) {
  ImpactConfig config;
  apply_file(config, repo_root);
  apply_env(config, env);
  apply_flags(config, flags);
  return config;
}

} // namespace impact
