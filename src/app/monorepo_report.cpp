#include "app/monorepo_report.hpp"

#include "impact/run/durations.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <stdexcept>

namespace impact::app {

using json = nlohmann::ordered_json;

std::string render_monorepo_report(const MonorepoPlan& plan, const std::vector<ProjectEnd>& ended, int exit_code,
                                   std::vector<std::string>& warnings) {
  std::map<const ProjectPlan*, const ProjectEnd*> by_project;
  for (const auto& e : ended) by_project[e.project] = &e;
  json projects = json::array();
  json tests = json::object();
  for (const auto& p : plan.projects) {
    json entry = {{"path", p.project.dir}, {"run", to_string(p.run)}, {"why", to_string(p.why)}};
    auto it = by_project.find(&p);
    if (it == by_project.end()) {
      entry["status"] = "skipped";
      projects.push_back(std::move(entry));
      continue;
    }
    const ProjectEnd& e = *it->second;
    entry["status"] = e.timed_out ? "timed_out" : e.interrupted && e.code != 0 ? "interrupted" : "ran";
    entry["exit_code"] = e.code;
    entry["seconds"] = e.seconds;
    json counts = nullptr;
    if (!e.junit.empty()) {
      try {
        std::optional<std::string> text = util::read_file(e.junit);
        if (!text) throw std::runtime_error(fmt::format("{} was not written", e.junit.string()));
        auto cases = parse_junit_cases(*text, e.junit.string(), plan.root / p.project.dir);
        counts = {{"passed", 0}, {"failed", 0}, {"error", 0}, {"skipped", 0}};
        for (const auto& [id, c] : cases) {
          counts[c.outcome] = counts[c.outcome].get<int>() + 1;
          tests[root_node_id(p.project, id)] = {{"outcome", c.outcome}, {"seconds", c.seconds}, {"project", p.project.dir}};
        }
      } catch (const std::exception& ex) {
        warnings.push_back(fmt::format("{}: no per-test outcomes in the report: {}", p.project.dir, ex.what()));
      }
    }
    entry["counts"] = std::move(counts);
    projects.push_back(std::move(entry));
  }
  json doc = {{"schema", "impact.monorepo-report"}, {"version", 1},       {"exit_code", exit_code},
              {"projects", std::move(projects)},    {"tests", std::move(tests)}};
  return doc.dump(2) + "\n";
}

} // namespace impact::app
