// Monorepo mode's decision in text (the dry run) and in JSON (schema impact.monorepo, docs/json.md).
#include "app/monorepo_render.hpp"

#include "impact/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace impact::app {

namespace {

using json = nlohmann::ordered_json;

// The tests a project runs, root-relative ("libs/a/tests/test_x.py::test_y"): its selection, or its
// folder for a whole suite, or none.
std::vector<std::string> root_tests(const ProjectPlan& p) {
  std::vector<std::string> out;
  if (p.run == ProjectRun::all) out.push_back(p.project.dir);
  if (p.run == ProjectRun::selection && p.analysis) {
    for (const auto& t : p.analysis->decision.selected) out.push_back(root_node_id(p.project, t.node_id));
  }
  return out;
}

// The merged outcome: run_all when every project runs whole, nothing when none runs, else selected.
std::string_view merged_outcome(const MonorepoPlan& plan) {
  bool any = false, all = !plan.projects.empty();
  for (const auto& p : plan.projects) {
    any = any || p.run != ProjectRun::none;
    all = all && p.run == ProjectRun::all;
  }
  return all ? "run_all" : any ? "selected" : "nothing";
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos;
    out += (out.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return out;
}

} // namespace

Report project_report(const ProjectPlan& project, bool strict) {
  Report report;
  if (!project.analysis) return report;
  const Analysis& a = *project.analysis;
  report.changes = &a.changes;
  report.decision = &a.decision;
  report.project = a.project;
  report.timings = a.timings;
  report.plan = project.plan;
  report.strict = strict;
  if (a.index) {
    report.index_path = a.index_path;
    report.index_built_at = a.index->built_at;
    report.index_commit = a.index->commit;
  }
  return report;
}

std::string project_line(const ProjectPlan& p) {
  std::string what = p.run == ProjectRun::selection
                         ? fmt::format("selection ({} test(s))", p.analysis ? p.analysis->decision.selected.size() : 0)
                     : p.run == ProjectRun::all ? std::string("all")
                                                : std::string("skipped");
  return fmt::format("{}: {} [{}] {}", p.project.dir, what, to_string(p.why), p.detail);
}

std::string render_monorepo_json(const MonorepoPlan& plan, bool strict) {
  json projects = json::array();
  for (const auto& p : plan.projects) {
    json entry = {{"path", p.project.dir},
                  {"config", p.project.config},
                  {"found_by", p.project.found_by},
                  {"run", to_string(p.run)},
                  {"why", to_string(p.why)},
                  {"detail", p.detail},
                  {"selected", root_tests(p)},
                  {"cwd", p.project.dir},
                  {"argv", p.run == ProjectRun::none ? json(nullptr) : json(p.plan.argv)},
                  {"problem", p.plan.problem.empty() ? json(nullptr) : json(p.plan.problem)}};
    if (p.analysis) {
      Report report = project_report(p, strict);
      entry["decision"] = json::parse(render_json(report));
    } else {
      entry["decision"] = nullptr;
    }
    projects.push_back(std::move(entry));
  }
  json edges = json::array();
  for (const auto& e : plan.edges) {
    edges.push_back({{"from", e.from}, {"to", e.to}, {"declared", e.declared}, {"why", e.why}});
  }
  const DiffBase& base = plan.snapshot->changes.base;
  json doc = {{"schema", "impact.monorepo"},
              {"version", 1},
              {"impact_version", IMPACT_VERSION},
              {"root", plan.root.string()},
              {"decision", merged_outcome(plan)},
              {"base", base.commit.empty() ? json(nullptr)
                                           : json{{"rev", base.rev}, {"commit", base.commit}, {"source", base.source}}},
              {"changed_files", plan.snapshot->changes.files.size()},
              {"outside", plan.outside},
              {"outside_effect", plan.outside_effect.empty() ? json(nullptr) : json(plan.outside_effect)},
              {"projects", projects},
              {"edges", edges},
              {"warnings", plan.warnings}};
  doc["parsed"] = plan.parsed;
  json timings = json::object();
  for (const auto& t : plan.timings) timings[t.stage] = t.ms;
  timings["total"] = plan.total_ms;
  doc["timings_ms"] = timings;
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string render_monorepo_text(const MonorepoPlan& plan) {
  std::string out = fmt::format("monorepo: {} project(s), {} changed file(s), decision {}\n", plan.projects.size(),
                                plan.snapshot->changes.files.size(), merged_outcome(plan));
  if (!plan.outside.empty()) {
    out += fmt::format("outside every project: {} ({})\n", fmt::join(plan.outside, ", "), plan.outside_effect);
  }
  for (const auto& p : plan.projects) {
    out += fmt::format("\n{}\n", project_line(p));
    if (p.run == ProjectRun::none) continue;
    for (const auto& t : root_tests(p)) out += fmt::format("  {}\n", t);
    if (!p.plan.problem.empty()) out += fmt::format("  problem: {}\n", p.plan.problem);
    else out += fmt::format("  argv (in {}): {}\n", p.project.dir, shell_words(p.plan.argv));
  }
  for (const auto& w : plan.warnings) out += fmt::format("warning: {}\n", w);
  return out;
}

} // namespace impact::app
