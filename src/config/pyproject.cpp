#include "config/pyproject.hpp"

#include "impact/error.hpp"
#include "util/files.hpp"

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

} // namespace impact::config
