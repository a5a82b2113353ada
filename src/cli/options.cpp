#include "cli/options.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <cmath>
#include <stdexcept>

namespace impact::cli {

namespace {

constexpr const char* k_description =
    "impact: run the pytest tests a change can break, and only those.\n\n"
    "Compares the working tree (or --staged index, or the merge-base with --changed=REV) with the\n"
    "repository's history, follows imports, pytest fixtures and conftest.py files to the tests that\n"
    "can reach the change, and execs pytest on them. Exit code: pytest's own once it runs, 0 when\n"
    "there is nothing to run, 2 for impact's errors. See docs/cli.md.";

// The raw text of the flags that set [tool.impact] keys, checked after parsing (see config_flags).
struct SettingFlags {
  std::string pytest_command, fallback_command;
  std::vector<std::string> ignore;
  bool no_strict = false, use_index = false, no_index = false, strict = false;
  std::string mode;
  std::string output;
  std::string changed_strict; // --changed-strict[=REV]
};

void add_setting_flags(CLI::App& app, SettingFlags& s) {
  app.add_option("--pytest-command", s.pytest_command,
                 "How to run pytest, a JSON array: '[\"uv\", \"run\", \"pytest\"]' (else IMPACT_PYTEST, [tool.impact])")
      ->type_name("<json-argv>")
      ->group("Settings");
  app.add_option("--fallback-command", s.fallback_command,
                 "What to exec instead of the whole suite on run_all, a JSON array (else IMPACT_FALLBACK_COMMAND, "
                 "[tool.impact])")
      ->type_name("<json-argv>")
      ->group("Settings");
  app.add_option("--ignore", s.ignore, "A glob of files that never affect tests; repeatable, replaces [tool.impact] ignore")
      ->allow_extra_args(false)
      ->take_all()
      ->type_name("<glob>")
      ->group("Settings");
  app.add_flag("--no-strict", s.no_strict, "Undo IMPACT_STRICT or [tool.impact] strict = true")->group("Settings");
  app.add_flag("--use-index", s.use_index, "Use the coverage index even if IMPACT_NO_INDEX or [tool.impact] says not to")
      ->group("Settings");
  app.add_option("--output", s.output, "Also print annotations for a CI: github (::notice / ::warning lines)")
      ->type_name("github")
      ->group("Output");
}

void add_selection_flags(CLI::App& app, Options& o, std::string& changed, std::string& format, SettingFlags& s) {
  app.add_option("--changed", changed,
                 "Compare with HEAD (default), or with the merge-base of REV and HEAD: --changed=origin/main")
      ->expected(0, 1)
      ->type_name("[=REV]")
      ->group("Selecting");
  app.add_option("--changed-strict", s.changed_strict,
                 "As --changed, for gating: a changed file no test can load runs everything; nothing to run exits 5")
      ->expected(0, 1)
      ->type_name("[=REV]")
      ->group("Selecting");
  app.add_flag("--staged", o.staged, "Compare the index with HEAD: what the next commit holds (pre-commit)")
      ->group("Selecting");
  app.add_flag("--strict", s.strict, "Run everything when an uncertainty (a computed import) touches the change")
      ->group("Selecting");
  app.add_option("--mode", s.mode, "fast | balanced | safe (default: balanced, or [tool.impact] mode)")
      ->group("Selecting");
  app.add_flag("--include-failed", o.include_failed,
               "Also run the tests that failed in pytest's last run (its .pytest_cache lastfailed record)")
      ->group("Selecting");
  app.add_flag("--file-level", o.file_level, "Select whole test files by imports only (no symbol-level narrowing)")
      ->group("Selecting");
  app.add_flag("--no-index", s.no_index, "Do not use the coverage index (.impact_cache/coverage-index.sqlite)")
      ->group("Selecting");
  app.add_option("--max-depth", o.max_depth,
                 fmt::format("Symbol hops to follow before a file is analysed at file level (default: {})",
                             k_default_max_depth))
      ->group("Selecting");
  app.add_option("--budget-ms", o.budget_ms,
                 fmt::format("Time for the symbol-level walk; past it, the rest is analysed at file level (default: {}; 0: "
                             "no limit)", Options{}.budget_ms))
      ->group("Selecting");
  app.add_option("--format", format, "Output of --dry-run and of subcommands: text | json")->group("Output");
  app.add_flag("--timings", o.timings, "Print how long each stage took, on stderr")->group("Output");
  app.add_flag("--no-cache", o.no_cache, "Neither read nor write the facts cache (.impact_cache/)")->group("Tuning");
  app.add_flag("--no-reorder", o.no_reorder,
               "Run the tests in pytest's collection order, not last failures first, then the longest first")
      ->group("Tuning");
  app.add_option("-j,--jobs", o.jobs, "Parse files and link their imports with this many threads (default: one per core)")->group("Tuning");
  app.add_option("--project", o.projects,
                 "Monorepo: work on this project folder only; repeatable (impact projects lists them)")
      ->allow_extra_args(false)
      ->take_all()
      ->type_name("<path>")
      ->group("Monorepo");
  app.add_option("--jobs-projects", o.jobs_projects,
                 "Monorepo: run at most N projects' pytest at once (default: one per core)")
      ->type_name("N")
      ->group("Monorepo");
  app.add_option("--project-timeout", o.project_timeout,
                 "Monorepo: stop a project's pytest after SECONDS; it counts as interrupted (default: none)")
      ->type_name("SECONDS")
      ->group("Monorepo");
  app.add_option("--junitxml", o.junitxml,
                 "Monorepo: each project's JUnit XML, its folder's slug before the extension (junit.libs-a.xml)")
      ->type_name("PATH")
      ->group("Monorepo");
  app.add_option("--shard", o.shard,
                 "Run part K of N of the selection, split by recorded test durations (auto: from GitLab, Buildkite or "
                 "CircleCI variables)")
      ->type_name("<K/N|auto>")
      ->group("Selecting");
  app.add_option("--report-json", o.report_json,
                 "Monorepo: write one JSON report of every project's outcome and every test's, by root-relative id")
      ->type_name("PATH")
      ->group("Monorepo");
  app.add_option("-C", o.directory, "Run as if started in DIR")->type_name("DIR")->group("Tuning");
}

void usage_error(const std::string& message) {
  fmt::print(stderr, "impact: error: {}\n", message);
  throw Exit{2};
}

// The shared cache (docs/cache.md, "The shared cache"): its folder, and whether to pull and push.
void add_cache_flags(CLI::App& app, Options& o, std::string& remote) {
  app.add_option("--cache-remote", remote,
                 "The shared cache's folder (a mount, or one synced with object storage; else IMPACT_CACHE_REMOTE, "
                 "[tool.impact] cache-remote)")
      ->type_name("DIR")
      ->group("Shared cache");
  app.add_flag("--cache-pull", o.cache_pull, "Merge the shared cache into the local cache before the analysis")
      ->group("Shared cache");
  app.add_flag("--cache-push", o.cache_push,
               "At the end, write what this run learnt (durations, new facts, an index it built) as one segment")
      ->group("Shared cache");
}

// --cache-pull and --cache-push apply to the commands that analyse or run tests; --cache-remote also to
// impact cache compact, which needs it. A relative DIR is relative to the current folder.
void check_cache_flags(Options& o, const CLI::App& app, const std::string& remote) {
  bool given = app.get_option("--cache-remote")->count() > 0;
  if (given && remote.empty()) usage_error("--cache-remote '' names no folder; pass the shared cache's folder");
  if (given) o.config.cache_remote = std::filesystem::absolute(remote);
  bool runs = o.verb == Verb::run || o.verb == Verb::select || o.verb == Verb::audit || o.verb == Verb::index;
  for (const char* flag : {"--cache-pull", "--cache-push"}) {
    if (app.get_option(flag)->count() == 0) continue;
    if (!runs) usage_error(fmt::format("{} applies to the run, select, audit and index; drop it", flag));
    if (o.no_cache) usage_error(fmt::format("{} fills or reads the local cache, which --no-cache turns off; drop one", flag));
  }
}

// The flags of SettingFlags (and --mode, --strict, --no-index), checked, as the top layer of the settings.
ConfigFlags config_flags(const SettingFlags& s, const CLI::App& app) {
  ConfigFlags flags;
  if (app.get_option("--pytest-command")->count() > 0) {
    flags.pytest_command = parse_argv_json(s.pytest_command, "--pytest-command");
  }
  if (app.get_option("--fallback-command")->count() > 0) {
    flags.fallback_command = parse_argv_json(s.fallback_command, "--fallback-command");
  }
  if (app.get_option("--ignore")->count() > 0) flags.ignore = s.ignore;
  if (app.get_option("--mode")->count() > 0) { // `--mode ''` is a mode nobody named, not no mode
    flags.mode = parse_mode(s.mode);
    if (!flags.mode) usage_error(fmt::format("unknown mode '{}'; use fast, balanced or safe", s.mode));
  }
  if (s.strict && s.no_strict) usage_error("--strict and --no-strict contradict each other; pass one of them");
  if (s.strict) flags.strict = true;
  if (s.no_strict) flags.strict = false;
  if (s.no_index && s.use_index) usage_error("--no-index and --use-index contradict each other; pass one of them");
  if (s.no_index) flags.use_index = false;
  if (s.use_index) flags.use_index = true;
  return flags;
}

// --impact replays a decision already made, so the flags that steer making one have nothing to steer.
// audit alone takes both: there the change flags say what its evidence for a miss compares. audit has
// no dry run: running the suite is all it does.
void check_replay_flags(const Options& o, const CLI::App& app) {
  if (o.verb == Verb::audit && o.dry_run) {
    usage_error("audit runs the whole suite, so there is no dry run of it; impact select shows the selection");
  }
  if (o.impact_file.empty()) return;
  if (o.verb != Verb::run && o.verb != Verb::select && o.verb != Verb::audit) {
    usage_error("--impact applies to the run, select and audit; drop it");
  }
  if (o.verb == Verb::audit) return;
  for (const char* flag : {"--changed", "--changed-strict", "--staged", "--mode", "--strict", "--no-strict", "--file-level", "--no-index",
                           "--use-index", "--ignore", "--max-depth", "--budget-ms", "--include-failed"}) {
    const CLI::Option* option = app.get_option_no_throw(flag);
    if (option == nullptr || option->count() == 0) continue;
    usage_error(fmt::format("--impact replays a saved decision, which {} cannot change; drop {}, or save a new "
                            "decision with impact select {}",
                            flag, flag, flag));
  }
}

// A revision that is empty: `--changed=` (or `--changed ''`) would otherwise read as HEAD, which is
// not what a script that lost its variable meant.
void check_changed_given(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg(argv[i]);
    for (std::string_view flag : {"--changed", "--changed-strict"}) {
      bool empty_value = (arg.size() == flag.size() + 1 && arg.starts_with(flag) && arg.back() == '=') ||
                         (arg == flag && i + 1 < argc && argv[i + 1][0] == '\0');
      if (empty_value) {
        usage_error(fmt::format("{}= names no revision; pass one ({}=origin/main), or {} alone to compare with HEAD",
                                flag, flag, flag));
      }
    }
  }
}

// Values that a flag's type accepts but that mean nothing: an empty word where a name is needed, a time
// that is not a number of milliseconds, a folder that is not there.
void check_values(const Options& o, const CLI::App& app, const CLI::App& index_cmd, const CLI::App& durations_cmd) {
  auto given = [](const CLI::App& a, const char* flag) { return a.get_option(flag)->count() > 0; };
  if (given(app, "--impact") && o.impact_file.empty()) {
    usage_error("--impact '' names no file; pass the file impact select --format json wrote");
  }
  if (given(index_cmd, "--from") && o.from.empty()) {
    usage_error("--from '' names no file; pass a coverage.py data file (such as .coverage)");
  }
  if (given(durations_cmd, "--from") && o.from.empty()) {
    usage_error("--from '' names no file; pass a JUnit XML report (pytest --junitxml=FILE)");
  }
  if (!std::isfinite(o.budget_ms) || o.budget_ms < 0) {
    usage_error(fmt::format("--budget-ms {}: expected a number of milliseconds, 0 or more (0: no limit)",
                            app.get_option("--budget-ms")->as<std::string>()));
  }
  if (given(app, "--force") && o.impact_file.empty() && o.verb != Verb::install_hook) {
    usage_error("--force applies to --impact (a decision made on another commit) and install-hook; drop it");
  }
  if (given(app, "--shard") && o.verb != Verb::run && o.verb != Verb::select) {
    usage_error("--shard applies to the run and to select; drop it");
  }
  if (given(app, "--no-reorder") && o.verb != Verb::run) {
    usage_error("--no-reorder applies to the run (the pytest impact starts); drop it");
  }
  if (given(app, "--shard") && o.shard.empty()) usage_error("--shard '' names no shard; pass K/N (1 <= K <= N) or auto");
  if (given(app, "--junitxml") && o.junitxml.empty()) usage_error("--junitxml '' names no file; pass a path such as junit.xml");
  if (given(app, "--report-json") && o.report_json.empty()) {
    usage_error("--report-json '' names no file; pass a path such as report.json");
  }
  if (given(app, "--jobs-projects") && o.jobs_projects == 0) {
    usage_error("--jobs-projects 0: expected 1 or more pytest processes at once");
  }
  if (!std::isfinite(o.project_timeout) || o.project_timeout < 0) {
    usage_error(fmt::format("--project-timeout {}: expected a number of seconds, 0 or more (0: none)",
                            app.get_option("--project-timeout")->as<std::string>()));
  }
  if (!given(app, "-C")) return;
  std::error_code ec;
  auto type = std::filesystem::status(o.directory, ec).type();
  if (o.directory.empty()) usage_error("-C '' names no folder; pass the folder to run in");
  if (type == std::filesystem::file_type::not_found) {
    usage_error(fmt::format("-C {}: no such folder; pass an existing folder (the repository or one inside it)",
                            o.directory.string()));
  }
  if (type != std::filesystem::file_type::directory) {
    usage_error(fmt::format("-C {}: not a folder; pass the repository's folder or one inside it", o.directory.string()));
  }
}

// The options of one subcommand of its own (its operands, and flags no other command takes).
void add_own_options(Verb verb, CLI::App& sub, Options& o) {
  switch (verb) {
  case Verb::explain:
    sub.add_option("target", o.target, "A test node id, a test file or a changed file")->required();
    break;
  case Verb::facts: sub.add_option("file", o.target, "A Python file")->required(); break;
  case Verb::install_hook:
    sub.add_flag("--force", o.force, "Replace a different pre-commit hook that is already there");
    break;
  case Verb::index:
    sub.add_option("--from", o.from, "Read an existing coverage.py data file instead of running anything")
        ->type_name("FILE");
    sub.add_option("--measured-at", o.measured_at, "With --from: the commit the coverage data was measured at")
        ->type_name("REV");
    break;
  case Verb::durations:
    sub.add_option("--from", o.from, "Import the durations of a JUnit XML report (pytest --junitxml) into the cache")
        ->type_name("FILE");
    break;
  case Verb::index_merge:
    sub.add_option("inputs", o.inputs, "Index files")->required();
    sub.add_option("-o,--output", o.output, "The merged index")->required()->type_name("OUT");
    break;
  default: break;
  }
}

// The options of impact that subcommand `s` reads, for its --help: it takes them before or after its name.
std::string reads_help(const CLI::App& app, const Subcommand& s) {
  std::vector<const CLI::Option*> options;
  for (std::string_view name : s.reads) {
    const CLI::Option* option = app.get_option_no_throw(std::string(name));
    if (option == nullptr) throw std::logic_error(fmt::format("the table names an unknown option {}", name));
    options.push_back(option);
  }
  if (options.empty()) return "";
  std::string where = s.parent.empty() ? std::string(s.name) : fmt::format("{} {}", s.parent, s.name);
  return CLI::Formatter().make_group(fmt::format("Options of impact it reads (before or after '{}')", where), false,
                                     options);
}

// One CLI11 subcommand per entry of the table (impact itself aside), each taking impact's own options
// too (before or after its name).
std::vector<std::pair<const Subcommand*, CLI::App*>> add_subcommands(CLI::App& app, Options& o,
                                                                     std::span<const Subcommand> subcommands) {
  std::vector<std::pair<const Subcommand*, CLI::App*>> out;
  for (const auto& s : subcommands) {
    if (s.name.empty()) continue;
    CLI::App* parent = s.parent.empty() ? &app : app.get_subcommand(std::string(s.parent));
    CLI::App* sub = parent->add_subcommand(std::string(s.name), std::string(s.about));
    add_own_options(s.verb, *sub, o);
    sub->fallthrough();
    sub->footer(reads_help(app, s));
    out.emplace_back(&s, sub);
  }
  return out;
}

} // namespace

Options parse(int argc, char** argv, std::span<const Subcommand> subcommands) {
  Options o;
  // Everything after the first "--" belongs to pytest, untouched.
  std::vector<std::string> args;
  int split = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      split = i;
      break;
    }
  }
  for (int i = split + 1; i < argc; ++i) o.passthrough.emplace_back(argv[i]);
  check_changed_given(split, argv);

  CLI::App app{k_description, "impact"};
  app.set_version_flag("--version", std::string("impact ") + IMPACT_VERSION);
  app.footer("\nUsage: impact [--changed[=<rev>] | --staged] [--dry-run] [options] [-- <pytest-args>...]\n"
             "More: docs/cli.md, docs/selection.md, docs/configuration.md");
  std::string changed, format = "text";
  SettingFlags settings;
  add_selection_flags(app, o, changed, format, settings);
  std::string cache_remote;
  add_cache_flags(app, o, cache_remote);
  add_setting_flags(app, settings);
  app.add_flag("--dry-run", o.dry_run, "Print the decision, the evidence and the exact argv; run nothing")
      ->group("Output");
  app.add_flag("--force", o.force, "With --impact: replay a decision whose base commit is not in HEAD's history")
      ->group("Selecting");
  app.add_option("--impact", o.impact_file, "Replay the decision saved by impact select --format json (no analysis)")
      ->type_name("FILE")
      ->group("Selecting");

  std::vector<std::pair<const Subcommand*, CLI::App*>> subs = add_subcommands(app, o, subcommands);
  CLI::App* index_cmd = app.get_subcommand("index");
  app.require_subcommand(0, 1);

  try {
    std::vector<std::string> reversed;
    for (int i = split - 1; i >= 1; --i) reversed.emplace_back(argv[i]);
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    throw Exit{code == 0 ? 0 : 2};
  }
  auto* changed_opt = app.get_option("--changed");
  if (changed_opt->count() > 0 && !changed.empty()) o.changed_rev = changed;
  if (app.get_option("--changed-strict")->count() > 0) {
    if (changed_opt->count() > 0) usage_error("--changed-strict is --changed with gating; pass one of them");
    o.changed_strict = true;
    if (!settings.changed_strict.empty()) o.changed_rev = settings.changed_strict;
  }
  if (o.staged && (o.changed_rev || o.changed_strict)) {
    usage_error(fmt::format("--staged and {} compare different things; pass one of them",
                            o.changed_strict ? "--changed-strict" : "--changed=REV"));
  }
  if (format == "json") o.format = Format::json;
  else if (format != "text") {
    fmt::print(stderr, "impact: error: unknown format '{}'; use text or json\n", format);
    throw Exit{2};
  }
  o.config = config_flags(settings, app);
  if (settings.output == "github") o.annotations = Output::github;
  else if (app.get_option("--output")->count() > 0) usage_error(fmt::format("unknown --output '{}'; use github", settings.output));
  for (const auto& [subcommand, sub] : subs) { // a parent first: `index status` is status
    if (sub->parsed()) o.verb = subcommand->verb;
  }
  if (index_cmd->get_option("--measured-at")->count() > 0 && (o.measured_at.empty() || o.from.empty())) {
    usage_error(o.from.empty() ? "--measured-at names the commit a coverage file read with --from was measured at; "
                                 "add --from FILE"
                               : "--measured-at needs a commit; pass the revision the coverage data was measured at");
  }
  o.dry_run = o.dry_run || o.verb == Verb::select; // select is the dry run by its own name
  check_replay_flags(o, app);
  check_values(o, app, *index_cmd, *app.get_subcommand("durations"));
  check_cache_flags(o, app, cache_remote);
  if (o.directory.empty()) o.directory = std::filesystem::current_path();
  return o;
}

} // namespace impact::cli
