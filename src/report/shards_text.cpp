// The split of a sharded dry run, for people.
#include "impact/report.hpp"

#include <fmt/format.h>

namespace impact {

std::string render_shards(const ShardPlan& plan) {
  if (!plan.choice) return "";
  size_t estimated = 0;
  for (const auto& u : plan.units) estimated += u.estimated ? 1 : 0;
  std::string out = fmt::format("shards: {} of {} id(s) ({}), plan {}; {} with no recorded duration\n",
                                plan.choice->total, plan.units.size(), plan.suite, plan.fingerprint, estimated);
  for (size_t i = 0; i < plan.shards.size(); ++i) {
    const Shard& s = plan.shards[i];
    bool chosen = i + 1 == plan.choice->index;
    out += fmt::format("  shard {}/{}{}: {} id(s), expected {:.1f} s{}\n", i + 1, plan.choice->total,
                       chosen ? " (this job)" : "", s.ids.size(), s.seconds, s.ids.empty() ? ", empty" : "");
    for (const auto& id : s.ids) out += fmt::format("    {}\n", id);
  }
  return out;
}

} // namespace impact
