// The shared cache around a command (--cache-pull before it, --cache-push after it) and `impact cache
// compact` (docs/cache.md, "The shared cache").
#include "app/cache_remote.hpp"
#include "app/commands.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "impact/run/durations.hpp"
#include "impact/run/flakes.hpp"
#include "util/cache_dir.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <chrono>

namespace impact::app {

namespace {

void print_warnings(const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
}

// The shared cache's folder, from --cache-remote, IMPACT_CACHE_REMOTE or [tool.impact] cache-remote.
std::filesystem::path remote_of(const ImpactConfig& config, const char* needed_by) {
  if (!config.cache_remote.is_set()) {
    throw Error("{} needs the shared cache's folder; pass --cache-remote DIR, or set IMPACT_CACHE_REMOTE or "
                "[tool.impact] cache-remote",
                needed_by);
  }
  return config.cache_remote.value;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int run_with_shared_cache(const cli::Options& options, int (*run)(const cli::Options&)) {
  if (!options.cache_pull && !options.cache_push) return run(options);
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  std::filesystem::path remote = remote_of(config, options.cache_pull ? "--cache-pull" : "--cache-push");
  std::filesystem::path cache = util::cache_dir(repo->root(), env);
  if (options.cache_pull) {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::string> warnings;
    PullSummary pulled = pull_remote(remote, cache, warnings);
    print_warnings(warnings);
    fmt::print(stderr, "impact: shared cache: pulled {}{} segment(s) from {}: {} duration(s) and {} facts entry(ies) new{}{} ({:.0f} ms)\n",
               pulled.base ? "the base and " : "", pulled.segments, util::quote_name(remote.string()), pulled.durations,
               pulled.facts, pulled.indexes > 0 ? fmt::format(", {} coverage index(es) unioned", pulled.indexes) : "",
               pulled.flakes > 0 ? fmt::format(", flaky passes of {} test(s) added", pulled.flakes) : "", ms_since(start));
  }
  // The flaky passes flakes.json holds before the run, with earlier runs' files merged: what it gains from
  // now on is this run's to push.
  Flakes flakes_before;
  if (options.cache_push) {
    std::vector<std::string> warnings;
    load_durations(cache, warnings);
    flakes_before = load_flakes(cache, warnings);
    print_warnings(warnings);
  }
  // What the run measures or builds from now on is this run's (after the pull: what it wrote is not).
  std::string since = utc_now();
  int code = run(options);
  if (!options.cache_push) return code;
  try {
    std::vector<std::string> warnings;
    PushSummary pushed = push_segment(remote, cache, since, flakes_before, warnings);
    print_warnings(warnings);
    if (pushed.id.empty()) fmt::print(stderr, "impact: shared cache: nothing new to push\n");
    else {
      fmt::print(stderr, "impact: shared cache: pushed segment {} ({} duration(s), {} facts entry(ies){}{})\n", pushed.id,
                 pushed.durations, pushed.facts, pushed.coverage ? ", the coverage index" : "",
                 pushed.flakes > 0 ? fmt::format(", flaky passes of {} test(s)", pushed.flakes) : "");
    }
  } catch (const Error& e) {
    // The tests ran: their outcome is the exit code; a lost segment costs the next job time, not results.
    fmt::print(stderr, "impact: warning: shared cache: nothing pushed: {}\n", util::one_line(e.what()));
  }
  return code;
}

int run_cache(const cli::Options&) {
  throw Error("impact cache needs a subcommand: compact (impact cache compact --cache-remote DIR)");
}

int run_cache_compact(const cli::Options& options) {
  // A compaction job needs no checkout when the flag names the folder.
  std::filesystem::path remote;
  if (options.config.cache_remote) {
    remote = *options.config.cache_remote;
  } else {
    EnvLookup env = process_env();
    auto repo = open_git_repository(options.directory, env);
    remote = remote_of(load_impact_config(repo->root(), env, options.config), "impact cache compact");
  }
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> warnings;
  CompactSummary done = compact_remote(remote, warnings);
  print_warnings(warnings);
  for (const auto& file : done.pruned) fmt::print("{}\n", file); // for a sync to object storage to delete too
  fmt::print(stderr, "impact: shared cache: compacted {} segment(s) into {} ({} duration(s), {} facts entry(ies), "
                     "flaky passes of {} test(s); {} segment(s) skipped) in {:.0f} ms\n",
             done.absorbed, util::quote_name(remote_base(remote).string()), done.durations, done.facts, done.flakes,
             done.skipped, ms_since(start));
  return 0;
}

} // namespace impact::app
