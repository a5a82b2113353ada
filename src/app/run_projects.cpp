// `impact projects`: the pytest projects impact finds in a monorepo and where each was found, as a
// table or as a versioned JSON document (docs/monorepo.md).
#include "app/commands.hpp"
#include "app/project_set.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/project.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace impact::app {

int run_projects(const cli::Options& options) {
  using json = nlohmann::ordered_json;
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  std::string loose;
  std::optional<ProjectSet> set = find_project_set(repo->root(), options, config, &loose);
  if (set) {
    for (const auto& w : set->warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  }
  std::string own = set ? std::string() : pytest_config_file(repo->root(), "");
  if (options.format == cli::Format::json) {
    json projects = json::array();
    if (set) {
      for (const auto& p : set->selected) {
        projects.push_back({{"path", p.dir}, {"config", p.config}, {"found_by", p.found_by}});
      }
    }
    json doc = {{"schema", "impact.projects"}, {"version", 1},       {"root", repo->root().string()},
                {"monorepo", set.has_value()}, {"root_config", own.empty() ? json(nullptr) : json(own)},
                {"root_test", loose.empty() ? json(nullptr) : json(loose)}, {"projects", projects}};
    fmt::print("{}\n", doc.dump(2, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  if (!set) {
    fmt::print("# not a monorepo: {}; impact analyses the repository as one project\n", not_a_monorepo(own, loose));
    return 0;
  }
  fmt::print("# {} of {} project(s) found below {}\n", set->selected.size(), set->all.size(), repo->root().string());
  size_t dir_width = 0, config_width = 0;
  for (const auto& p : set->selected) {
    dir_width = std::max(dir_width, p.dir.size());
    config_width = std::max(config_width, p.config.size());
  }
  for (const auto& p : set->selected) {
    fmt::print("{:<{}}  {:<{}}  {}\n", p.dir, dir_width, p.config, config_width, p.found_by);
  }
  return 0;
}

} // namespace impact::app
