#pragma once
// --report-json in monorepo mode (docs/monorepo.md, "The merged report"): one document with every
// project's exit status and counts (or why it was skipped) and every test's outcome, keyed by
// root-relative node id, read from the JUnit XML file each project's pytest wrote.
#include "app/monorepo_plan.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace impact::app {

// How one project's run ended.
struct ProjectEnd {
  const ProjectPlan* project = nullptr;
  int code = 0;          // pytest's exit code, or 2 when stopped (as merged)
  bool timed_out = false;
  bool interrupted = false;
  double seconds = 0;
  std::filesystem::path junit; // the JUnit XML its pytest wrote, or empty (a fallback command writes none)
};

// The document (schema impact.monorepo-report). A JUnit file that is missing or unreadable leaves that
// project without per-test outcomes and adds a line to `warnings`.
std::string render_monorepo_report(const MonorepoPlan& plan, const std::vector<ProjectEnd>& ended, int exit_code,
                                   std::vector<std::string>& warnings);

} // namespace impact::app
