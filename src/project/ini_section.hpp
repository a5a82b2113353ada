#pragma once
// pytest's ini section, found and read as pytest 7 does, before any argument is applied to it.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace impact {

// The pytest section of one configuration file: each key's value split into words (an ini value like
// a shell line, a TOML array element by element), and where the file is.
struct IniSection {
  std::string inifile; // repo-relative ("" when there is none; absolute when -c names a file outside)
  std::string dir;     // the file's folder, repo-relative: pytest resolves `pythonpath` against it
  std::map<std::string, std::vector<std::string>> values;
};

// pytest.ini, .pytest.ini, pyproject.toml with [tool.pytest.ini_options], tox.ini with [pytest],
// setup.cfg with [tool:pytest]: the first in folder `start` (repo-relative), else in the folders
// above it up to the root, as pytest's locate_config walks up from the common ancestor of its path
// arguments. Throws impact::Error on a malformed file.
IniSection find_ini_section(const std::filesystem::path& repo_root, const std::string& start = "");

// The file `-c FILE` names (relative to the root, where pytest runs), read by its suffix as pytest
// does: `.ini` [pytest], `.cfg` [tool:pytest], `.toml` [tool.pytest.ini_options]; no section, or another
// suffix, is an empty configuration. Throws impact::Error when the file cannot be read or is malformed.
IniSection read_named_ini_section(const std::filesystem::path& repo_root, const std::string& file);

// Modules of the `pytest11` entry points the project declares (pyproject.toml, setup.cfg).
std::vector<std::string> declared_entry_points(const std::filesystem::path& repo_root);

// `path` as pytest, run from the root, reads it: repo-relative and normalised ("" for the root); an
// absolute path inside the repository is made relative, one outside keeps its "../" steps.
std::string repo_relative(const std::filesystem::path& repo_root, const std::string& path);

} // namespace impact
