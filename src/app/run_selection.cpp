#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "app/durations_setup.hpp"
#include "app/own_output.hpp"
#include "app/pytest_command.hpp"
#include "app/replay.hpp"
#include "app/run_monorepo.hpp"
#include "app/run_order.hpp"
#include "app/run_plan.hpp"
#include "app/run_shards.hpp"
#include "app/shard_plan.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "impact/report.hpp"
#include "impact/run.hpp"
#include "util/cache_dir.hpp"
#include "util/quote.hpp"
#include "util/subprocess.hpp"
#include "util/terminal.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace impact::app {

RunPlan fallback_plan(const ImpactConfig& config, const EnvLookup& env, const std::filesystem::path& root) {
  RunPlan plan;
  plan.fallback = true;
  std::string source = describe_source("fallback-command", config.fallback_command.source);
  const std::string& program = config.fallback_command.value.front();
  auto resolved = resolve_program(program, root, env);
  if (!resolved) {
    std::string where = program.find('/') == std::string::npos ? "on PATH"
                        : std::filesystem::path(program).is_absolute() ? "there"
                                                                       : "under " + root.string();
    plan.problem = fmt::format("cannot start the fallback {} (from {}): no executable file {}; fix the path or "
                               "make it executable (chmod +x)",
                               program, source, where);
    return plan;
  }
  plan.argv = config.fallback_command.value;
  plan.argv.front() = *resolved;
  plan.command = Command{plan.argv, source};
  return plan;
}

namespace {

// What the dry run adds for a fallback: the environment and the standard input it would get.
std::string describe_fallback_input(const Report& report, const std::string& payload) {
  const Decision& decision = *report.decision;
  size_t files = report.changes != nullptr ? report.changes->files.size() : decision.files.size();
  return fmt::format("environment: IMPACT_FALLBACK_REASON={}\n"
                     "stdin: JSON payload impact.fallback version {} ({} bytes): reason {}, {} changed file(s), "
                     "{} uncertainty(ies), {} warning(s); see docs/configuration.md\n",
                     to_string(decision.reason), k_fallback_payload_version, payload.size(), to_string(decision.reason), files,
                     decision.uncertainties.size(), decision.warnings.size());
}

// Hands the process over to the fallback, its payload on standard input. Returns only by throwing.
[[noreturn]] void exec_fallback(const Report& report, const std::string& payload, const std::filesystem::path& root) {
  fmt::print(stderr, "impact: delegating to the fallback {} (from {})\n",
             nlohmann::json(report.plan.argv).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace),
             util::one_line(report.plan.command->source));
  int fd = unlinked_temp_fd(payload);
  exec_command(report.plan.argv, root, {{"IMPACT_FALLBACK_REASON", std::string(to_string(report.decision->reason))}}, fd,
               report.plan.command->source);
}

void print_timings(const Report& report) {
  for (const auto& t : report.timings) fmt::print(stderr, "impact: timing {:<10} {:8.1f} ms\n", t.stage, t.ms);
  fmt::print(stderr, "impact: timing {:<10} {:8.1f} ms\n", "total", report.total_ms);
}

} // namespace

RunPlan plan_for(const Decision& decision, const ImpactConfig& config, const cli::Options& options,
                 const EnvLookup& env, const std::filesystem::path& root) {
  RunPlan plan;
  if (decision.outcome == Outcome::nothing) return plan;
  if (decision.outcome == Outcome::run_all && config.fallback_command.is_set()) {
    return fallback_plan(config, env, root);
  }
  plan.command = find_configured_pytest(config, env, root);
  if (!plan.command) {
    plan.problem = k_pytest_not_found;
    return plan;
  }
  plan.argv = assemble_argv(*plan.command, decision, options.passthrough);
  return plan;
}

int nothing_ran_strict() {
  fmt::print(stderr, "impact: --changed-strict: nothing ran; exit 5, as pytest exits when it collects no test\n");
  return 5;
}

int run_selection(const cli::Options& options) {
  auto start = std::chrono::steady_clock::now();
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  // A root that does not configure pytest, with projects below it that do: each is its own session.
  if (std::optional<ProjectSet> set = find_project_set(repo->root(), options, config)) {
    if (!options.shard.empty()) {
      throw Error("--shard does not apply in monorepo mode yet (each project is its own pytest session, -C <project> "
                  "included); drop --shard");
    }
    return run_monorepo(*repo, config, *set, options, env);
  }
  // A bad --shard stops the run before any analysis.
  std::optional<ShardChoice> shard;
  if (!options.shard.empty()) shard = chosen_shard(options.shard, env);
  auto cache = util::cache_dir(repo->root(), env);
  if (!options.no_cache) merge_pending_durations(cache); // what the last runs' pytest recorded
  if (!options.report_json.empty()) {
    throw Error("--report-json {}: impact merges the projects' reports in a monorepo only; for one project pass "
                "pytest's own after --: impact -- --junitxml=report.xml",
                util::quote_name(options.report_json));
  }
  if (!options.junitxml.empty()) {
    throw Error("--junitxml {}: impact writes one file per project in a monorepo only; for one project pass "
                "pytest's own after --: impact -- --junitxml={}",
                util::quote_name(options.junitxml), util::quote_name(options.junitxml));
  }
  // --impact: a saved decision is replayed as it was made, with no diff and no analysis (docs/json.md).
  std::optional<SavedReport> saved = read_saved_decision(options, *repo);
  std::optional<std::string> own_output = ignore_own_output(config, repo->root()); // `> impact.json`
  Analysis analysis = saved ? replayed_analysis(*saved) : analyse(*repo, config, options, env);
  print_warnings(analysis);
  label_own_output(analysis.decision, own_output);

  Report report;
  report.changes = saved ? nullptr : &analysis.changes;
  report.replayed_base = saved && saved->base ? &*saved->base : nullptr;
  report.decision = &analysis.decision;
  report.project = analysis.project;
  report.timings = analysis.timings;
  if (analysis.index) {
    report.index_path = analysis.index_path;
    report.index_built_at = analysis.index->built_at;
    report.index_commit = analysis.index->commit;
  }
  report.strict = saved ? saved->strict : config.strict.value;
  report.plan = plan_for(analysis.decision, config, options, env, repo->root());
  // What a --shard splits, weighed: for this job's split, and for the document every job splits.
  if (weighs_durations(options)) {
    report.shards = weigh_report(report, analysis, saved ? &*saved : nullptr, *repo, config, options, env);
  }
  bool shard_has_tests = !shard || apply_shard(report, *shard, options);
  report.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (options.timings) print_timings(report);

  bool json = options.format == cli::Format::json;
  std::string payload; // what the fallback reads on stdin: for its exec, and for the dry run to describe
  if (report.plan.fallback && report.plan.command && !json) {
    payload = fallback_payload(analysis.decision, report.changes, report.strict, report.plan.argv, repo->root());
  }

  if (options.annotations == cli::Output::github) {
    // Workflow commands are read from both streams; stdout stays a clean JSON document with --format json.
    fmt::print(json ? stderr : stdout, "{}", render_github(report));
    std::fflush(stdout);
  }
  if (options.dry_run || json) {
    if (json) print_json(report, stdout);
    else fmt::print("{}", render_dry_run(report, util::use_colour(STDOUT_FILENO, env)));
    if (!json && report.plan.command && !report.plan.fallback) {
      bool loaded = records_durations(*report.plan.command, env, options.no_cache);
      bool reorder = loaded && !options.no_reorder;
      fmt::print("{}", describe_run_order(analysis.decision, !options.no_reorder, loaded,
                                          reorder ? recorded_durations(cache) : Durations{}));
    }
    if (!json && report.shards) fmt::print("{}", render_shards(*report.shards));
    if (!json && !payload.empty()) fmt::print("{}", describe_fallback_input(report, payload));
    return 0;
  }
  fmt::print(stderr, "impact: {}\n", summary_line(report));
  for (const auto& w : analysis.decision.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  if (analysis.decision.outcome == Outcome::nothing) return options.changed_strict ? nothing_ran_strict() : 0;
  if (!shard_has_tests) {
    fmt::print(stderr, "impact: shard {}/{} is empty: nothing to run\n", shard->index, shard->total);
    return 0;
  }
  if (!report.plan.command) throw Error("{}", report.plan.problem);
  if (report.plan.fallback) exec_fallback(report, payload, repo->root());
  std::vector<std::string> recording; // why durations are not recorded, when they cannot be
  EnvPairs extra;
  if (records_durations(*report.plan.command, env, options.no_cache)) {
    // docs/cache.md, "Durations" and "Run order"
    extra = exec_durations_env(repo->root(), cache, env, !options.no_reorder, recording);
  }
  for (const auto& w : recording) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  // --cache-push: impact waits for pytest (rather than exec it) to push what it measured (run_cache.cpp).
  if (options.cache_push) return util::run_and_wait(report.plan.argv, repo->root(), extra);
  exec_command(report.plan.argv, repo->root(), extra, -1, report.plan.command->source);
}

} // namespace impact::app
