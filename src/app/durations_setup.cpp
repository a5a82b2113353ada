#include "app/durations_setup.hpp"

#include "impact/error.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace impact::app {

namespace {

// Programs known to hand their environment to the pytest they start unchanged: Python and pytest
// themselves, and the project runners. A wrapper script could export a PYTHONPATH of its own while
// keeping PYTEST_PLUGINS, and pytest would then fail to import the plugin: such programs go without.
bool passes_environment(const std::string& program) {
  std::string name = std::filesystem::path(program).filename().string();
  if (name.starts_with("python") || name.starts_with("pytest") || name == "py.test") return true;
  for (const char* runner : {"uv", "uvx", "poetry", "pipenv", "hatch", "pdm", "rye", "coverage", "conda"}) {
    if (name == runner) return true;
  }
  return false;
}

} // namespace

bool records_durations(const Command& pytest, const EnvLookup& env, bool no_cache) {
  if (no_cache || pytest.argv.empty() || !passes_environment(pytest.argv.front())) return false;
  if (auto off = env("IMPACT_NO_DURATIONS"); off && !off->empty() && *off != "0") return false;
  for (const auto& word : pytest.argv) {
    // Its own PYTHONPATH, or an interpreter that ignores PYTHONPATH (-I isolated, -E).
    if (word.starts_with("PYTHONPATH=") || word == "-I" || word == "-E") return false;
  }
  return true;
}

EnvPairs exec_durations_env(const std::filesystem::path& root, const std::filesystem::path& cache, const EnvLookup& env,
                            bool reorder, std::vector<std::string>& warnings) {
  try {
    util::ensure_cache_dir(cache);
    auto dir = durations_plugin_dir(cache);
    auto module = dir / (std::string(k_durations_plugin_module) + ".py");
    if (util::read_file(module) != std::optional<std::string>(durations_plugin_source())) {
      std::filesystem::create_directories(dir);
      util::write_file_atomic(module, durations_plugin_source());
    }
    return durations_plugin_env(dir, durations_inbox(cache), root, env("PYTHONPATH").value_or(""),
                                env("PYTEST_PLUGINS").value_or(""), reorder ? durations_file(cache) : std::filesystem::path());
  } catch (const std::exception& e) { // Error, or filesystem_error from create_directories
    warnings.push_back(fmt::format("test durations are not recorded: {}", e.what()));
    return {};
  }
}

TempDurationsPlugin::TempDurationsPlugin(const std::filesystem::path& root, const std::filesystem::path& cache)
    : m_inbox(durations_inbox(cache)), m_root(root) {
  try {
    // The inbox is made by the plugin; the folder above it must carry its .gitignore first, or git
    // (and so the next analysis) would see the cache as an untracked change.
    util::ensure_cache_dir(cache);
    m_folder.emplace("impact-durations", k_durations_plugin_module, durations_plugin_source());
  } catch (const Error& e) {
    fmt::print(stderr, "impact: warning: test durations are not recorded: {}\n", util::one_line(e.what()));
  }
}

EnvPairs TempDurationsPlugin::env(const std::string& pythonpath, const EnvLookup& env) const {
  if (!m_folder) return {};
  return durations_plugin_env(m_folder->path(), m_inbox, m_root, pythonpath, env("PYTEST_PLUGINS").value_or(""));
}

std::string value_in(const EnvPairs& pairs, const std::string& name, const std::string& fallback) {
  for (const auto& [n, v] : pairs) {
    if (n == name) return v;
  }
  return fallback;
}

void set_in(EnvPairs& pairs, const std::string& name, const std::string& value) {
  for (auto& [n, v] : pairs) {
    if (n == name) {
      v = value;
      return;
    }
  }
  pairs.emplace_back(name, value);
}

Durations recorded_durations(const std::filesystem::path& cache) {
  std::vector<std::string> warnings;
  Durations out;
  try {
    out = load_durations(cache, warnings);
  } catch (const Error& e) {
    warnings.push_back(fmt::format("{}; the durations recorded since are kept for the next run", e.what()));
  }
  for (const auto& w : warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  return out;
}

} // namespace impact::app

namespace impact::app {

void merge_pending_durations(const std::filesystem::path& cache) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(durations_inbox(cache), ec)) {
    auto name = entry.path().filename().string();
    if (name.starts_with("run-") && name.ends_with(".json")) {
      recorded_durations(cache);
      return;
    }
  }
}

} // namespace impact::app
