#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "impact/report.hpp"
#include "impact/run.hpp"
#include "util/terminal.hpp"

#include <fmt/format.h>

#include <chrono>
#include <unistd.h>

namespace impact::app {

namespace {

RunPlan plan_for(const Decision& decision, const ImpactConfig& config, const cli::Options& options,
                 const EnvLookup& env, const std::filesystem::path& root) {
  RunPlan plan;
  if (decision.outcome == Outcome::nothing) return plan;
  PytestLookup lookup{env, std::nullopt, {}, root};
  if (config.pytest_command.is_set()) {
    lookup.configured = config.pytest_command.value;
    lookup.configured_source = "pytest-command in " + config.pytest_command.source;
  }
  plan.command = find_pytest(lookup);
  if (!plan.command) {
    plan.problem = "pytest not found: activate the virtualenv that has it, or set IMPACT_PYTEST or "
                   "[tool.impact] pytest-command";
    return plan;
  }
  plan.argv = assemble_argv(*plan.command, decision, options.passthrough);
  return plan;
}

void print_timings(const Report& report) {
  for (const auto& t : report.timings) fmt::print(stderr, "impact: timing {:<10} {:8.1f} ms\n", t.stage, t.ms);
  fmt::print(stderr, "impact: timing {:<10} {:8.1f} ms\n", "total", report.total_ms);
}

} // namespace

int run_selection(const cli::Options& options) {
  auto start = std::chrono::steady_clock::now();
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ImpactConfig config = load_impact_config(repo->root(), env);
  Analysis analysis = analyse(*repo, config, options, env);

  Report report;
  report.changes = &analysis.changes;
  report.decision = &analysis.decision;
  report.project = analysis.project;
  report.timings = analysis.timings;
  if (analysis.index) {
    report.index_path = analysis.index_path;
    report.index_built_at = analysis.index->built_at;
    report.index_commit = analysis.index->commit;
  }
  report.strict = options.strict.value_or(config.strict.value);
  report.plan = plan_for(analysis.decision, config, options, env, repo->root());
  report.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (options.timings) print_timings(report);

  if (options.dry_run || options.format == cli::Format::json) {
    if (options.format == cli::Format::json) fmt::print("{}", render_json(report));
    else fmt::print("{}", render_dry_run(report, util::use_colour(STDOUT_FILENO)));
    return 0;
  }
  fmt::print(stderr, "impact: {}\n", summary_line(report));
  for (const auto& w : analysis.decision.warnings) fmt::print(stderr, "impact: warning: {}\n", w);
  if (analysis.decision.outcome == Outcome::nothing) return 0;
  if (!report.plan.command) throw Error("{}", report.plan.problem);
  exec_command(report.plan.argv, repo->root(), {}, -1, report.plan.command->source);
}

} // namespace impact::app
