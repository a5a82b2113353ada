#pragma once
// What a --shard splits (docs/cli.md, "Shards"): the selected node ids, or for run_all the suite as
// impact collected it statically (its test files), or, when that collection cannot be trusted, as
// pytest --collect-only -q lists it; each weighed by the recorded durations.
#include "cli/options.hpp"
#include "impact/changes.hpp"
#include "impact/config.hpp"
#include "impact/decision.hpp"
#include "impact/report.hpp"
#include "impact/run.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace impact {
class ProjectFacts;
class ProjectLayout;
} // namespace impact

namespace impact::app {

// Whether this run weighs its tests for a split: with --shard, and for the plan every job of a matrix
// splits (`impact select --format json`). No other run pays for it (a run_all's static collection).
bool weighs_durations(const cli::Options& options);

// Test items impact knows statically, per selected id that is a file or a class (ids with "::" that
// name one test are left out): what an id with no recorded duration is weighed by.
using StaticCounts = std::unordered_map<std::string, size_t>;
StaticCounts static_test_counts(const std::vector<SelectedTest>& selected, const ProjectFacts& facts,
                                const ProjectLayout& layout);

// The ids of the whole suite, for a sharded run_all, and how they were found.
struct SuiteIds {
  std::vector<std::string> ids;
  std::string suite; // "static" or "collect-only"
  StaticCounts counts;
};
// Collects the suite statically; when that is not trusted (a pytest_collect_file hook, --pyargs, or
// no test file found), says why on stderr and runs `pytest` --collect-only -q. Throws impact::Error
// when that run lists nothing.
SuiteIds suite_ids(Repository& repo, const ImpactConfig& config, const cli::Options& options, const EnvLookup& env,
                   const std::optional<Command>& pytest);

// The units of `ids` weighed by `durations`, with their fingerprint.
ShardPlan weigh_plan(const std::vector<std::string>& ids, const std::string& suite, const Durations& durations,
                     const StaticCounts& counts);

// Which shard this job runs: --shard K/N, or auto from the CI's variables. Throws impact::Error.
ShardChoice chosen_shard(const std::string& flag, const EnvLookup& env);

// Splits `plan` for `choice` (sets choice and shards).
void split_plan(ShardPlan& plan, const ShardChoice& choice);

} // namespace impact::app
