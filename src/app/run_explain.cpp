// `impact explain TARGET`: SELECTED with the chain from the change to the test, hop by hop, or
// SKIPPED with why no chain exists; --format json: the same as a document (docs/json.md).
#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "app/explain_target.hpp"
#include "app/monorepo_plan.hpp"
#include "app/project_scope.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "impact/report.hpp"
#include "impact/why_not_selected.hpp"
#include "impact/report/json_parts.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace impact::app {

namespace {

// What the decision says about the target: the selected tests that run it or that it holds, the
// changed files it names, and, when neither, why it is not selected.
struct Explanation {
  std::vector<const SelectedTest*> selected;
  std::vector<const FileVerdict*> changed;
  std::optional<NotSelected> skipped;
};

Explanation explain(const Decision& d, const std::string& target) {
  Explanation out;
  if (d.outcome == Outcome::run_all) return out;
  for (const auto& t : d.selected) {
    // The target runs with this selection, or holds a selected test (a file, a class, a folder).
    if (covers(t.node_id, target) || covers(target, t.node_id)) out.selected.push_back(&t);
  }
  std::string file = file_of(target);
  for (const auto& f : d.files) {
    if (f.path.str == file || f.old_path.str == file) out.changed.push_back(&f);
  }
  if (out.selected.empty() && out.changed.empty()) {
    out.skipped = why_not_selected(d, target);
    out.skipped->lines = describe_not_selected(*out.skipped, d);
  }
  return out;
}

void print_text(const Decision& d, const std::string& target, const Explanation& e) {
  std::string shown = util::quote_name(target);
  if (d.outcome == Outcome::run_all) {
    fmt::print("[SELECTED] {}\n  the whole suite runs: {} ({})\n", shown, util::one_line(to_string(d.reason)),
               util::one_line(d.detail));
    return;
  }
  for (const SelectedTest* t : e.selected) {
    fmt::print("[SELECTED] {}\n  {}\n", util::quote_name(t->node_id), render_chain(t->chain));
    if (!t->note.empty()) fmt::print("  note: {}\n", util::one_line(t->note));
  }
  for (const FileVerdict* f : e.changed) {
    fmt::print("[CHANGED] {}: {}\n", util::quote_name(f->path.str), util::one_line(f->effect));
  }
  if (!e.skipped) return;
  fmt::print("[SKIPPED] {}\n", shown);
  for (const auto& line : e.skipped->lines) fmt::print("  {}\n", util::one_line(line));
  fmt::print("  decision: {} ({} changed file(s), mode {})\n", to_string(d.outcome), d.files.size(),
             to_string(d.mode_effective));
}

using json = nlohmann::ordered_json;

std::string render_json(const Decision& d, const std::string& target, const Explanation& e, const json& project) {
  json selected = json::array(), changed = json::array();
  for (const SelectedTest* t : e.selected) {
    selected.push_back({{"node_id", t->node_id},
                        {"chain", report::chain_json<json>(t->chain)},
                        {"note", report::nullable<json>(t->note)}});
  }
  for (const FileVerdict* f : e.changed) changed.push_back({{"path", f->path.str}, {"effect", f->effect}});
  json skipped = nullptr;
  if (e.skipped) {
    skipped = {{"kind", e.skipped->kind},
               {"chain", report::chain_json<json>(e.skipped->chain)},
               {"detail", e.skipped->lines}};
  }
  json doc = {{"schema", "impact.explain"},
              {"version", 1},
              {"target", target},
              {"outcome", std::string(to_string(d.outcome))},
              {"reason", report::nullable<json>(to_string(d.reason))},
              {"detail", report::nullable<json>(d.detail)},
              {"mode", std::string(to_string(d.mode_effective))},
              {"changed_files", d.files.size()},
              {"selected", selected},
              {"changed", changed},
              {"skipped", skipped}};
  if (!project.is_null()) doc["project"] = project;
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// In a monorepo: the project that holds `target` (root-relative), or the one project the run
// selects (-C <project>), with the target as that project names it.
std::pair<monorepo::Project, std::string> project_of(const ProjectSet& set, const std::string& target) {
  std::string file = file_of(target);
  if (const monorepo::Project* owner = monorepo::owner_of(set.all, file); owner && file != owner->dir) {
    return {*owner, target.substr(owner->dir.size() + 1)};
  }
  if (set.selected.size() == 1) return {set.selected.front(), target};
  throw Error("explain {}: in no project of this monorepo; name it from the repository's root "
              "(<project>/tests/test_x.py::test_y), or run in its project (-C <project>)",
              util::quote_name(target));
}

// The monorepo's decision for the project (changed, depends on a changed one, outside change,
// unchanged), explained within the project when its own analysis decided, else in one line.
int explain_in_project(ProjectScope& scope, const cli::Options& options, const EnvLookup& env) {
  auto [project, target] = project_of(*scope.set, options.target);
  ProjectSet one = *scope.set;
  one.selected = {project};
  one.warnings.clear();
  MonorepoPlan plan = plan_monorepo(*scope.git, scope.root_config, one, options, env);
  for (const auto& w : plan.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  const ProjectPlan& p = plan.projects.front();
  json described = {{"path", p.project.dir},
                    {"run", std::string(to_string(p.run))},
                    {"why", std::string(to_string(p.why))},
                    {"detail", p.detail}};
  if (p.why == ProjectWhy::changed && p.analysis) {
    const Decision& d = p.analysis->decision;
    check_explain_target(target, d, plan.root / p.project.dir);
    Explanation e = explain(d, target);
    if (options.format == cli::Format::json) {
      fmt::print("{}", render_json(d, target, e, described));
      return 0;
    }
    fmt::print("project: {} ({} {})\n", p.project.dir, to_string(p.run), to_string(p.why));
    print_text(d, target, e);
    return 0;
  }
  // The monorepo's rules decided, not the project's analysis: the whole project runs, or nothing.
  std::error_code ec;
  if (!std::filesystem::exists(plan.root / p.project.dir / file_of(target), ec)) {
    throw Error("explain {}: {} does not exist in project {}; pass a node id as pytest prints it there (pytest "
                "--collect-only -q in {})",
                util::quote_name(options.target), util::quote_name(file_of(target)), p.project.dir, p.project.dir);
  }
  bool runs = p.run == ProjectRun::all;
  if (options.format == cli::Format::json) {
    json doc = {{"schema", "impact.explain"},
                {"version", 1},
                {"target", target},
                {"outcome", runs ? "run_all" : "nothing"},
                {"reason", std::string(to_string(p.why))},
                {"detail", p.detail},
                {"mode", nullptr},
                {"changed_files", 0},
                {"selected", json::array()},
                {"changed", json::array()},
                {"skipped", nullptr},
                {"project", described}};
    fmt::print("{}\n", doc.dump(2, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  fmt::print("project: {} ({} {})\n", p.project.dir, to_string(p.run), to_string(p.why));
  fmt::print("[{}] {}\n  {}: {}\n", runs ? "SELECTED" : "SKIPPED", util::quote_name(target),
             runs ? "the project's whole suite runs" : "the project is skipped", util::one_line(p.detail));
  return 0;
}

} // namespace

int run_explain(const cli::Options& options) {
  EnvLookup env = process_env();
  ProjectScope scope = open_scope(options, env);
  if (scope.set) return explain_in_project(scope, options, env);
  Repository* repo = scope.git.get();
  const ImpactConfig& config = scope.root_config;
  Analysis analysis = analyse(*repo, config, options, env);
  print_warnings(analysis);
  const Decision& d = analysis.decision;
  check_explain_target(options.target, d, repo->root());
  Explanation e = explain(d, options.target);
  if (options.format == cli::Format::json) fmt::print("{}", render_json(d, options.target, e, nullptr));
  else print_text(d, options.target, e);
  return 0;
}

} // namespace impact::app
