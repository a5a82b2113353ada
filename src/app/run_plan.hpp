#pragma once
// What the run path execs for a decision: pytest with the selection, the fallback on run_all when one
// is configured, or nothing (run_selection.cpp).
#include "cli/options.hpp"
#include "impact/config.hpp"
#include "impact/decision.hpp"
#include "impact/report.hpp"

#include <filesystem>

namespace impact::app {

// The plan for `decision` in the project at `root` (its pytest is found from there): a problem
// instead of a command when pytest, or the fallback's program, cannot be found.
RunPlan plan_for(const Decision& decision, const ImpactConfig& config, const cli::Options& options,
                 const EnvLookup& env, const std::filesystem::path& root);

// On run_all with a fallback-command: the fallback, its program resolved from `root` or $PATH,
// without the pytest arguments after `--` (they mean nothing to it); a problem instead of a command
// when the program cannot be found.
RunPlan fallback_plan(const ImpactConfig& config, const EnvLookup& env, const std::filesystem::path& root);

// --changed-strict and nothing to run: says so on stderr and returns 5, pytest's "no tests collected",
// so that a merge queue does not read a run that tested nothing as a pass.
int nothing_ran_strict();

} // namespace impact::app
