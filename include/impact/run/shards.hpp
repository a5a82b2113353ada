#pragma once
#ifdef IMPACT_FORBID_RUN // defined for the stages that may not use run (src/CMakeLists.txt)
#error "this stage may not use run (docs/architecture.md, allowed edges)"
#endif
// Splitting what a run would pass pytest (node ids, or test files) into N shards of about equal
// recorded time (docs/cli.md, --shard): the same inputs give the same split on every CI job.
#include "impact/run/durations.hpp"
#include "impact/vocabulary.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// One id pytest is given, with the seconds it is expected to take. `estimated`: no recorded duration
// covered it, so it carries the median (times its statically known tests, for a file or class).
struct ShardUnit {
  std::string id;
  double seconds = 0;
  bool estimated = false;

  bool operator==(const ShardUnit&) const = default;
};

// One part of a split: its ids, sorted, and their expected time.
struct Shard {
  std::vector<std::string> ids;
  double seconds = 0;
};

// Which shard this job runs: `index` of `total`, from 1; `source` names where it came from
// ("--shard 2/4", "CI_NODE_INDEX/CI_NODE_TOTAL").
struct ShardChoice {
  unsigned index = 1;
  unsigned total = 1;
  std::string source;
};

// "K/N" with 1 <= K <= N, digits only; std::nullopt otherwise.
std::optional<ShardChoice> parse_shard(std::string_view text);

// `--shard auto`: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL (from 1), Buildkite's
// BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT and CircleCI's CIRCLE_NODE_INDEX/
// CIRCLE_NODE_TOTAL (from 0). Throws impact::Error naming the variables when none is set, or when a
// value is not a number in range.
ShardChoice shard_from_ci(const EnvLookup& env);

// The median of the recorded durations, 1.0 when there are none: what a test with no record weighs.
double median_seconds(const Durations& durations);

// The units of `ids`: an id's own record; else the sum of the records under it (a file or class:
// "id::...", a parametrized test: "id[...]"); else the median times `static_tests(id)` when that is
// above 0, else the median.
std::vector<ShardUnit> weigh_units(const std::vector<std::string>& ids, const Durations& durations,
                                   const std::function<size_t(const std::string&)>& static_tests);

// Splits `units` into `total` shards: longest first onto the lightest shard (the lowest index on a
// tie), equal times ordered by id, so the split depends on neither the order of `units` nor the file
// system. Every unit lands in exactly one shard; a shard may be empty.
std::vector<Shard> split_shards(std::vector<ShardUnit> units, unsigned total);

// A short hash (12 hex digits) of the units, sorted by id, with their times: equal on two jobs when
// they split the same selection with the same durations.
std::string plan_fingerprint(const std::vector<ShardUnit>& units);

} // namespace impact
