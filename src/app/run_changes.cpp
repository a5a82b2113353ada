#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "impact/changes.hpp"
#include "impact/report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace impact::app {

int run_changes(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ChangeChoice choice = choose_changes(options, detect_ci(env));
  ChangeSet changes = repo->changes(choice.request);
  if (options.format == cli::Format::json) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& f : changes.files) {
      nlohmann::json hunks = nlohmann::json::array();
      for (const auto& h : f.hunks) hunks.push_back({h.old_start, h.old_count, h.new_start, h.new_count});
      files.push_back({{"path", f.path().str},
                       {"old_path", f.old_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.old_path.str)},
                       {"status", std::string(to_string(f.status))},
                       {"binary", f.binary},
                       {"untracked", f.untracked},
                       {"submodule", f.submodule},
                       {"hunks", hunks}});
    }
    nlohmann::json doc = {{"schema", "impact.changes"},
                          {"version", 1},
                          {"base", {{"rev", changes.base.rev}, {"commit", changes.base.commit},
                                    {"merge_base", changes.base.merge_base}, {"source", changes.base.source},
                                    {"mode", changes.base.mode == DiffMode::staged ? "staged" : "working_tree"}}},
                          {"files", files}};
    fmt::print("{}\n", doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    return 0;
  }
  fmt::print("compared: {}\n", describe_base(changes.base));
  for (const auto& f : changes.files) {
    std::string name = f.old_path.empty() || f.old_path == f.new_path ? f.path().str : f.old_path.str + " → " + f.path().str;
    std::string ranges;
    for (const auto& h : f.hunks) {
      ranges += fmt::format(" -{},{} +{},{}", h.old_start, h.old_count, h.new_start, h.new_count);
    }
    if (f.binary) ranges = " (binary)";
    if (f.submodule) ranges = " (submodule)";
    fmt::print("{:<12} {}{}\n", to_string(f.status), name, ranges);
  }
  return 0;
}

} // namespace impact::app
