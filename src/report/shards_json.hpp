#pragma once
// The "durations" field of the decision document (docs/json.md): written by render_json, read back
// strictly by read_report so that a replayed plan splits as it was split.
#include "impact/report.hpp"
#include "report/strict_json.hpp"

#include <nlohmann/json.hpp>

namespace impact::report {

nlohmann::json shard_plan_json(const std::optional<ShardPlan>& plan);

// $.durations read back: units, suite and fingerprint (checked against the units); the split that was
// shown is checked for its shape only (a replay splits again for its own --shard). Throws ShapeError.
std::optional<ShardPlan> shard_plan_of(const StrictValue& v, const Decision& decision);

} // namespace impact::report
