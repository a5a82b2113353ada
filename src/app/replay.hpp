#pragma once
// Replaying a saved decision (--impact FILE): the file read strictly, and the decision standing in for
// the analysis, which does not happen (no diff is taken, no file is parsed).
#include "app/analyse.hpp"
#include "cli/options.hpp"
#include "impact/report.hpp"

#include <optional>

namespace impact::app {

// The decision saved in --impact's file (relative to -C's folder), read strictly; nullopt without
// --impact. Throws impact::Error naming the file, the bad field and the fix.
std::optional<SavedReport> read_saved_decision(const cli::Options& options);

// An analysis that is the saved decision and nothing else: no change set, no project facts, no timings.
Analysis replayed_analysis(const SavedReport& saved);

} // namespace impact::app
