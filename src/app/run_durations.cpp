// `impact durations`: what the cache recorded (docs/cache.md), and `--from junit.xml` to import a
// JUnit XML report's durations into it.
#include "app/durations_setup.hpp"
#include "cli/options.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/error.hpp"
#include "impact/run/shards.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace impact::app {

namespace {

std::string render_text(const Durations& durations) {
  if (durations.empty()) {
    return "no durations recorded yet: run the tests through impact (impact, impact audit, impact index), or import a "
           "JUnit XML report with impact durations --from junit.xml\n";
  }
  std::vector<std::pair<std::string, DurationRecord>> rows(durations.begin(), durations.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  double total = 0;
  for (const auto& [id, r] : rows) total += r.seconds;
  std::string out = fmt::format("{} test(s), {:.2f} s in all, median {:.3f} s\n", rows.size(), total,
                                median_seconds(durations));
  for (const auto& [id, r] : rows) out += fmt::format("{:10.3f} s  {}  ({})\n", r.seconds, id, r.at);
  return out;
}

} // namespace

int run_durations(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  auto cache = util::cache_dir(repo->root(), env);
  Durations durations = recorded_durations(cache);
  if (!options.from.empty()) {
    std::filesystem::path from(options.from);
    if (from.is_relative()) from = options.directory / from;
    std::string name = util::quote_name(options.from);
    std::error_code ec;
    auto text = std::filesystem::is_regular_file(from, ec) ? util::read_file(from) : std::nullopt;
    if (!text) throw Error("{}: no such file, or not readable; pass the JUnit XML file pytest wrote (--junitxml)", name);
    // The report's own time is local and optional; when the file was written is neither.
    Durations imported = parse_junit(*text, name, repo->root(), utc_of(std::filesystem::last_write_time(from, ec)));
    merge_durations(durations, imported);
    util::ensure_cache_dir(cache);
    save_durations(cache, durations);
    fmt::print(stderr, "impact: durations: imported {} test(s) from {} into {}\n", imported.size(), name,
               util::quote_name(durations_file(cache).string()));
    return 0;
  }
  if (options.format == cli::Format::json) fmt::print("{}", render_durations(durations));
  else fmt::print("{}", render_text(durations));
  return 0;
}

} // namespace impact::app
