// The dry run's line on the run order (run_order.hpp).
#include "app/run_order.hpp"

#include "impact/why_not_selected.hpp"

#include <fmt/format.h>

#include <set>

namespace impact::app {

namespace {

// The recorded tests a selection runs: each selected id covers itself and the ids below it, which
// sort right after it, so each is a short scan of the sorted durations.
size_t recorded_among(const Decision& decision, const Durations& durations) {
  if (decision.outcome == Outcome::run_all) return durations.size();
  std::set<std::string_view> found;
  for (const auto& s : decision.selected) {
    for (auto it = durations.lower_bound(s.node_id); it != durations.end() && it->first.starts_with(s.node_id); ++it) {
      if (covers(s.node_id, it->first)) found.insert(it->first);
    }
  }
  return found.size();
}

} // namespace

std::string describe_run_order(const Decision& decision, bool reorder, bool plugin_loaded, const Durations& durations) {
  if (!plugin_loaded) return "order: pytest's collection order (impact's pytest plugin is not loaded into this run)\n";
  if (!reorder) return "order: pytest's collection order (--no-reorder)\n";
  return fmt::format("order: last failures first, then the longest first ({} of the tests it runs with a recorded "
                     "duration); --no-reorder keeps pytest's order\n",
                     recorded_among(decision, durations));
}

} // namespace impact::app
