#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "impact/config.hpp"
#include "impact/report.hpp"

#include <fmt/format.h>

namespace impact::app {

namespace {

std::string file_of(const std::string& node_id) { return node_id.substr(0, node_id.find("::")); }

std::string changed_symbols(const Decision& d) {
  std::vector<std::string> parts;
  for (const auto& f : d.files) {
    if (f.symbols.empty()) {
      parts.push_back(fmt::format("{} ({})", f.path, f.change.empty() ? std::string(to_string(f.status)) : f.change));
      continue;
    }
    for (const auto& s : f.symbols) parts.push_back(fmt::format("{}:{} ({})", f.path, s.qualname, to_string(s.change)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

} // namespace

// `impact explain TARGET`: SELECTED with the chain from the change to the test, hop by hop, or
// SKIPPED with why no chain exists.
int run_explain(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ImpactConfig config = load_impact_config(repo->root(), env);
  Analysis analysis = analyse(*repo, config, options, env);
  const Decision& d = analysis.decision;
  const std::string& target = options.target;
  std::string file = file_of(target);

  if (d.outcome == Outcome::run_all) {
    fmt::print("[SELECTED] {}\n  the whole suite runs: {} ({})\n", target, d.reason, d.detail);
    return 0;
  }
  bool any = false;
  for (const auto& t : d.selected) {
    bool match = t.node_id == target || t.node_id == file || (target == file && file_of(t.node_id) == file) ||
                 t.node_id.starts_with(target + "::");
    if (!match) continue;
    any = true;
    fmt::print("[SELECTED] {}\n  {}\n", t.node_id, render_chain(t.chain));
    if (!t.note.empty()) fmt::print("  note: {}\n", t.note);
  }
  for (const auto& f : d.files) {
    if (f.path.str == file || f.old_path.str == file) {
      any = true;
      fmt::print("[CHANGED] {}: {}\n", f.path, f.effect);
    }
  }
  if (any) return 0;

  fmt::print("[SKIPPED] {}\n", target);
  const SelectedTest* bound = nullptr;
  for (const auto& t : d.file_level) {
    if (t.node_id == file) bound = &t;
  }
  if (bound != nullptr) {
    fmt::print("  its file loads the changed code: {}\n", render_chain(bound->chain));
    fmt::print("  but no chain of calls, references or fixtures leads from it to what changed: {}\n",
               changed_symbols(d));
  } else if (d.files.empty()) {
    fmt::print("  nothing changed\n");
  } else {
    fmt::print("  no chain of imports, conftest.py files or plugins leads from it to a changed file\n");
  }
  fmt::print("  decision: {} ({} changed file(s), mode {})\n", to_string(d.outcome), d.files.size(),
             to_string(d.mode_effective));
  return 0;
}

} // namespace impact::app
