// The fallback command's payload in monorepo mode (monorepo_payload.hpp).
#include "app/monorepo_payload.hpp"

#include "impact/report.hpp"

#include <nlohmann/json.hpp>

namespace impact::app {

namespace {

using json = nlohmann::ordered_json;

bool own_decision(const ProjectPlan& p) { return p.why == ProjectWhy::changed && p.analysis.has_value(); }

} // namespace

std::string monorepo_fallback_reason(const ProjectPlan& p) {
  if (own_decision(p)) return std::string(to_string(p.analysis->decision.reason));
  return std::string(to_string(p.why));
}

std::string monorepo_fallback_payload(const MonorepoPlan& plan, const ProjectPlan& p, bool strict) {
  std::filesystem::path cwd = plan.root / p.project.dir;
  json doc;
  if (own_decision(p)) {
    doc = json::parse(fallback_payload(p.analysis->decision, &p.analysis->changes, strict, p.plan.argv, cwd));
  } else {
    // Run whole by a monorepo rule: no file of the project decided it, so none is listed.
    Decision d;
    d.outcome = Outcome::run_all;
    ChangeSet none;
    none.base = plan.snapshot->changes.base;
    doc = json::parse(fallback_payload(d, &none, strict, p.plan.argv, cwd));
    doc["reason"] = std::string(to_string(p.why));
    doc["detail"] = p.detail;
  }
  doc["project"] = p.project.dir;
  doc["repository_root"] = plan.root.string();
  json projects = json::array();
  for (const auto& q : plan.projects) {
    json selected = nullptr;
    if (q.run == ProjectRun::selection && q.analysis) {
      selected = json::array();
      for (const auto& t : q.analysis->decision.selected) selected.push_back(root_node_id(q.project, t.node_id));
    }
    projects.push_back({{"path", q.project.dir},
                        {"run", std::string(to_string(q.run))},
                        {"why", std::string(to_string(q.why))},
                        {"detail", q.detail},
                        {"fallback", q.plan.fallback},
                        {"selected", selected}});
  }
  doc["projects"] = projects;
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace impact::app
