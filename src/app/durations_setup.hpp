#pragma once
// Loading impact's durations plugin into the pytest runs impact starts (docs/cache.md): for the run
// that execs pytest, the plugin's module lives in the cache folder (it must outlive impact); for the
// runs impact waits for (audit, index), in a temporary folder outside the repository, which coverage.py
// would otherwise measure. Recording durations never stops a run: every failure here is a warning.
#include "app/plugin_folder.hpp"
#include "impact/run.hpp"
#include "impact/run/durations.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace impact::app {

using EnvPairs = std::vector<std::pair<std::string, std::string>>;

// Whether durations are recorded for runs of `pytest`: not with --no-cache (`no_cache`), not when
// IMPACT_NO_DURATIONS is set (to anything but "" or "0"), only for a program known to pass the
// environment through (python*, pytest*, uv, poetry, ...: not a wrapper script), and not for a command
// that sets PYTHONPATH itself (`env PYTHONPATH=src pytest`) or a Python that ignores it (-I, -E), which
// would hide the plugin's folder from the import that PYTEST_PLUGINS asks for.
bool records_durations(const Command& pytest, const EnvLookup& env, bool no_cache);

// The environment that loads the plugin into the pytest impact execs in the repository at `root`:
// writes the module into <cache>/plugin/ when it is missing or differs. With `reorder` the plugin also
// orders the run (last failures first, then the longest first; off with --no-reorder). Empty (and a
// line in `warnings`) when the cache folder cannot be written.
EnvPairs exec_durations_env(const std::filesystem::path& root, const std::filesystem::path& cache, const EnvLookup& env,
                            bool reorder, std::vector<std::string>& warnings);

// The plugin in a temporary folder, for a run impact waits for.
class TempDurationsPlugin {
public:
  // Writes the module; when it cannot, env() is empty. pytest runs in `root`.
  TempDurationsPlugin(const std::filesystem::path& root, const std::filesystem::path& cache);
  // The environment that loads it, its folder in front of `pythonpath`.
  EnvPairs env(const std::string& pythonpath, const EnvLookup& env) const;

private:
  std::optional<PluginFolder> m_folder;
  std::filesystem::path m_inbox;
  std::filesystem::path m_root;
};

// `name`'s value in `pairs`, or `fallback`.
std::string value_in(const EnvPairs& pairs, const std::string& name, const std::string& fallback);
// Sets `name` in `pairs`, replacing its value when it is there.
void set_in(EnvPairs& pairs, const std::string& name, const std::string& value);

// The cache's durations, the plugin's inbox merged in; each warning printed on stderr.
Durations recorded_durations(const std::filesystem::path& cache);

// Merges what the plugin recorded since the last merge into durations.json, when it recorded anything:
// at a run's start, so that the inbox holds at most the runs since the last one.
void merge_pending_durations(const std::filesystem::path& cache);

} // namespace impact::app
