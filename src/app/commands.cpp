// The table of subcommands (commands.hpp): each one's name, help line, the options of impact it reads
// (listed in its --help) and its function, one file per subcommand (run_*.cpp).
#include "app/commands.hpp"

#include "impact/error.hpp"

#include <initializer_list>
#include <vector>

namespace impact::app {

// Defined in run_<subcommand>.cpp; each takes the parsed options and returns the exit code (or execs).
int run_selection(const cli::Options& options); // impact, and impact select (the dry run by its own name)
int run_audit(const cli::Options& options);
int run_changes(const cli::Options& options);
int run_explain(const cli::Options& options);
int run_config(const cli::Options& options);
int run_doctor(const cli::Options& options);
int run_facts(const cli::Options& options);
int run_index(const cli::Options& options);
int run_index_status(const cli::Options& options);
int run_index_merge(const cli::Options& options);
int run_install_hook(const cli::Options& options);
int run_projects(const cli::Options& options);
int run_durations(const cli::Options& options);
int run_cache(const cli::Options& options);
int run_cache_compact(const cli::Options& options);
// run_cache.cpp: `run` with --cache-pull before it and --cache-push after it.
int run_with_shared_cache(const cli::Options& options, int (*run)(const cli::Options&));

namespace {

using cli::Verb;

// The options the analysis of a change reads (analyse.cpp: the change, the mode, the index, the walk),
// and `more`.
std::vector<std::string_view> analysis_and(std::initializer_list<std::string_view> more) {
  std::vector<std::string_view> out{"--changed",   "--changed-strict", "--staged",    "--mode",      "--strict",   "--no-strict",
                                    "--file-level", "--no-index", "--use-index", "--ignore",   "--max-depth",
                                    "--budget-ms",  "--no-cache", "--jobs",      "-C",       "--project", "--include-failed"};
  out.insert(out.end(), more);
  return out;
}

// The shared cache's flags (docs/cache.md), read by the commands that analyse or run tests.
std::vector<std::string_view> with_cache(std::vector<std::string_view> reads) {
  reads.insert(reads.end(), {"--cache-remote", "--cache-pull", "--cache-push"});
  return reads;
}

const std::vector<cli::Subcommand>& table() {
  static const std::vector<cli::Subcommand> k_table = {
      {Verb::run, "", "", "", {}, run_selection},
      {Verb::changes, "", "changes", "Print the changed files and line ranges (stage 1), by project in a monorepo",
       {"--changed", "--staged", "--format", "-C"}, run_changes},
      {Verb::explain, "", "explain", "Say why a test or file is selected or skipped, within its project",
       analysis_and({"--format"}), run_explain},
      {Verb::config, "", "config", "Print every setting, its value and where it came from",
       {"--pytest-command", "--fallback-command", "--ignore", "--mode", "--strict", "--no-strict", "--no-index",
        "--use-index", "--format", "-C", "--cache-remote"},
       run_config},
      {Verb::doctor, "", "doctor", "Check the project's setup: imports, collection, pytest-cov, the index, files",
       {"--format", "--pytest-command", "--ignore", "--mode", "--no-cache", "--jobs", "-C", "--project"}, run_doctor},
      {Verb::facts, "", "facts", "Print what impact reads from one Python file (JSON)", {"-C"}, run_facts},
      {Verb::install_hook, "", "install-hook", "Write a git pre-commit hook that runs impact --staged", {"-C"},
       run_install_hook},
      {Verb::select, "", "select", "Print the decision and run nothing (--format json: a file for --impact)",
       with_cache(analysis_and({"--format", "--timings", "--output", "--impact", "--force", "--shard", "--pytest-command",
                                "--fallback-command"})),
       run_selection},
      {Verb::audit, "", "audit", "Run the whole suite once; report failing tests the selection skips",
       with_cache(analysis_and({"--format", "--impact", "--force", "--pytest-command"})), run_audit},
      {Verb::index, "", "index",
       "Build the coverage index by running the suite under coverage (in a monorepo: one per project)",
       with_cache({"--pytest-command", "--project", "-C"}), run_index},
      {Verb::index_status, "index", "status", "Say when and at which commit the index was built, and what drifted",
       {"--format", "--project", "-C"}, run_index_status},
      {Verb::index_merge, "index", "merge", "Union the indexes of the shards of one run", {"-C"}, run_index_merge},
      {Verb::projects, "", "projects", "List the pytest projects of a monorepo and where each was found",
       {"--format", "--project", "-C"}, run_projects},
      {Verb::durations, "", "durations", "Print the recorded test durations; --from imports a JUnit XML report",
       {"--format", "-C"}, run_durations},
      {Verb::cache, "", "cache", "The shared cache (docs/cache.md): impact cache compact", {"-C"}, run_cache},
      {Verb::cache_compact, "cache", "compact",
       "Fold the shared cache's segments into a new base and delete them (safe while others push)",
       {"--cache-remote", "-C"}, run_cache_compact},
  };
  return k_table;
}

} // namespace

std::span<const cli::Subcommand> subcommands() { return table(); }

int run_command(const cli::Options& options) {
  for (const auto& s : table()) {
    if (s.verb == options.verb) return run_with_shared_cache(options, s.run);
  }
  throw Error("no subcommand for this command line; please report it with the command that caused it");
}

} // namespace impact::app
