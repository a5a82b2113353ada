#pragma once
// What --dry-run says of the run order (docs/cache.md, "Run order"): the order itself is made by the
// durations plugin inside pytest, from pytest's lastfailed record and the recorded durations.
#include "impact/decision.hpp"
#include "impact/run/durations.hpp"

#include <string>

namespace impact::app {

// One line, "order: ...\n": pytest's collection order when the plugin is not loaded (`plugin_loaded`)
// or with --no-reorder (`reorder` false), else last failures first, then the longest first, with how
// many of the tests `decision` runs have a duration in `durations`.
std::string describe_run_order(const Decision& decision, bool reorder, bool plugin_loaded, const Durations& durations);

} // namespace impact::app
