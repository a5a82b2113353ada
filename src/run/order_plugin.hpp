#pragma once
// The Python source of the run order's hooks (docs/cache.md, "Run order"), the tail of impact's durations
// plugin: the process that collects (under xdist, the controller, which hands them to its workers) reads the
// last failures (pytest's lastfailed) and the durations file named by IMPACT_ORDER_DURATIONS, and the
// collected items are ordered last failures first, then the longest first, each collector's items kept
// together. Unset IMPACT_ORDER_DURATIONS (--no-reorder) leaves pytest's order.

namespace impact {

extern const char* const k_order_plugin_source;

} // namespace impact
