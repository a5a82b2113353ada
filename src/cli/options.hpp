#pragma once
// The command line, parsed and validated into Options. The one place that knows flag names and defaults.
#include "impact/config.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace impact::cli {

// Which subcommand a command line names (run: none, `impact` alone). Each is declared once, with its
// name, help and handler, in app's table (app/commands.cpp).
enum class Verb {
  run, changes, explain, config, facts, index, index_status, index_merge, install_hook, select, audit, doctor,
  projects, durations, cache, cache_compact
};

enum class Format { text, json };

// --output: extra renderings of the decision for where impact runs (github: workflow annotations).
enum class Output { plain, github };

struct Options {
  Verb verb = Verb::run;
  std::optional<std::string> changed_rev; // --changed=REV (or --changed-strict=REV)
  bool changed_strict = false;            // --changed-strict: unconnected changes run everything; nothing ran exits 5
  bool staged = false;
  bool dry_run = false;
  Format format = Format::text;
  bool timings = false;
  bool no_cache = false;
  bool no_reorder = false;                // --no-reorder: pytest's collection order, not last failures then longest
  unsigned jobs = 0;                      // 0: one per core
  bool file_level = false;                // --file-level: no symbol-level narrowing
  bool include_failed = false;            // --include-failed: pytest's last failures join the selection
  std::string from;                       // index --from FILE
  std::string measured_at;                // index --from FILE --measured-at REV
  std::vector<std::string> inputs;        // index merge A B ...
  std::string output;                     // index merge -o OUT
  uint32_t max_depth = k_default_max_depth; // --max-depth
  double budget_ms = 2000;                // --budget-ms (0: none): past it, file level (safe)
  std::filesystem::path directory;        // -C DIR
  std::vector<std::string> passthrough;   // after --
  std::string impact_file;                // --impact FILE: replay (or audit) a saved decision
  ConfigFlags config;                     // the settings given as flags (--mode, --strict, --no-index, ...)
  Output annotations = Output::plain;     // --output github
  bool force = false;                     // install-hook --force
  std::string target;                     // explain TEST_OR_FILE
  std::vector<std::string> projects;      // --project PATH, repeatable: monorepo mode, these projects only
  unsigned jobs_projects = 0;             // --jobs-projects N: pytest children at once (0: one per core)
  double project_timeout = 0;             // --project-timeout SECONDS (0: none)
  std::string junitxml;                   // --junitxml PATH: monorepo mode, one JUnit file per project
  std::string report_json;                // --report-json PATH: monorepo mode, one merged report
  std::string shard;                      // --shard K/N or auto, unchecked ("" when not given): app reads it
  // The shared cache (docs/cache.md): the folder itself is a setting (config.cache_remote).
  bool cache_pull = false;                // --cache-pull: merge the remote into the local cache first
  bool cache_push = false;                // --cache-push: write this run's segment into the remote at the end
};

// Thrown after CLI11 printed help, the version or a usage error; main returns `code`.
struct Exit {
  int code;
};

// One subcommand of impact, as app's table declares it; parse builds the command line and each
// subcommand's --help from the table.
struct Subcommand {
  Verb verb;
  std::string_view parent; // "" for a subcommand of impact, "index" for `impact index status`
  std::string_view name;   // "" for impact itself (Verb::run)
  std::string_view about;  // one line for --help
  // The options of impact itself that it reads (given before or after its name), listed in its --help.
  std::vector<std::string_view> reads;
  int (*run)(const Options& options); // returns the exit code (or execs)
};

// Parses argv against `subcommands`. Throws Exit for --help / --version (code 0) and usage errors (code 2).
Options parse(int argc, char** argv, std::span<const Subcommand> subcommands);

} // namespace impact::cli
