#include "config/pyproject.hpp"

#include "impact/error.hpp"
#include "impact/pyproject.hpp"
#include "util/files.hpp"
#include "util/ini.hpp"

namespace impact::config {

std::optional<toml::table> read_pyproject(const std::filesystem::path& path, const std::string& display_name) {
  auto text = util::read_config_file(path, display_name);
  if (!text) return std::nullopt;
  try {
    return toml::parse(*text, path.string());
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw Error("{}:{}:{}: {}; fix the TOML syntax", display_name, where.line, where.column, e.description());
  }
}

namespace {

// ini values are whitespace-separated lists; pyproject values are arrays or strings.
std::vector<std::string> toml_list(const toml::node& node) {
  std::vector<std::string> out;
  if (auto s = node.value<std::string>()) return util::shell_split(*s);
  if (const auto* array = node.as_array()) {
    for (const auto& element : *array) {
      if (auto s = element.value<std::string>()) out.push_back(*s);
    }
  }
  return out;
}

} // namespace

std::optional<std::map<std::string, std::vector<std::string>>> pytest_ini_options(const std::filesystem::path& path,
                                                                                  const std::string& display_name) {
  auto pyproject = read_pyproject(path, display_name);
  if (!pyproject) return std::nullopt;
  const toml::node* section = pyproject->at_path("tool.pytest.ini_options").node();
  const auto* table = section != nullptr ? section->as_table() : nullptr;
  if (table == nullptr) return std::nullopt;
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [key, value] : *table) out[std::string(key.str())] = toml_list(value);
  return out;
}

std::vector<std::string> pytest_entry_points(const std::filesystem::path& path, const std::string& display_name) {
  std::vector<std::string> out;
  auto pyproject = read_pyproject(path, display_name);
  if (!pyproject) return out;
  const toml::node* eps = pyproject->at_path("project.entry-points.pytest11").node();
  if (const auto* table = eps != nullptr ? eps->as_table() : nullptr) {
    for (const auto& [name, value] : *table) {
      if (auto s = value.value<std::string>()) out.push_back(s->substr(0, s->find(':')));
    }
  }
  return out;
}

} // namespace impact::config
