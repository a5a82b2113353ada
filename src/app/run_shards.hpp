#pragma once
// The run's part in sharding (docs/cli.md, "Shards"): weighing what the decision would run, and
// narrowing the run's plan to this job's shard.
#include "app/analyse.hpp"
#include "cli/options.hpp"
#include "impact/report.hpp"

#include <optional>

namespace impact::app {

// The units of the decision in `report`, weighed: carried by the saved decision when it is a replay
// (`saved`), else weighed now with the cache's durations. nullopt for `nothing` and for a fallback
// command's run_all (it is not split).
std::optional<ShardPlan> weigh_report(const Report& report, const Analysis& analysis, const SavedReport* saved,
                                      Repository& repo, const ImpactConfig& config, const cli::Options& options,
                                      const EnvLookup& env);

// Splits the report's units for `choice`, narrows report.plan.argv to this job's shard and prints the
// plan's fingerprint on stderr. Returns false when this job's shard is empty (nothing to run).
bool apply_shard(Report& report, const ShardChoice& choice, const cli::Options& options);

} // namespace impact::app
