// Opening the repository for a subcommand that works on one project (project_scope.hpp).
#include "app/project_scope.hpp"

#include "app/analyse.hpp"
#include "impact/ci.hpp"
#include "impact/error.hpp"

namespace impact::app {

void ProjectScope::enter(const monorepo::Project& p, const cli::Options& options, const EnvLookup& env,
                         bool working_tree) {
  project = p;
  snapshot = std::make_shared<monorepo::RootSnapshot>();
  if (working_tree) {
    snapshot->changes = git->changes(ChangeRequest{});
  } else {
    // As plan_monorepo takes it; a missing revision is left to analyse(), which names the fix.
    ChangeChoice choice = choose_changes(options, detect_ci(env));
    check_changed_is_a_revision(*git, options, choice);
    bool readable = !choice.request.rev || git->has_revision(*choice.request.rev);
    if (choice.no_base.empty() && readable) snapshot->changes = git->changes(choice.request);
  }
  view = std::make_unique<monorepo::ProjectView>(*git, p.dir, snapshot);
}

ProjectScope open_scope(const cli::Options& options, const EnvLookup& env) {
  ProjectScope scope;
  scope.git = open_git_repository(options.directory, env);
  scope.root_config = load_impact_config(scope.git->root(), env, options.config);
  scope.set = find_project_set(scope.git->root(), options, scope.root_config);
  return scope;
}

const monorepo::Project& only_project(const ProjectSet& set, std::string_view command) {
  if (set.selected.size() == 1) return set.selected.front();
  throw Error("{} works on one project of a monorepo and {} are selected here; run it in one (-C <project>, or "
              "--project <project>); impact projects lists them",
              command, set.selected.size());
}

ProjectScope open_one_project(const cli::Options& options, const EnvLookup& env, std::string_view command,
                              bool working_tree) {
  ProjectScope scope = open_scope(options, env);
  if (scope.set) scope.enter(only_project(*scope.set, command), options, env, working_tree);
  return scope;
}

} // namespace impact::app
