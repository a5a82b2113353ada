// read_pytest_config: the ini section with pytest's arguments applied, in pytest 7's order
// (Config._preparse): PYTEST_ADDOPTS and the command line name the ini file (-c), the rootdir
// (--rootdir) and the overrides (-o) first; then the ini file's addopts come before them all, and that
// whole argv says which plugins load, what is ignored and which paths are collected.
#include "impact/error.hpp"
#include "impact/project.hpp"
#include "impact/node_id.hpp"
#include "project/ini_section.hpp"
#include "impact/project/pytest_args.hpp"
#include "util/ini.hpp"

#include <optional>

namespace impact {

namespace {

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

// The path part of a positional argument: a node id's file, as pytest's get_file_part_from_node_id.
std::string file_part(const std::string& arg) { return std::string(NodeId::of(arg).file); }

// What the whole argv says about collection and plugins.
void apply_args(PytestConfig& config, const std::filesystem::path& repo_root) {
  PytestArgs args = parse_pytest_args(config.addopts);
  config.doctest_modules = args.doctest_modules;
  if (!args.doctest_globs.empty()) config.doctest_globs = args.doctest_globs; // any replaces the default
  config.pyargs = args.pyargs;
  // --ignore and --ignore-glob are resolved against the folder pytest runs in (the root).
  for (const auto& p : args.ignore) config.ignore_paths.push_back(repo_relative(repo_root, p));
  for (const auto& g : args.ignore_glob) {
    config.ignore_globs.push_back(std::filesystem::path(g).is_absolute() ? repo_relative(repo_root, g) : g);
  }
  for (const auto& arg : args.positional) {
    std::string path = file_part(arg);
    if (!path.empty()) config.arg_paths.push_back(args.pyargs ? path : repo_relative(repo_root, path));
  }
  config.unknown_options = std::move(args.unknown_options);
  config.plugins = pytest_plugin_args(config.addopts);
}

void add_env_plugins(PytestConfig& config, const std::string& env_plugins) {
  for (size_t start = 0; start < env_plugins.size();) {
    size_t comma = env_plugins.find(',', start);
    auto words = util::shell_split(env_plugins.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!words.empty()) config.plugins.push_back(words.front());
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

// Where pytest starts looking for its ini file: the common ancestor of the folders of the path
// arguments that exist (determine_setup), the root when there are none. A path outside the
// repository leaves the search at the root.
std::string search_start(const std::filesystem::path& repo_root, const std::vector<std::string>& positional) {
  std::optional<std::string> common;
  for (const auto& arg : positional) {
    std::string path = repo_relative(repo_root, file_part(arg));
    if (path.starts_with("..")) return std::string();
    std::error_code ec;
    auto status = std::filesystem::status(repo_root / path, ec);
    if (ec || !std::filesystem::exists(status)) continue;
    std::string dir = std::filesystem::is_directory(status) ? path : repo_relative(repo_root, path + "/..");
    if (!common) {
      common = dir;
      continue;
    }
    while (!common->empty() && !RepoPath(dir).is_within(*common)) {
      auto slash = common->rfind('/');
      *common = slash == std::string::npos ? std::string() : common->substr(0, slash);
    }
  }
  return common.value_or(std::string());
}

} // namespace

PytestConfig read_pytest_config(const std::filesystem::path& repo_root, const PytestInvocation& invocation) {
  // 1. What pytest reads before the ini file: PYTEST_ADDOPTS, then the command line.
  std::vector<std::string> early = util::shell_split(invocation.env_addopts);
  early.insert(early.end(), invocation.command_args.begin(), invocation.command_args.end());
  PytestArgs first = parse_pytest_args(early);
  if (!first.malformed_overrides.empty()) {
    throw Error("-o/--override-ini expects option=value, got '{}' (in PYTEST_ADDOPTS or the pytest arguments); "
                "write it as -o NAME=VALUE, as pytest stops on it too",
                first.malformed_overrides.front());
  }
  // 2. The ini file, and -o over its values (the last -o of a name wins).
  IniSection ini = first.config_file ? read_named_ini_section(repo_root, *first.config_file)
                                     : find_ini_section(repo_root, search_start(repo_root, first.positional));
  for (const auto& [key, value] : first.overrides) ini.values[key] = util::shell_split(value);
  PytestConfig config;
  config.inifile = ini.inifile;
  for (const auto& [key, words] : ini.values) {
    apply(config, key, words);
    config.values.insert(config.values.end(), words.begin(), words.end());
  }
  config.entry_point_plugins = declared_entry_points(repo_root);
  // 3. The rootdir: --rootdir, else the ini file's folder (the root when there is none).
  config.rootdir = first.rootdir ? repo_relative(repo_root, *first.rootdir) : ini.dir;
  // 4. The whole argv: the ini file's addopts (as -o left them), PYTEST_ADDOPTS, the command line.
  config.addopts.insert(config.addopts.end(), early.begin(), early.end());
  apply_args(config, repo_root);
  add_env_plugins(config, invocation.env_plugins);
  // pythonpath entries are relative to the ini file's folder.
  for (auto& p : config.pythonpath) p = repo_relative(repo_root, (std::filesystem::path(ini.dir) / p).string());
  return config;
}

PytestConfig read_pytest_config(const std::filesystem::path& repo_root, const std::string& env_addopts,
                                const std::string& env_plugins) {
  return read_pytest_config(repo_root, PytestInvocation{env_addopts, env_plugins, {}});
}

} // namespace impact
