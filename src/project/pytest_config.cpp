// Finding and reading pytest's ini section, as pytest 7 does from the repository root.
#include "impact/error.hpp"
#include "impact/project.hpp"
#include "impact/pyproject.hpp"
#include "project/ini_section.hpp"
#include "util/files.hpp"
#include "util/ini.hpp"

#include <sstream>

namespace impact {

namespace {

// [tool.pytest.ini_options] of the pyproject.toml at `path` into `out`; false when it has none.
bool read_pyproject_section(const std::filesystem::path& path, const std::string& name, IniSection& out) {
  auto options = config::pytest_ini_options(path, name);
  if (!options) return false;
  for (auto& [key, words] : *options) out.values[key] = std::move(words);
  return true;
}

bool read_ini_section(const util::IniFile& ini, const std::string& section, IniSection& out) {
  const auto* values = ini.section(section);
  if (values == nullptr) return false;
  for (const auto& [key, value] : *values) out.values[key] = util::shell_split(value);
  return true;
}

util::IniFile parse_ini_file(const std::filesystem::path& path, const std::string& name) {
  auto text = util::read_config_file(path, name);
  if (!text) throw Error("cannot read {}", name);
  std::string error;
  auto ini = util::parse_ini(*text, error);
  if (!ini) throw Error("{}: {}; fix the file so that pytest can read it too", name, error);
  return *ini;
}

void read_setup_cfg_entry_points(const util::IniFile& ini, std::vector<std::string>& out) {
  const auto* options = ini.section("options.entry_points");
  if (options == nullptr) return;
  auto it = options->find("pytest11");
  if (it == options->end()) return;
  std::istringstream lines(it->second);
  for (std::string line; std::getline(lines, line);) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto words = util::shell_split(line.substr(eq + 1));
    if (!words.empty()) out.push_back(words[0].substr(0, words[0].find(':')));
  }
}

} // namespace

std::string repo_relative(const std::filesystem::path& repo_root, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_absolute()) p = p.lexically_relative(repo_root);
  std::string s = p.lexically_normal().generic_string();
  while (s.ends_with('/')) s.pop_back();
  return s == "." ? std::string() : s;
}

namespace {

// The configuration file of folder `dir` (repo-relative), in pytest's order, if it has one.
bool find_in(const std::filesystem::path& repo_root, const std::string& dir, IniSection& out) {
  std::filesystem::path base = repo_root / dir;
  auto name_of = [&](const char* file) { return dir.empty() ? std::string(file) : dir + "/" + file; };
  for (const char* name : {"pytest.ini", ".pytest.ini"}) {
    if (!std::filesystem::exists(base / name)) continue;
    read_ini_section(parse_ini_file(base / name, name_of(name)), "pytest", out);
    out.inifile = name_of(name); // pytest.ini counts even without a [pytest] section
    return true;
  }
  if (read_pyproject_section(base / "pyproject.toml", name_of("pyproject.toml"), out)) {
    out.inifile = name_of("pyproject.toml");
    return true;
  }
  if (std::filesystem::exists(base / "tox.ini") &&
      read_ini_section(parse_ini_file(base / "tox.ini", name_of("tox.ini")), "pytest", out)) {
    out.inifile = name_of("tox.ini");
    return true;
  }
  if (std::filesystem::exists(base / "setup.cfg") &&
      read_ini_section(parse_ini_file(base / "setup.cfg", name_of("setup.cfg")), "tool:pytest", out)) {
    out.inifile = name_of("setup.cfg");
    return true;
  }
  return false;
}

} // namespace

std::string pytest_config_file(const std::filesystem::path& root, const std::string& dir) {
  IniSection section;
  return find_in(root, dir, section) ? section.inifile : std::string();
}

IniSection find_ini_section(const std::filesystem::path& repo_root, const std::string& start) {
  IniSection out;
  for (std::string dir = start;;) {
    if (find_in(repo_root, dir, out)) {
      out.dir = dir;
      return out;
    }
    if (dir.empty()) return out;
    auto slash = dir.rfind('/');
    dir = slash == std::string::npos ? std::string() : dir.substr(0, slash);
  }
}

IniSection read_named_ini_section(const std::filesystem::path& repo_root, const std::string& file) {
  IniSection out;
  out.inifile = repo_relative(repo_root, file);
  std::filesystem::path path = std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : repo_root / file;
  out.dir = repo_relative(repo_root, path.parent_path().string());
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw Error("{} (named by -c or --config-file): no such file; fix the path, as pytest would stop too", file);
  }
  std::string name = file + " (named by -c)";
  std::string suffix = path.extension().string();
  if (suffix == ".ini") read_ini_section(parse_ini_file(path, name), "pytest", out);
  else if (suffix == ".cfg") read_ini_section(parse_ini_file(path, name), "tool:pytest", out);
  else if (suffix == ".toml") {
    read_pyproject_section(path, name, out);
  }
  return out;
}

std::vector<std::string> declared_entry_points(const std::filesystem::path& repo_root) {
  std::vector<std::string> out = config::pytest_entry_points(repo_root / "pyproject.toml", "pyproject.toml");
  if (std::filesystem::exists(repo_root / "setup.cfg")) {
    read_setup_cfg_entry_points(parse_ini_file(repo_root / "setup.cfg", "setup.cfg"), out);
  }
  return out;
}

} // namespace impact
