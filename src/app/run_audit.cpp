// `impact audit`: the safety of the selection, measured on the user's own project. The whole suite runs
// once; a test that failed although the selection skips it is a miss, printed with what the analysis
// knows about it, and the audit exits 1. Failures among selected tests are caught, not missed.
#include "app/analyse.hpp"
#include "app/audit.hpp"
#include "app/commands.hpp"
#include "app/own_output.hpp"
#include "app/project_scope.hpp"
#include "app/pytest_command.hpp"
#include "app/replay.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "impact/python/project_facts.hpp"
#include "util/cache_dir.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

namespace impact::app {

namespace {

// The analysis that explains the misses compares what the saved decision compared, unless the flags
// say otherwise: a miss is then read against the same change.
cli::Options evidence_options(const cli::Options& options, const std::optional<SavedReport>& saved) {
  cli::Options out = options;
  if (!saved || !saved->base || options.staged || options.changed_rev) return out;
  if (saved->base->mode == DiffMode::staged) out.staged = true;
  else if (saved->base->merge_base) out.changed_rev = saved->base->rev;
  return out;
}

} // namespace

int run_audit(const cli::Options& options) {
  EnvLookup env = process_env();
  // In a monorepo, one project: its view, its [tool.impact], its pytest in its folder.
  ProjectScope scope = open_one_project(options, env, "audit", false);
  if (scope.set && !options.impact_file.empty()) {
    throw Error("--impact replays one project's decision, which a monorepo's audit does not read yet; audit the "
                "project's current selection (impact audit -C <project>)");
  }
  Repository* repo = &scope.repo();
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);

  // 1. The selection under audit (a saved decision, or the one computed now), and the analysis of the
  //    change, which is the evidence for a miss.
  std::optional<SavedReport> saved = read_saved_decision(options, *repo);
  std::optional<std::string> own_output = ignore_own_output(config, repo->root()); // `> audit.json`
  Analysis analysis;
  std::string analysis_error;
  // In a monorepo, the facts are the root's cache's, shared by every project (docs/monorepo.md).
  auto facts_dir = util::cache_dir(scope.git->root(), env);
  FactsStore root_facts = scope.set && !options.no_cache ? FactsStore(facts_dir) : FactsStore();
  try {
    analysis = analyse(*repo, config, evidence_options(options, saved), env, scope.set ? &root_facts : nullptr);
    if (scope.set && root_facts.worth_saving()) {
      try {
        util::ensure_cache_dir(facts_dir);
        root_facts.save();
      } catch (const Error& e) {
        fmt::print(stderr, "impact: warning: {}; continuing without saving the cache\n", util::one_line(e.what()));
      }
    }
    print_warnings(analysis);
    label_own_output(analysis.decision, own_output);
  } catch (const Error& e) {
    // Without a saved decision the analysis is the selection: its failure stops the audit. With one,
    // it only explains misses, so the audit goes on without that explanation.
    if (!saved) throw;
    analysis_error = e.what();
    fmt::print(stderr, "impact: warning: {}; misses will be reported without evidence\n",
               util::one_line(analysis_error));
  }
  AuditedSelection selection;
  selection.file = options.impact_file;
  selection.decision = saved ? &saved->decision : &analysis.decision;
  selection.base = saved ? saved->base : std::optional<DiffBase>(analysis.changes.base);

  // 2. The whole suite, once, with pytest found the way the run path finds it (never the fallback:
  //    the audit measures the selection against everything).
  Command pytest = configured_pytest(config, env, repo->root());
  SuiteRun suite = run_full_suite(pytest, repo->root(), options.passthrough, env);

  // 3. What the selection would have skipped, and which of those failed.
  const Decision* evidence = analysis_error.empty() ? &analysis.decision : nullptr;
  AuditResult result = audit_selection(*selection.decision, evidence, analysis_error, std::move(suite));
  // 4. Which misses are known flakes: the record includes the suite's own run, merged just now.
  std::vector<std::string> flake_warnings;
  mark_known_flakes(result, load_flakes(util::cache_dir(repo->root(), env), flake_warnings));
  for (const auto& w : flake_warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  if (options.format == cli::Format::json) {
    std::vector<std::string> changed;
    for (const auto& f : analysis.decision.files) changed.push_back(f.path.str);
    fmt::print("{}", render_audit_json(selection, result, changed));
  } else {
    fmt::print("{}", render_audit_text(selection, result));
  }
  return result.misses.empty() ? 0 : 1;
}

} // namespace impact::app
