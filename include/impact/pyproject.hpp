#pragma once
#ifdef IMPACT_FORBID_CONFIG // defined for the stages that may not use config (src/CMakeLists.txt)
#error "this stage may not use config (docs/architecture.md, allowed edges)"
#endif
// What pytest reads from a pyproject.toml, for the project stage: the config stage holds the one
// adapter to toml++ (src/config/pyproject.hpp), so no TOML type crosses a stage boundary.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace impact::config {

// [tool.pytest.ini_options] of the pyproject.toml at `path`, each key's value as words (a string split
// like a shell line, an array element by element); std::nullopt when there is no such file or table.
// Throws impact::Error on a syntax error, naming `display_name`, the line and the column.
std::optional<std::map<std::string, std::vector<std::string>>> pytest_ini_options(const std::filesystem::path& path,
                                                                                  const std::string& display_name);

// The modules of [project.entry-points.pytest11] (each entry point's part before ':'); empty when
// there is no such file or table. Throws impact::Error on a syntax error, as pytest_ini_options.
std::vector<std::string> pytest_entry_points(const std::filesystem::path& path, const std::string& display_name);

} // namespace impact::config
