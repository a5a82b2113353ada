#pragma once
// Reading pyproject.toml: the one adapter to toml++ (the tables are read by project/ and config/).
#include <toml++/toml.h>

#include <filesystem>
#include <optional>

namespace impact::config {

// The parsed pyproject.toml at `path`, or std::nullopt when there is none. Throws impact::Error on a
// syntax error, naming the file, line and column.
std::optional<toml::table> read_pyproject(const std::filesystem::path& path, const std::string& display_name);

} // namespace impact::config
