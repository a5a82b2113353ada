// `impact doctor` (docs/doctor.md): checks that the project is set up the way the selection and the
// coverage index assume, and names the fix for each problem. Exit 0 when all is well, 1 when
// something needs fixing, 2 when impact cannot check (not a repository, a bad configuration).
#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "app/doctor.hpp"
#include "app/project_scope.hpp"
#include "app/pytest_command.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/coverage.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"
#include "util/cache_dir.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <thread>

namespace impact::app {

namespace {

// The checks that need a pytest session: one collection run answers them all.
void session_checks(std::vector<Check>& checks, const Command& pytest, Repository& repo, const PytestConfig& config,
                    const DoctorProject& project, const cli::Options& options, const EnvLookup& env) {
  const ImportGraph& graph = *project.graph;
  std::string problem;
  auto probe = run_probe(pytest.argv, repo.root(), top_level_packages(graph), options.passthrough, env, problem);
  if (!probe) {
    checks.push_back(Check{"pytest", CheckStatus::fail, problem,
                           "make `" + fmt::format("{}", fmt::join(pytest.argv, " ")) +
                               " --collect-only` work in the repository's root",
                           {}, {}});
    return;
  }
  checks.push_back(Check{"pytest", CheckStatus::ok,
                         fmt::format("pytest runs as {} ({}), with {}", fmt::join(pytest.argv, " "), pytest.source,
                                     probe->executable),
                         "", {}, {}});
  checks.push_back(imports_check(*probe, repo.root(), graph));
  checks.push_back(collection_check(*probe, static_suite(project), config.rootdir));
  checks.push_back(pytest_cov_check(*probe));
  checks.push_back(config_location_check(*probe, repo.root(), config));
}

} // namespace

int run_doctor(const cli::Options& options) {
  EnvLookup env = process_env();
  ProjectScope scope = open_one_project(options, env, "doctor", true); // in a monorepo, one project
  Repository* repo = &scope.repo();
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  PytestConfig pytest = read_pytest_config(repo->root(), pytest_invocation(config, env, options.passthrough));

  // The project as the selection reads it: every Python file's facts, the layout and the import graph
  // of the state under test.
  DoctorProject project;
  project.changes = repo->changes(ChangeRequest{});
  project.inventory = repo->inventory(project.changes);
  std::vector<SourceFile> python_files;
  for (const auto& f : project.inventory) {
    if (f.path.ends_with(".py")) python_files.push_back(f);
  }
  unsigned threads = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  auto dir = util::cache_dir(scope.git->root(), env); // in a monorepo, the root's: one facts cache for all
  FactsStore cache = options.no_cache ? FactsStore() : FactsStore(dir);
  ProjectFacts facts =
      cache.load(std::move(python_files), [&](const SourceFile& f) { return repo->read_current(f); }, threads);
  ProjectLayout layout(pytest, project.inventory, facts);
  ImportGraph graph = build_import_graph(layout, facts, {}, threads);
  project.facts = &facts;
  project.layout = &layout;
  project.graph = &graph;
  project.text_doctests = text_doctests(*repo, layout, pytest, project.inventory);

  std::vector<Check> checks;
  if (auto command = find_configured_pytest(config, env, repo->root())) {
    session_checks(checks, *command, *repo, pytest, project, options, env);
  } else {
    checks.push_back(Check{"pytest", CheckStatus::fail, "pytest cannot be found", std::string(k_pytest_not_found), {}, {}});
  }
  checks.push_back(index_check(dir / index_file_name(), graph));
  checks.push_back(non_python_check(*repo, project, config, pytest, env));

  fmt::print("{}", options.format == cli::Format::json ? render_doctor_json(checks) : render_doctor_text(checks));
  bool healthy = std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.status == CheckStatus::ok; });
  return healthy ? 0 : 1;
}

} // namespace impact::app
