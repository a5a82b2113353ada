#include "app/run_shards.hpp"

#include "app/durations_setup.hpp"
#include "app/shard_plan.hpp"
#include "impact/error.hpp"
#include "util/cache_dir.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <unordered_map>

namespace impact::app {

std::optional<ShardPlan> weigh_report(const Report& report, const Analysis& analysis, const SavedReport* saved,
                                      Repository& repo, const ImpactConfig& config, const cli::Options& options,
                                      const EnvLookup& env) {
  const Decision& d = *report.decision;
  if (d.outcome == Outcome::nothing || report.plan.fallback) return std::nullopt;
  if (saved != nullptr && saved->shards) { // split as every other job splits it: with the carried durations
    ShardPlan plan = *saved->shards;
    if (d.outcome != Outcome::selected) return plan;
    std::unordered_map<std::string, ShardUnit> carried;
    for (const auto& u : plan.units) carried.emplace(u.id, u);
    plan.units.clear();
    for (const auto& t : d.selected) {
      auto it = carried.find(t.node_id);
      plan.units.push_back(it != carried.end() ? it->second : ShardUnit{t.node_id, plan.median, true});
    }
    plan.fingerprint = plan_fingerprint(plan.units);
    return plan;
  }
  if (saved != nullptr && !options.shard.empty()) {
    fmt::print(stderr, "impact: warning: {} carries no durations (an older impact wrote it, or its suite could not be "
                       "weighed): weighing its tests with this cache's, so other jobs may split it differently; "
                       "regenerate it with impact select --format json\n",
               options.impact_file);
  }
  Durations durations = options.no_cache ? Durations{} : recorded_durations(util::cache_dir(repo.root(), env));
  if (d.outcome == Outcome::selected) {
    std::vector<std::string> ids;
    ids.reserve(d.selected.size());
    for (const auto& t : d.selected) ids.push_back(t.node_id);
    return weigh_plan(ids, "selection", durations, analysis.static_tests);
  }
  // Only a split or the plan every job splits is weighed (weighs_durations): pytest --collect-only may run.
  std::optional<SuiteIds> suite;
  try {
    suite = suite_ids(repo, config, options, env, report.plan.command);
  } catch (const Error& e) {
    if (!options.shard.empty()) throw; // a split that cannot list the suite must not run part of it
    fmt::print(stderr, "impact: warning: the suite cannot be weighed for --shard: {}; the document carries no "
                       "durations\n",
               util::one_line(e.what()));
  }
  if (!suite) return std::nullopt;
  return weigh_plan(suite->ids, suite->suite, durations, suite->counts);
}

bool apply_shard(Report& report, const ShardChoice& choice, const cli::Options& options) {
  RunPlan& plan = report.plan;
  if (report.decision->outcome == Outcome::nothing) return true;
  if (plan.fallback) { // the fallback is one command: it runs on the first shard only
    bool first = choice.index == 1;
    fmt::print(stderr, "impact: shard {}/{} ({}): run_all delegates to the fallback-command, which runs on shard 1 "
                       "only{}\n",
               choice.index, choice.total, choice.source, first ? "" : "; this shard is empty");
    if (!first) plan.argv.clear();
    return first;
  }
  if (!report.shards) return true;
  ShardPlan& shards = *report.shards;
  split_plan(shards, choice);
  const Shard& mine = shards.shards[choice.index - 1];
  size_t estimated = 0;
  for (const auto& u : shards.units) estimated += u.estimated ? 1 : 0;
  fmt::print(stderr, "impact: shard {}/{} ({}): plan {} ({} id(s) from the {}, {} without a recorded duration): this "
                     "shard runs {} id(s), expected {:.1f} s\n",
             choice.index, choice.total, choice.source, shards.fingerprint, shards.units.size(),
             shards.suite == "selection" ? "selection" : shards.suite == "static" ? "static collection" : "collect-only",
             estimated, mine.ids.size(), mine.seconds);
  if (plan.command) {
    plan.argv = plan.command->argv;
    plan.argv.insert(plan.argv.end(), mine.ids.begin(), mine.ids.end());
    plan.argv.insert(plan.argv.end(), options.passthrough.begin(), options.passthrough.end());
  }
  if (mine.ids.empty()) plan.argv.clear();
  return !mine.ids.empty();
}

} // namespace impact::app
