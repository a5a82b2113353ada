#include "config/selection_rules.hpp"

#include "impact/error.hpp"
#include "util/suggest.hpp"

#include <fmt/format.h>

namespace impact::config {

namespace {

constexpr std::string_view k_trigger_example = R"({ paths = ["schema/*.sql"], run = ["tests/test_db.py"] })";

std::vector<std::string> strings_of(const toml::node& node, const std::string& where, std::string_view example) {
  const auto* array = node.as_array();
  if (array == nullptr) throw Error("{} must be an array of strings, e.g. {}", where, example);
  std::vector<std::string> out;
  for (const auto& element : *array) {
    auto s = element.value<std::string>();
    if (!s || s->empty()) throw Error("{} must hold only non-empty strings, e.g. {}; quote every element", where, example);
    out.push_back(*s);
  }
  return out;
}

TriggerRule read_trigger(const toml::node& node, const std::string& file, size_t index) {
  std::string where = fmt::format("{}: [tool.impact] triggers[{}]", file, index);
  const auto* table = node.as_table();
  if (table == nullptr) throw Error("{} must be a table, e.g. {}", where, k_trigger_example);
  TriggerRule rule;
  rule.name = fmt::format("triggers[{}]", index);
  bool has_paths = false, has_run = false;
  for (const auto& [key_node, value] : *table) {
    std::string key(key_node.str());
    if (key == "name") {
      auto name = value.value<std::string>();
      if (!name || name->empty()) throw Error("{}: name must be a non-empty string", where);
      rule.name = *name;
    } else if (key == "paths") {
      rule.paths = strings_of(value, where + " paths", R"(["schema/*.sql"])");
      if (rule.paths.empty()) throw Error("{}: paths is empty; name the files that trigger it, e.g. {}", where, k_trigger_example);
      has_paths = true;
    } else if (key == "run") {
      if (auto all = value.value<std::string>()) {
        if (*all != "all") throw Error("{}: run = \"{}\"; write run = \"all\" or a list of tests, e.g. {}", where, *all, k_trigger_example);
        rule.run_all = true;
      } else {
        rule.run = strings_of(value, where + " run", R"(["tests/test_db.py"])");
        if (rule.run.empty()) throw Error("{}: run is empty; write run = \"all\" or name the tests to run", where);
      }
      has_run = true;
    } else {
      auto near = util::closest(key, {"name", "paths", "run"});
      if (near) throw Error("{}: unknown key '{}', did you mean '{}'?", where, key, *near);
      throw Error("{}: unknown key '{}'; a trigger has paths, run and an optional name", where, key);
    }
  }
  if (!has_paths || !has_run) {
    throw Error("{}: a trigger needs both paths and run, e.g. {}", where, k_trigger_example);
  }
  return rule;
}

} // namespace

std::vector<std::string> read_always_run(const toml::node& node, const std::string& file) {
  return strings_of(node, file + ": [tool.impact] always-run", R"(["tests/test_smoke.py", "tests/api/*"])");
}

std::vector<TriggerRule> read_triggers(const toml::node& node, const std::string& file) {
  const auto* array = node.as_array();
  if (array == nullptr) {
    throw Error("{}: [tool.impact] triggers must be an array of tables, e.g. triggers = [{}]", file, k_trigger_example);
  }
  std::vector<TriggerRule> out;
  for (size_t i = 0; i < array->size(); ++i) out.push_back(read_trigger(*array->get(i), file, i));
  return out;
}

} // namespace impact::config
