// Monorepo mode's decision (monorepo_plan.hpp): the change set once at the root, the changed files
// sorted by project, each changed project analysed in a ProjectView of its own (as if impact ran in
// its folder), then the projects that depend on a changed one, transitively, run whole.
#include "app/monorepo_plan.hpp"

#include "app/pytest_command.hpp"
#include "app/stage_clock.hpp"
#include "app/run_plan.hpp"
#include "impact/ci.hpp"
#include "impact/error.hpp"
#include "impact/python/project_facts.hpp"
#include "util/cache_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>

namespace impact::app {

namespace {

bool is_python(std::string_view path) { return path.ends_with(".py"); }

// A changed project whose own analysis found nothing that can change behaviour (only comments,
// documentation, ignored files) changes nothing for the projects that depend on it either. Any other
// outcome, "no test of its own reaches the change" included, reaches them.
bool reaches_dependents(const Decision& decision) {
  if (decision.outcome != Outcome::nothing) return true;
  switch (decision.reason) {
  case Reason::no_changes:
  case Reason::only_quiet_files:
  case Reason::only_ignored_files:
  case Reason::only_comments_or_formatting: return false;
  default: return true;
  }
}

std::vector<std::string> dirs_of(const std::vector<monorepo::Project>& projects) {
  std::vector<std::string> out;
  for (const auto& p : projects) out.push_back(p.dir);
  return out;
}

// What the changes outside every project do: "" when they cannot affect a test; otherwise why every
// project runs whole. A Python file outside every project runs everything (no project's analysis sees
// who imports it); the others are judged by the rules for files that are not Python, with the root's
// [tool.impact], on a view of the root without the projects.
std::string outside_effect(Repository& repo, MonorepoPlan& plan, const ProjectSet& set, const ImpactConfig& root_config,
                           const cli::Options& options, const EnvLookup& env, FactsStore& store,
                           std::string& quiet_detail) {
  for (const auto& path : plan.outside) {
    if (is_python(path)) return fmt::format("{} is Python outside every project", path);
  }
  monorepo::ProjectView root_view(repo, "", plan.snapshot, dirs_of(set.all));
  Analysis analysis = analyse(root_view, root_config, options, env, &store);
  plan.parsed += analysis.project.parsed;
  for (auto& w : analysis.warnings) plan.warnings.push_back(std::move(w));
  if (analysis.decision.outcome == Outcome::nothing) {
    quiet_detail = analysis.decision.detail.empty() ? std::string(to_string(analysis.decision.reason))
                                                    : analysis.decision.detail;
    return "";
  }
  std::string detail = analysis.decision.detail.empty() ? fmt::format("{} changed", plan.outside.front())
                                                        : analysis.decision.detail;
  return fmt::format("outside every project: {}", detail);
}

// Every Python file's absolute imports by first component, for the edges seen in imports. Read
// through the monorepo's one facts cache (keyed by content), which the projects' analyses share.
std::vector<monorepo::FileImports> imports_of(Repository& repo, MonorepoPlan& plan, const cli::Options& options,
                                              FactsStore& store) {
  if (!plan.snapshot->inventory) plan.snapshot->inventory = repo.inventory(plan.snapshot->changes);
  std::vector<SourceFile> python_files;
  for (const auto& f : *plan.snapshot->inventory) {
    if (is_python(f.path.str)) python_files.push_back(f);
  }
  unsigned threads = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  ProjectFacts facts = store.load(std::move(python_files), [&](const SourceFile& f) { return repo.read_current(f); },
                                  threads);
  plan.parsed += facts.parsed;
  std::vector<monorepo::FileImports> out;
  ImportScratch scratch;
  for (size_t i = 0; i < facts.files.size(); ++i) {
    facts.imports(i, scratch);
    monorepo::FileImports file{facts.files[i].path.str, {}};
    for (const auto& imp : scratch.imports) {
      if (imp.level > 0 || imp.module.empty()) continue;
      file.top_names.emplace_back(imp.module.substr(0, imp.module.find('.')));
    }
    std::sort(file.top_names.begin(), file.top_names.end());
    file.top_names.erase(std::unique(file.top_names.begin(), file.top_names.end()), file.top_names.end());
    out.push_back(std::move(file));
  }
  return out;
}

// The edges between the projects: declared ones, and those seen in imports when `seen` (each said
// once, as a warning, when nothing declares it).
void find_edges(Repository& repo, MonorepoPlan& plan, const ProjectSet& set, const cli::Options& options,
                FactsStore& store) {
  plan.edges = monorepo::declared_edges(repo.root(), set.all);
  std::vector<monorepo::Edge> seen = monorepo::import_edges(set.all, imports_of(repo, plan, options, store));
  for (auto& e : seen) {
    bool declared = std::any_of(plan.edges.begin(), plan.edges.end(),
                                [&](const monorepo::Edge& d) { return d.from == e.from && d.to == e.to; });
    if (!declared) {
      plan.warnings.push_back(fmt::format("{} imports {} but does not declare it ({})", e.from, e.to, e.why));
    }
    plan.edges.push_back(std::move(e));
  }
}

// The edge from `from` to `to`, described, for a dependent's detail.
std::string edge_why(const std::vector<monorepo::Edge>& edges, std::string_view from, std::string_view to) {
  for (const auto& e : edges) {
    if (e.from == from && e.to == to) return e.why;
  }
  return "";
}

RunPlan whole_suite(const ImpactConfig& config, const cli::Options& options, const EnvLookup& env,
                    const std::filesystem::path& dir) {
  if (config.fallback_command.is_set()) return fallback_plan(config, env, dir); // the project's own way
  RunPlan plan;
  plan.command = find_configured_pytest(config, env, dir);
  if (!plan.command) {
    plan.problem = std::string(k_pytest_not_found);
    return plan;
  }
  plan.argv = plan.command->argv;
  plan.argv.insert(plan.argv.end(), options.passthrough.begin(), options.passthrough.end());
  return plan;
}

} // namespace

std::string junit_path(const cli::Options& options, const monorepo::Project& project) {
  std::filesystem::path path(options.junitxml);
  if (path.is_relative()) path = std::filesystem::absolute(options.directory) / path;
  std::string name = path.stem().string() + "." + monorepo::slug(project.dir) + path.extension().string();
  return (path.parent_path() / name).lexically_normal().string();
}

std::string_view to_string(ProjectRun run) {
  switch (run) {
  case ProjectRun::selection: return "selection";
  case ProjectRun::all: return "all";
  case ProjectRun::none: return "none";
  }
  return "";
}

std::string_view to_string(ProjectWhy why) {
  switch (why) {
  case ProjectWhy::changed: return "changed";
  case ProjectWhy::depends_on_changed: return "depends_on_changed";
  case ProjectWhy::outside_change: return "outside_change";
  case ProjectWhy::no_ci_base: return "no_ci_base";
  case ProjectWhy::unchanged: return "unchanged";
  }
  return "";
}

std::string root_node_id(const monorepo::Project& project, std::string_view node_id) {
  return project.dir + "/" + std::string(node_id);
}

MonorepoPlan plan_monorepo(Repository& repo, const ImpactConfig& root_config, const ProjectSet& set,
                           const cli::Options& options, const EnvLookup& env) {
  MonorepoPlan plan;
  plan.root = repo.root();
  plan.warnings = set.warnings;
  plan.timings.push_back({"discovery", set.discovery_ms});
  StageClock clock(plan.timings);
  ChangeChoice choice = choose_changes(options, detect_ci(env));
  check_changed_is_a_revision(repo, options, choice);
  plan.snapshot = std::make_shared<monorepo::RootSnapshot>();
  if (choice.no_base.empty()) plan.snapshot->changes = repo.changes(choice.request);
  clock.lap("changes");
  // One facts cache for every analysis of this run, at the root's cache folder: keyed by content, so
  // that a file is parsed once whichever projects' views and the import edges read it.
  auto cache_dir = util::cache_dir(repo.root(), env);
  FactsStore store = options.no_cache ? FactsStore() : FactsStore(cache_dir);
  if (!store.warning().empty()) plan.warnings.push_back(store.warning());

  // 1. the changed files, by project (a rename may touch two)
  std::set<std::string> changed_projects;
  for (const auto& f : plan.snapshot->changes.files) {
    bool owned = false;
    for (const RepoPath* p : {&f.old_path, &f.new_path}) {
      if (p->empty()) continue;
      if (const monorepo::Project* owner = monorepo::owner_of(set.all, p->str)) {
        changed_projects.insert(owner->dir);
        owned = true;
      }
    }
    if (!owned) plan.outside.push_back(f.path().str);
  }
  // 2. the changes outside every project
  std::string quiet_detail;
  std::string everything = choice.no_base;
  if (everything.empty() && !plan.outside.empty()) {
    everything = outside_effect(repo, plan, set, root_config, options, env, store, quiet_detail);
    clock.lap("outside");
  }
  plan.outside_effect = everything.empty() ? (plan.outside.empty() ? "" : "cannot affect a test: " + quiet_detail)
                                           : everything;
  // 3. each changed project's own decision, in its own view
  std::vector<std::string> reaching; // changed projects whose change can reach their dependents
  std::map<std::string, ProjectPlan> by_dir;
  for (const auto& project : set.all) {
    bool selected = std::any_of(set.selected.begin(), set.selected.end(),
                                [&](const monorepo::Project& p) { return p.dir == project.dir; });
    if (!everything.empty() || !changed_projects.contains(project.dir)) continue;
    monorepo::ProjectView view(repo, project.dir, plan.snapshot);
    ImpactConfig config = load_impact_config(view.root(), env, options.config);
    Analysis analysis = analyse(view, config, options, env, &store);
    plan.parsed += analysis.project.parsed;
    clock.lap("analyse " + project.dir);
    for (const auto& w : analysis.warnings) plan.warnings.push_back(fmt::format("{}: {}", project.dir, w));
    if (reaches_dependents(analysis.decision)) reaching.push_back(project.dir);
    if (!selected) continue; // analysed only for its dependents
    ProjectPlan p;
    p.project = *std::find_if(set.selected.begin(), set.selected.end(),
                              [&](const monorepo::Project& s) { return s.dir == project.dir; });
    p.why = ProjectWhy::changed;
    p.run = analysis.decision.outcome == Outcome::selected  ? ProjectRun::selection
            : analysis.decision.outcome == Outcome::run_all ? ProjectRun::all
                                                            : ProjectRun::none;
    p.detail = analysis.decision.detail;
    p.plan = plan_for(analysis.decision, config, options, env, view.root());
    p.analysis = std::move(analysis);
    by_dir.emplace(project.dir, std::move(p));
  }
  // 4. the projects that depend on a changed one run whole
  std::map<std::string, std::string> chains;
  bool others = std::any_of(set.selected.begin(), set.selected.end(),
                            [&](const monorepo::Project& p) { return !by_dir.contains(p.dir); });
  if (everything.empty() && !reaching.empty() && others) {
    find_edges(repo, plan, set, options, store);
    for (auto& [dir, chain] : monorepo::dependents(plan.edges, reaching)) chains[dir] = chain;
    clock.lap("edges");
  }
  if (!options.no_cache && store.worth_saving()) {
    try {
      util::ensure_cache_dir(cache_dir);
      store.save();
    } catch (const std::exception& e) {
      plan.warnings.push_back(fmt::format("{}; continuing without saving the cache", e.what()));
    }
    clock.lap("facts_save");
  }
  for (const auto& project : set.selected) {
    auto found = by_dir.find(project.dir);
    auto chain = chains.find(project.dir);
    if (found != by_dir.end() && chain == chains.end()) {
      plan.projects.push_back(std::move(found->second));
      continue;
    }
    ProjectPlan p{project, ProjectRun::none, ProjectWhy::unchanged, "nothing it holds or depends on changed",
                  std::nullopt, {}};
    if (found != by_dir.end()) p.analysis = std::move(found->second.analysis);
    if (!everything.empty()) {
      p.why = choice.no_base.empty() ? ProjectWhy::outside_change : ProjectWhy::no_ci_base;
      p.detail = everything;
    } else if (chain != chains.end()) {
      std::string next = chain->second.substr(project.dir.size() + 4);
      next = next.substr(0, next.find(' '));
      p.why = ProjectWhy::depends_on_changed;
      p.detail = fmt::format("depends on a changed project: {} ({})", chain->second,
                             edge_why(plan.edges, project.dir, next));
    }
    if (p.why != ProjectWhy::unchanged) {
      p.run = ProjectRun::all;
      ImpactConfig config = load_impact_config(repo.root() / project.dir, env, options.config);
      p.plan = whole_suite(config, options, env, repo.root() / project.dir);
    }
    plan.projects.push_back(std::move(p));
  }
  if (!options.junitxml.empty()) {
    for (auto& p : plan.projects) {
      if (p.run != ProjectRun::none && p.plan.command && !p.plan.fallback) {
        p.plan.argv.push_back("--junitxml=" + junit_path(options, p.project));
      }
    }
  }
  clock.lap("plans");
  return plan;
}

} // namespace impact::app
