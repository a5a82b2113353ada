#pragma once
// Replaying a saved decision (--impact FILE): the file read strictly, and the decision standing in for
// the analysis, which does not happen (no diff is taken, no file is parsed).
#include "app/analyse.hpp"
#include "cli/options.hpp"
#include "impact/changes.hpp"
#include "impact/report.hpp"

#include <optional>

namespace impact::app {

// The decision saved in --impact's file (relative to -C's folder), read strictly and checked against
// this repository: every node id's file lies inside the work tree (symbolic links resolved), and the
// decision's base commit is HEAD or an ancestor of HEAD (a decision made in another repository, or
// on another line of history, is refused unless --force). nullopt without --impact. Throws
// impact::Error naming the file, the problem and the fix.
std::optional<SavedReport> read_saved_decision(const cli::Options& options, Repository& repo);

// An analysis that is the saved decision and nothing else: no change set, no project facts, no timings.
Analysis replayed_analysis(const SavedReport& saved);

} // namespace impact::app
