#pragma once
// Monorepo mode's decision (docs/monorepo.md): the change taken once at the root, then one decision
// per project: its own selection, its whole suite (it depends on a changed project, or a change
// outside every project can affect it), or nothing (skipped).
#include "app/analyse.hpp"
#include "app/project_set.hpp"
#include "impact/monorepo.hpp"
#include "impact/report.hpp"
#include "impact/run.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impact::app {

// What one project runs.
enum class ProjectRun : uint8_t {
  selection, // the tests its own analysis selected
  all,       // its whole suite
  none,      // nothing: skipped
};

// Why: a stable word of the JSON document (to_string).
enum class ProjectWhy : uint8_t {
  changed,            // files of the project changed: its own analysis decided
  depends_on_changed, // it depends on a changed project (declared, or seen in imports)
  outside_change,     // a change outside every project can affect every project
  no_ci_base,         // a CI build without a base to compare with
  unchanged,          // nothing it contains or depends on changed
};

std::string_view to_string(ProjectRun run);
std::string_view to_string(ProjectWhy why);

// One project's part of the decision.
struct ProjectPlan {
  monorepo::Project project;
  ProjectRun run = ProjectRun::none;
  ProjectWhy why = ProjectWhy::unchanged;
  std::string detail;                     // for people: "libs/b -> libs/a (declares libs-a in ...)"
  std::optional<Analysis> analysis;       // its own analysis, for a changed project
  RunPlan plan;                           // the pytest argv, run in the project's folder
};

// The decision of a whole monorepo.
struct MonorepoPlan {
  std::filesystem::path root;
  std::shared_ptr<monorepo::RootSnapshot> snapshot; // the change set, taken once
  std::vector<std::string> outside;                 // changed files outside every project
  std::string outside_effect;                       // what they do: "cannot affect a test", or why everything runs
  std::vector<monorepo::Edge> edges;                // every edge found (declared and seen in imports)
  std::vector<ProjectPlan> projects;                // the selected projects, sorted by folder
  std::vector<std::string> warnings;                // for stderr and the document
  // --timings: the stages of the root (discovery, changes, outside, each analysed project's total
  // as "analyse <dir>", edges, facts_save), in the order they ran; each project's own stages are in its
  // analysis.
  std::vector<StageTiming> timings;
  size_t parsed = 0;   // Python files parsed (not found in the facts cache) by all of the decision's analyses
  double total_ms = 0; // the decision's time, discovery included (set by the caller, for --timings and JSON)
};

// Decides for every project of `set`: throws impact::Error as analyse() does.
MonorepoPlan plan_monorepo(Repository& repo, const ImpactConfig& root_config, const ProjectSet& set,
                           const cli::Options& options, const EnvLookup& env);

// A project's node id (or path) as the root names it: "libs/a/tests/test_x.py::test_y".
std::string root_node_id(const monorepo::Project& project, std::string_view node_id);

// --junitxml PATH for `project`: the project's slug before PATH's extension, anchored at the folder
// impact runs in (junit.xml gives <there>/junit.libs-core.xml).
std::string junit_path(const cli::Options& options, const monorepo::Project& project);

} // namespace impact::app
