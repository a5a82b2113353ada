#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "impact/why_not_selected.hpp"
#include "app/explain_target.hpp"
#include "impact/config.hpp"
#include "impact/report.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

namespace impact::app {

// `impact explain TARGET`: SELECTED with the chain from the change to the test, hop by hop, or
// SKIPPED with why no chain exists.
int run_explain(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  Analysis analysis = analyse(*repo, config, options, env);
  print_warnings(analysis);
  const Decision& d = analysis.decision;
  const std::string& target = options.target;
  std::string file = file_of(target);
  check_explain_target(target, d, repo->root());
  std::string shown = util::quote_name(target);

  if (d.outcome == Outcome::run_all) {
    fmt::print("[SELECTED] {}\n  the whole suite runs: {} ({})\n", shown, util::one_line(d.reason),
               util::one_line(d.detail));
    return 0;
  }
  bool any = false;
  for (const auto& t : d.selected) {
    // The target runs with this selection, or holds a selected test (a file, a class, a folder).
    if (!covers(t.node_id, target) && !covers(target, t.node_id)) continue;
    any = true;
    fmt::print("[SELECTED] {}\n  {}\n", util::quote_name(t.node_id), render_chain(t.chain));
    if (!t.note.empty()) fmt::print("  note: {}\n", util::one_line(t.note));
  }
  for (const auto& f : d.files) {
    if (f.path.str == file || f.old_path.str == file) {
      any = true;
      fmt::print("[CHANGED] {}: {}\n", util::quote_name(f.path.str), util::one_line(f.effect));
    }
  }
  if (any) return 0;

  fmt::print("[SKIPPED] {}\n", shown);
  for (const auto& line : describe_not_selected(why_not_selected(d, target), d)) {
    fmt::print("  {}\n", util::one_line(line));
  }
  fmt::print("  decision: {} ({} changed file(s), mode {})\n", to_string(d.outcome), d.files.size(),
             to_string(d.mode_effective));
  return 0;
}

} // namespace impact::app
