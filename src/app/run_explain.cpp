// `impact explain TARGET`: SELECTED with the chain from the change to the test, hop by hop, or
// SKIPPED with why no chain exists; --format json: the same as a document (docs/json.md).
#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "app/explain_target.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
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

std::string render_json(const Decision& d, const std::string& target, const Explanation& e) {
  using json = nlohmann::ordered_json;
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
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

int run_explain(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  Analysis analysis = analyse(*repo, config, options, env);
  print_warnings(analysis);
  const Decision& d = analysis.decision;
  check_explain_target(options.target, d, repo->root());
  Explanation e = explain(d, options.target);
  if (options.format == cli::Format::json) fmt::print("{}", render_json(d, options.target, e));
  else print_text(d, options.target, e);
  return 0;
}

} // namespace impact::app
