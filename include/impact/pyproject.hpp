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

namespace impact::config {

// What a pyproject.toml says about its distribution and what it depends on, for the edges between
// the projects of a monorepo (docs/monorepo.md).
struct Distribution {
  std::string name; // [project] name (or [tool.poetry] name), normalised as PEP 503 does; "" when none
  // Every distribution it names as a dependency, normalised: [project] dependencies and
  // optional-dependencies, [dependency-groups], [tool.poetry] dependencies and its groups'.
  std::vector<std::string> requirements;
  // Path dependencies as written, relative to the file's folder: a `path` in [tool.uv.sources] or in
  // [tool.poetry] dependencies, and a "name @ file:..." requirement's path.
  std::vector<std::string> paths;
  std::vector<std::string> workspace_members; // [tool.uv.workspace] members (globs)
};

// The distribution declared by the pyproject.toml at `path`, or nullopt when there is no such file.
// Throws impact::Error on a syntax error, as pytest_ini_options.
std::optional<Distribution> read_distribution(const std::filesystem::path& path, const std::string& display_name);

// The distribution declared by the setup.cfg at `path` ([metadata] name; [options] install_requires,
// tests_require, setup_requires and [options.extras_require], one requirement a line), or nullopt when
// there is no such file. Throws impact::Error naming `display_name` when it cannot be read or parsed.
std::optional<Distribution> read_setup_cfg_distribution(const std::filesystem::path& path,
                                                        const std::string& display_name);

// One pip requirements file of a project: `requirements*.txt` in its folder, or any `*.txt` in its
// `requirements/` folder.
struct RequirementsFile {
  std::string display_name; // as given, with the file's name: "libs/b/requirements-dev.txt"
  std::string folder;       // the file's folder relative to the project: "" or "requirements"
  // The distributions it names (normalised) and the paths it installs, as written (`-e ../a`, `../a`,
  // `file:../a`, `name @ file:../a`; a file:// URL's path), without extras or markers.
  Distribution declared;
};

// The requirements files of the project in folder `dir` (absolute), sorted by name; `display_dir` is
// the project's folder as messages name it. `-r` and `-c` includes are not followed; options, URLs
// other than file: and comments name nothing. Throws impact::Error naming a file that cannot be read.
std::vector<RequirementsFile> read_requirements_files(const std::filesystem::path& dir, const std::string& display_dir);

// A distribution name as PEP 503 compares them: lowercase, each run of '-', '_' and '.' one '-'.
std::string normalise_distribution(std::string_view name);

} // namespace impact::config
