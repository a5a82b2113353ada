#pragma once
// The repository a subcommand that works on one project sees (docs/monorepo.md, "The subcommands"):
// the git repository itself, or in monorepo mode the view of one project, as if impact ran in its
// folder, with the change taken once at the root.
#include "app/project_set.hpp"
#include "cli/options.hpp"
#include "impact/changes.hpp"
#include "impact/config.hpp"
#include "impact/monorepo.hpp"

#include <memory>
#include <optional>
#include <string_view>

namespace impact::app {

// An opened repository, its project set (monorepo mode) and, once entered, one project's view.
struct ProjectScope {
  std::unique_ptr<Repository> git;                  // the git repository, at its root
  ImpactConfig root_config;                         // the root's [tool.impact]
  std::optional<ProjectSet> set;                    // nullopt outside monorepo mode
  std::optional<monorepo::Project> project;         // the project entered
  std::shared_ptr<monorepo::RootSnapshot> snapshot; // the change the view shows
  std::unique_ptr<monorepo::ProjectView> view;

  // The repository to work on: the project's view once entered, else the git repository.
  Repository& repo() { return view ? *view : *git; }
  // Enters `p`: its view shows the change `options` ask for (as analyse() chooses it), or the
  // working tree when `working_tree`. Throws impact::Error as the change's reading does.
  void enter(const monorepo::Project& p, const cli::Options& options, const EnvLookup& env, bool working_tree);
};

// Opens the repository at options.directory and finds its project set. Throws impact::Error as
// open_git_repository and find_project_set do.
ProjectScope open_scope(const cli::Options& options, const EnvLookup& env);

// The one project the run selects (-C <project>, --project), for `command`; throws impact::Error
// naming -C <project> as the fix when it selects several.
const monorepo::Project& only_project(const ProjectSet& set, std::string_view command);

// open_scope, then, in monorepo mode, enters the one project the run selects (only_project).
ProjectScope open_one_project(const cli::Options& options, const EnvLookup& env, std::string_view command,
                              bool working_tree);

} // namespace impact::app
