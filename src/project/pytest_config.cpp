// Finding and reading pytest's configuration, as pytest 7 does from the repository root.
#include "config/pyproject.hpp"
#include "impact/error.hpp"
#include "impact/project.hpp"
#include "util/files.hpp"
#include "util/ini.hpp"

#include <sstream>

namespace impact {

namespace {

// ini values are whitespace-separated lists; pyproject values are arrays or strings.
std::vector<std::string> split_words(const std::string& value) { return util::shell_split(value); }

std::vector<std::string> toml_list(const toml::node& node) {
  std::vector<std::string> out;
  if (auto s = node.value<std::string>()) return split_words(*s);
  if (const auto* array = node.as_array()) {
    for (const auto& element : *array) {
      if (auto s = element.value<std::string>()) out.push_back(*s);
    }
  }
  return out;
}

void apply(PytestConfig& config, const std::string& key, const std::vector<std::string>& words) {
  if (key == "testpaths") config.testpaths = words;
  else if (key == "python_files") config.python_files = words;
  else if (key == "python_classes") config.python_classes = words;
  else if (key == "python_functions") config.python_functions = words;
  else if (key == "pythonpath") config.pythonpath = words;
  else if (key == "norecursedirs") config.norecursedirs = words;
  else if (key == "addopts") config.addopts = words;
  else if (key == "usefixtures") config.usefixtures = words;
}

std::string join_dir(const std::string& dir, const std::string& rel) {
  std::filesystem::path p = std::filesystem::path(dir) / rel;
  std::string s = p.lexically_normal().generic_string();
  while (s.ends_with('/')) s.pop_back();
  return s == "." ? std::string() : s;
}

// Reads what matters in addopts (and PYTEST_ADDOPTS).
void read_addopts(PytestConfig& config) {
  const auto& args = config.addopts;
  bool own_globs = false; // the first --doctest-glob replaces pytest's default
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value_of = [&](std::string_view flag) -> std::optional<std::string> {
      if (a == flag && i + 1 < args.size()) return args[++i];
      if (a.starts_with(std::string(flag) + "=")) return a.substr(flag.size() + 1);
      return std::nullopt;
    };
    if (a == "--doctest-modules") {
      config.doctest_modules = true;
    } else if (a.starts_with("-p") && a != "-p" && !a.starts_with("-p=")) {
      if (!a.starts_with("-pno:")) config.plugins.push_back(a.substr(2));
    } else if (auto p = value_of("-p")) {
      if (!p->starts_with("no:")) config.plugins.push_back(*p); // -p no:NAME disables a plugin
    } else if (auto ig = value_of("--ignore")) {
      config.ignore_paths.push_back(join_dir(config.rootdir, *ig));
    } else if (auto glob = value_of("--ignore-glob")) {
      config.ignore_globs.push_back(*glob);
    } else if (auto doctest = value_of("--doctest-glob")) {
      if (!own_globs) config.doctest_globs.clear();
      own_globs = true;
      config.doctest_globs.push_back(*doctest);
    }
  }
}

void read_entry_points(const toml::table& pyproject, PytestConfig& config) {
  const toml::node* eps = pyproject.at_path("project.entry-points.pytest11").node();
  if (const auto* table = eps != nullptr ? eps->as_table() : nullptr) {
    for (const auto& [name, value] : *table) {
      if (auto s = value.value<std::string>()) config.entry_point_plugins.push_back(s->substr(0, s->find(':')));
    }
  }
}

bool read_pyproject_section(const toml::table& pyproject, PytestConfig& config) {
  const toml::node* section = pyproject.at_path("tool.pytest.ini_options").node();
  const auto* table = section != nullptr ? section->as_table() : nullptr;
  if (table == nullptr) return false;
  for (const auto& [key, value] : *table) {
    auto words = toml_list(value);
    apply(config, std::string(key.str()), words);
    for (auto& w : words) config.values.push_back(w);
  }
  return true;
}

bool read_ini_section(const util::IniFile& ini, const std::string& section, PytestConfig& config) {
  const auto* values = ini.section(section);
  if (values == nullptr) return false;
  for (const auto& [key, value] : *values) {
    auto words = split_words(value);
    apply(config, key, words);
    for (auto& w : words) config.values.push_back(w);
  }
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

void read_setup_cfg_entry_points(const util::IniFile& ini, PytestConfig& config) {
  const auto* options = ini.section("options.entry_points");
  if (options == nullptr) return;
  auto it = options->find("pytest11");
  if (it == options->end()) return;
  std::istringstream lines(it->second);
  for (std::string line; std::getline(lines, line);) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto words = util::shell_split(line.substr(eq + 1));
    if (!words.empty()) config.entry_point_plugins.push_back(words[0].substr(0, words[0].find(':')));
  }
}

} // namespace

PytestConfig read_pytest_config(const std::filesystem::path& repo_root, const std::string& env_addopts,
                                const std::string& env_plugins) {
  PytestConfig config;
  std::optional<toml::table> pyproject = config::read_pyproject(repo_root / "pyproject.toml", "pyproject.toml");
  bool found = false;
  for (const char* name : {"pytest.ini", ".pytest.ini"}) {
    if (found || !std::filesystem::exists(repo_root / name)) continue;
    auto ini = parse_ini_file(repo_root / name, name);
    read_ini_section(ini, "pytest", config);
    config.inifile = name; // pytest.ini counts even without a [pytest] section
    found = true;
  }
  if (!found && pyproject && read_pyproject_section(*pyproject, config)) {
    config.inifile = "pyproject.toml";
    found = true;
  }
  if (!found && std::filesystem::exists(repo_root / "tox.ini")) {
    auto ini = parse_ini_file(repo_root / "tox.ini", "tox.ini");
    if (read_ini_section(ini, "pytest", config)) {
      config.inifile = "tox.ini";
      found = true;
    }
  }
  std::optional<util::IniFile> setup_cfg;
  if (std::filesystem::exists(repo_root / "setup.cfg")) setup_cfg = parse_ini_file(repo_root / "setup.cfg", "setup.cfg");
  if (!found && setup_cfg && read_ini_section(*setup_cfg, "tool:pytest", config)) {
    config.inifile = "setup.cfg";
    found = true;
  }
  if (pyproject) read_entry_points(*pyproject, config);
  if (setup_cfg) read_setup_cfg_entry_points(*setup_cfg, config);
  for (auto& word : util::shell_split(env_addopts)) config.addopts.push_back(word);
  read_addopts(config);
  for (size_t start = 0; start < env_plugins.size();) {
    size_t comma = env_plugins.find(',', start);
    auto words = util::shell_split(env_plugins.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!words.empty()) config.plugins.push_back(words.front());
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (auto& p : config.pythonpath) p = join_dir(config.rootdir, p);
  return config;
}

} // namespace impact
