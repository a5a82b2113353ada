#include "app/analyse.hpp"
#include "app/commands.hpp"
#include "app/project_set.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/monorepo.hpp"
#include "impact/report.hpp"
#include "impact/semantic.hpp"
#include "impact/report/json_parts.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

namespace impact::app {

namespace {

std::string lines_text(const SymbolChange& s) {
  if (s.new_lines.first != 0) return fmt::format("lines {}-{}", s.new_lines.first, s.new_lines.last);
  return fmt::format("was lines {}-{}", s.old_lines.first, s.old_lines.last);
}

} // namespace

// `impact changes`: stage 1 (files and hunks) and stage 2 (changed symbols, classified).
int run_changes(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  ChangeChoice choice = choose_changes(options, detect_ci(env));
  check_changed_is_a_revision(*repo, options, choice);
  ChangeSet changes = repo->changes(choice.request);
  std::vector<SourceFile> inventory = repo->inventory(changes);
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  std::vector<FileSemantics> semantics = semantic_diffs(*repo, changes, inventory, config.python_minor);
  // In a monorepo, each file's project ("" outside every project; a rename across two: the new side's).
  std::optional<ProjectSet> set = find_project_set(repo->root(), options, config);
  auto project_of = [&](const ChangedFile& f) -> std::optional<std::string> {
    if (!set) return std::nullopt;
    const monorepo::Project* owner = monorepo::owner_of(set->all, f.path().str);
    return owner ? owner->dir : std::string();
  };
  auto semantics_of = [&](const ChangedFile& f) -> const FileSemantics* {
    for (const auto& s : semantics) {
      if (s.path == f.path()) return &s;
    }
    return nullptr;
  };
  using nlohmann::json;
  if (options.format == cli::Format::json) {
    json files = json::array();
    for (const auto& f : changes.files) {
      json entry = {{"path", f.path().str},
                    {"old_path", f.old_path.empty() ? json(nullptr) : json(f.old_path.str)},
                    {"status", std::string(to_string(f.status))},
                    {"binary", f.binary},
                    {"untracked", f.untracked},
                    {"submodule", f.submodule},
                    {"hunks", report::hunks_json<json>(f.hunks)},
                    {"change", nullptr},
                    {"confidence", nullptr},
                    {"runs_at_import", nullptr},
                    {"symbols", json::array()}};
      if (const FileSemantics* s = semantics_of(f)) {
        entry["change"] = std::string(to_string(s->kind));
        entry["confidence"] = std::string(to_string(s->confidence));
        entry["runs_at_import"] = s->runs_at_import;
        entry["symbols"] = report::symbols_json<json>(s->symbols);
      }
      if (auto project = project_of(f)) entry["project"] = project->empty() ? json(nullptr) : json(*project);
      files.push_back(std::move(entry));
    }
    json doc = {{"schema", "impact.changes"},
                {"version", 1},
                {"base", report::base_json<json>(changes.base)},
                {"files", files}};
    fmt::print("{}\n", doc.dump(2, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  fmt::print("compared: {}\n", describe_base(changes.base));
  // In a monorepo, grouped by project (sorted by folder), then the files outside every project.
  std::vector<const ChangedFile*> order;
  for (const auto& f : changes.files) order.push_back(&f);
  auto group = [&](const ChangedFile* f) {
    std::string dir = project_of(*f).value_or("");
    return std::make_pair(dir.empty(), dir);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const ChangedFile* a, const ChangedFile* b) { return group(a) < group(b); });
  std::optional<std::pair<bool, std::string>> shown;
  for (const ChangedFile* changed : order) {
    const ChangedFile& f = *changed;
    if (set && shown != group(&f)) {
      shown = group(&f);
      fmt::print("{}\n", shown->first ? std::string("# outside every project") : "# " + util::quote_name(shown->second));
    }
    std::string name = util::quote_name(f.path().str);
    if (!f.old_path.empty() && f.old_path != f.new_path) name = util::quote_name(f.old_path.str) + " → " + name;
    std::string ranges;
    for (const auto& h : f.hunks) {
      ranges += fmt::format(" -{},{} +{},{}", h.old_start, h.old_count, h.new_start, h.new_count);
    }
    if (f.binary) ranges = " (binary)";
    if (f.submodule) ranges = " (submodule)";
    fmt::print("{:<12} {}{}\n", to_string(f.status), name, ranges);
    if (const FileSemantics* s = semantics_of(f)) {
      fmt::print("  {}{}{}\n", to_string(s->kind), s->runs_at_import ? ", runs at import" : "",
                 s->confidence == Confidence::high ? "" : ", low confidence");
      for (const auto& sym : s->symbols) {
        fmt::print("    {:<16} {} {} ({}){}\n", to_string(sym.change), to_string(sym.kind), sym.qualname, lines_text(sym),
                   sym.runs_at_import ? ", runs at import" : "");
      }
    }
  }
  return 0;
}

} // namespace impact::app
