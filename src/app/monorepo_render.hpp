#pragma once
// Monorepo mode's decision as people and programs read it: the dry run's text and the one JSON
// document of every project's decision (docs/json.md, "The monorepo document").
#include "app/monorepo_plan.hpp"

#include <string>

namespace impact::app {

// The report of one project's own analysis, as render_json and render_dry_run take it.
Report project_report(const ProjectPlan& project, bool strict);

std::string render_monorepo_json(const MonorepoPlan& plan, bool strict);
std::string render_monorepo_text(const MonorepoPlan& plan);

// "libs/a: selection (3 test(s))", "libs/c: skipped (unchanged)": one project's decision on one line.
std::string project_line(const ProjectPlan& project);

} // namespace impact::app
