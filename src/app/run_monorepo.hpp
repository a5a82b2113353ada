#pragma once
// impact run in monorepo mode: decide for every project, then run them (docs/monorepo.md).
#include "app/project_set.hpp"
#include "cli/options.hpp"
#include "impact/changes.hpp"
#include "impact/config.hpp"

namespace impact::app {

// Prints the decision (--dry-run, --format json) or runs every project that has something to run and
// returns the merged exit code; with one project to run, execs its pytest as impact does for a
// single project. Throws impact::Error as the single-project run does.
int run_monorepo(Repository& repo, const ImpactConfig& root_config, const ProjectSet& set,
                 const cli::Options& options, const EnvLookup& env);

} // namespace impact::app
