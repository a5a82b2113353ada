#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "impact/config.hpp"
#include "impact/report.hpp"

#include <fmt/format.h>

namespace impact::app {

int run_explain(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ImpactConfig config = load_impact_config(repo->root(), env);
  Analysis analysis = analyse(*repo, config, options, env);
  const Decision& d = analysis.decision;
  std::string target = options.target;
  std::string file = target.substr(0, target.find("::"));
  if (d.outcome == Outcome::run_all) {
    fmt::print("[SELECTED] {}\n  the full suite runs: {} ({})\n", target, d.reason, d.detail);
    return 0;
  }
  for (const auto& t : d.selected) {
    if (t.node_id == target || t.node_id == file || t.node_id.starts_with(target + "::")) {
      fmt::print("[SELECTED] {}\n  {}\n", t.node_id, render_chain(t.chain));
      if (!t.note.empty()) fmt::print("  note: {}\n", t.note);
      return 0;
    }
  }
  for (const auto& f : d.files) {
    if (f.path.str == file) {
      fmt::print("[CHANGED] {}: {}\n", f.path, f.effect);
      return 0;
    }
  }
  fmt::print("[SKIPPED] {}\n  no chain of imports, conftest.py files or plugins leads from a changed file to it\n",
             target);
  fmt::print("  decision: {} ({} changed file(s), mode {})\n", to_string(d.outcome), d.files.size(),
             to_string(d.mode_effective));
  return 0;
}

} // namespace impact::app
