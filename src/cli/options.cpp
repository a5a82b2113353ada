#include "cli/options.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

namespace impact::cli {

namespace {

constexpr const char* k_description =
    "impact: run the pytest tests a change can break, and only those.\n\n"
    "Compares the working tree (or --staged index, or the merge-base with --changed=REV) with the\n"
    "repository's history, follows imports, pytest fixtures and conftest.py files to the tests that\n"
    "can reach the change, and execs pytest on them. Exit code: pytest's own once it runs, 0 when\n"
    "there is nothing to run, 2 for impact's errors. See docs/cli.md.";

void add_selection_flags(CLI::App& app, Options& o, std::string& changed, std::string& format, std::string& mode,
                         bool& strict) {
  app.add_option("--changed", changed,
                 "Compare with HEAD (default), or with the merge-base of REV and HEAD: --changed=origin/main")
      ->expected(0, 1)
      ->type_name("[=REV]")
      ->group("Selecting");
  app.add_flag("--staged", o.staged, "Compare the index with HEAD: what the next commit holds (pre-commit)")
      ->group("Selecting");
  app.add_flag("--strict", strict, "Run everything when an uncertainty (a computed import) touches the change")
      ->group("Selecting");
  app.add_option("--mode", mode, "fast | balanced | safe (default: balanced, or [tool.impact] mode)")
      ->group("Selecting");
  app.add_flag("--file-level", o.file_level, "Select whole test files by imports only (no symbol-level narrowing)")
      ->group("Selecting");
  app.add_flag("--no-index", o.no_index, "Do not use the coverage index (.impact_cache/coverage-index.sqlite)")
      ->group("Selecting");
  app.add_option("--max-depth", o.max_depth,
                 "Symbol hops to follow before a file is analysed at file level (default: 100)")
      ->group("Selecting");
  app.add_option("--budget-ms", o.budget_ms,
                 "Time for the symbol-level walk; past it, the rest is analysed at file level (default: none)")
      ->group("Selecting");
  app.add_option("--format", format, "Output of --dry-run and of subcommands: text | json")->group("Output");
  app.add_flag("--timings", o.timings, "Print how long each stage took, on stderr")->group("Output");
  app.add_flag("--no-cache", o.no_cache, "Neither read nor write the facts cache (.impact_cache/)")->group("Tuning");
  app.add_option("-j,--jobs", o.jobs, "Parse with this many threads (default: one per core)")->group("Tuning");
  app.add_option("-C", o.directory, "Run as if started in DIR")->type_name("DIR")->group("Tuning");
}

} // namespace

Options parse(int argc, char** argv) {
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

  CLI::App app{k_description, "impact"};
  app.set_version_flag("--version", std::string("impact ") + IMPACT_VERSION);
  app.footer("\nUsage: impact [--changed[=<rev>] | --staged] [--dry-run] [options] [-- <pytest-args>...]\n"
             "More: docs/cli.md, docs/selection.md, docs/configuration.md");
  std::string changed, format = "text", mode;
  bool strict = false;
  add_selection_flags(app, o, changed, format, mode, strict);
  app.add_flag("--dry-run", o.dry_run, "Print the decision, the evidence and the exact argv; run nothing")
      ->group("Output");

  CLI::App* changes_cmd = app.add_subcommand("changes", "Print the changed files and line ranges (stage 1)");
  CLI::App* explain_cmd = app.add_subcommand("explain", "Say why a test or file is selected or skipped");
  explain_cmd->add_option("target", o.target, "A test node id, a test file or a changed file")->required();
  CLI::App* config_cmd = app.add_subcommand("config", "Print every setting, its value and where it came from");
  CLI::App* facts_cmd = app.add_subcommand("facts", "Print what impact reads from one Python file (JSON)");
  facts_cmd->add_option("file", o.target, "A Python file")->required();
  CLI::App* index_cmd = app.add_subcommand("index", "Build the coverage index by running the suite under coverage");
  index_cmd->add_option("--from", o.from, "Read an existing coverage.py data file instead of running anything")
      ->type_name("FILE");
  CLI::App* status_cmd = index_cmd->add_subcommand("status", "Say when and at which commit the index was built, and what drifted");
  CLI::App* merge_cmd = index_cmd->add_subcommand("merge", "Union the indexes of the shards of one run");
  merge_cmd->add_option("inputs", o.inputs, "Index files")->required();
  merge_cmd->add_option("-o,--output", o.output, "The merged index")->required()->type_name("OUT");
  for (CLI::App* sub : {changes_cmd, explain_cmd, config_cmd, facts_cmd, index_cmd, status_cmd, merge_cmd}) {
    sub->fallthrough();
  }
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
  if (o.staged && o.changed_rev) {
    fmt::print(stderr, "impact: error: --staged and --changed=REV compare different things; pass one of them\n");
    throw Exit{2};
  }
  if (format == "json") o.format = Format::json;
  else if (format != "text") {
    fmt::print(stderr, "impact: error: unknown format '{}'; use text or json\n", format);
    throw Exit{2};
  }
  if (!mode.empty()) {
    o.mode = parse_mode(mode);
    if (!o.mode) {
      fmt::print(stderr, "impact: error: unknown mode '{}'; use fast, balanced or safe\n", mode);
      throw Exit{2};
    }
  }
  if (strict) o.strict = true;
  if (changes_cmd->parsed()) o.command = Command::changes;
  if (explain_cmd->parsed()) o.command = Command::explain;
  if (config_cmd->parsed()) o.command = Command::config;
  if (facts_cmd->parsed()) o.command = Command::facts;
  if (index_cmd->parsed()) o.command = Command::index;
  if (status_cmd->parsed()) o.command = Command::index_status;
  if (merge_cmd->parsed()) o.command = Command::index_merge;
  if (o.directory.empty()) o.directory = std::filesystem::current_path();
  return o;
}

} // namespace impact::cli
