#pragma once
#ifdef IMPACT_FORBID_RUN // defined for the stages that may not use run (src/CMakeLists.txt)
#error "this stage may not use run (docs/architecture.md, allowed edges)"
#endif
// Per-test durations (set-up + call + teardown, in seconds), recorded by impact's pytest plugin into
// the cache folder and merged there into durations.json (docs/cache.md): newest value per test by the
// UTC time of the run that measured it, so that a filtered run updates only the tests it ran.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// One test's last known duration and when the run that measured it started (UTC, ISO 8601 with
// microseconds and a Z: such times order as strings).
struct DurationRecord {
  double seconds = 0;
  std::string at;

  bool operator==(const DurationRecord&) const = default;
};

// Durations by repository-relative node id.
using Durations = std::map<std::string, DurationRecord>;

// The files of the cache folder `cache` that hold durations: the merged file, the folder the plugin
// writes one file per pytest process into, and the folder of the plugin's module.
std::filesystem::path durations_file(const std::filesystem::path& cache);
std::filesystem::path durations_inbox(const std::filesystem::path& cache);
std::filesystem::path durations_plugin_dir(const std::filesystem::path& cache);

// Folds `incoming` into `into`: per test, the record with the later `at` wins; on a tie, `incoming`.
void merge_durations(Durations& into, const Durations& incoming);

// durations.json's text, and back. parse_durations throws impact::Error naming `name`.
std::string render_durations(const Durations& durations);
Durations parse_durations(std::string_view text, const std::string& name);

// What one pytest process wrote into the inbox ({"at", "tests": {id: seconds}}), as records. Throws
// impact::Error naming `name` when it is not such a file.
Durations parse_run_file(std::string_view text, const std::string& name);

// The cache's durations: durations.json with every file of the inbox merged in. When the inbox held
// any (or durations.json could not be read), writes durations.json again (temp file and rename) and removes the files it merged;
// the files' flaky passes are added to flakes.json first (flakes.hpp). A file that
// cannot be read is skipped (and removed, for a run file) with a line in `warnings`; never throws for
// the cache's content, only when durations.json or flakes.json cannot be written.
Durations load_durations(const std::filesystem::path& cache, std::vector<std::string>& warnings);

// Writes `durations` as the cache's durations.json (temp file and rename). Throws impact::Error.
void save_durations(const std::filesystem::path& cache, const Durations& durations);

// The tests of a JUnit XML report (<testcase classname name time [file]>) as records measured `at`.
// A classname is read as a dotted module path then classes: the longest prefix that names a file
// under `root` is the file ("tests.test_a.TestX" + "test_y" -> tests/test_a.py::TestX::test_y).
// Throws impact::Error "<name>: <problem>; <fix>" when the file is not such a report.
Durations parse_junit(std::string_view text, const std::string& name, const std::filesystem::path& root,
                      const std::string& at);

// One test case of a JUnit XML report: passed, failed, error or skipped (the worst of its entries),
// and its time in seconds (summed over its entries).
struct JunitCase {
  std::string outcome;
  double seconds = 0;
};

// The test cases of a JUnit XML report by node id, read as parse_junit reads them.
std::map<std::string, JunitCase> parse_junit_cases(std::string_view text, const std::string& name,
                                                   const std::filesystem::path& root);

// Now, as DurationRecord::at writes it. And a file's modification time the same way.
std::string utc_now();
std::string utc_of(const std::filesystem::file_time_type& time);

// The plugin module (impact_durations.py) the runs load, and the environment that loads it: its
// folder in front of `pythonpath`, its name added to `pytest_plugins` (PYTEST_PLUGINS), the inbox it
// writes to, and the folder pytest is started in (`root`): a pytest that inherits the environment
// but starts elsewhere (a test that runs pytest on a project of its own) records nothing. A non-empty
// `order_durations` (the cache's durations.json) turns the run order on (IMPACT_ORDER_DURATIONS;
// docs/cache.md, "Run order"): last failures first, then the longest first.
extern const char* const k_durations_plugin_module;
const char* durations_plugin_source();
std::vector<std::pair<std::string, std::string>> durations_plugin_env(const std::filesystem::path& plugin_dir,
                                                                      const std::filesystem::path& inbox,
                                                                      const std::filesystem::path& root,
                                                                      const std::string& pythonpath,
                                                                      const std::string& pytest_plugins,
                                                                      const std::filesystem::path& order_durations = {});

} // namespace impact
