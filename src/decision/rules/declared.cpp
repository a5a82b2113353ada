// Rules `triggers` and `always-run` of docs/selection.md.
#include "decision/rules/declared.hpp"

#include "decision/relation.hpp"
#include "impact/graph.hpp"
#include "impact/node_id.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace impact::decision {

namespace {

bool has_wildcard(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

const std::string* matching_glob(const TriggerRule& rule, const RepoPath& path) {
  for (const auto& glob : rule.paths) {
    if (util::path_glob_match(glob, path.str)) return &glob;
  }
  return nullptr;
}

} // namespace

std::vector<std::string> tests_named(const ImportGraph& graph, const std::string& entry) {
  std::vector<std::string> out;
  NodeId id = NodeId::of(entry);
  std::string folder = entry.ends_with('/') ? entry : entry + "/";
  for (const auto& n : graph.nodes) {
    if (!n.test || n.ghost) continue;
    const std::string& path = n.path.str;
    if (!id.whole_file) {
      if (path == id.file) return {entry};
      continue;
    }
    if (path == entry || path.starts_with(folder) || (has_wildcard(entry) && util::path_glob_match(entry, path))) {
      out.push_back(path);
    }
  }
  return out;
}

namespace {

struct Additions {
  std::vector<SelectedTest> tests;
  std::vector<std::string> warnings;

  void add(const ImportGraph& graph, const std::vector<std::string>& entries, const std::string& where,
           const std::vector<Hop>& tail, Relation relation, const std::string& note) {
    for (const auto& entry : entries) {
      auto ids = tests_named(graph, entry);
      if (ids.empty()) {
        warnings.push_back(fmt::format("{}: '{}' names no test file pytest collects here; fix the entry or remove it",
                                       where, entry));
      }
      for (auto& id : ids) {
        std::vector<Hop> chain{Hop{std::string(NodeId::of(id).file), relation, 0, {}}};
        chain.insert(chain.end(), tail.begin(), tail.end());
        tests.push_back(SelectedTest{std::move(id), std::move(chain), note});
      }
    }
  }
};

// Adds `tests` to the selection: none twice, and none inside a test file that runs whole.
void merge(Decision& decision, std::vector<SelectedTest> tests) {
  auto& selected = decision.selected;
  for (auto& t : tests) {
    NodeId id = NodeId::of(t.node_id);
    bool present = std::any_of(selected.begin(), selected.end(), [&](const SelectedTest& s) {
      return s.node_id == t.node_id || s.node_id == id.file;
    });
    if (present) continue;
    if (id.whole_file) {
      std::erase_if(selected, [&](const SelectedTest& s) { return NodeId::of(s.node_id).file == id.file; });
    }
    selected.push_back(std::move(t));
  }
  std::sort(selected.begin(), selected.end(),
            [](const SelectedTest& a, const SelectedTest& b) { return a.node_id < b.node_id; });
}

} // namespace

const TriggerRule* bounding_trigger(const ImportGraph& graph, const std::vector<TriggerRule>& rules,
                                    const RepoPath& path) {
  for (const auto& rule : rules) {
    if (rule.run_all || matching_glob(rule, path) == nullptr) continue;
    if (std::any_of(rule.run.begin(), rule.run.end(), [&](const auto& e) { return !tests_named(graph, e).empty(); })) {
      return &rule;
    }
  }
  return nullptr;
}

namespace {

void apply_changes_declared(const DecisionInput& in, Decision& decision) {
  if (in.changes.files.empty() || (in.triggers.empty() && in.always_run.empty())) return;
  std::vector<std::string> run_all;
  Additions added;
  for (const auto& change : in.changes.files) {
    std::set<std::string> sides;
    for (const RepoPath* p : {&change.new_path, &change.old_path}) {
      if (!p->empty()) sides.insert(p->str);
    }
    for (const auto& side : sides) {
      RepoPath path(side);
      for (const auto& rule : in.triggers) {
        const std::string* glob = matching_glob(rule, path);
        if (glob == nullptr) continue;
        if (rule.run_all) {
          run_all.push_back(fmt::format("{} changed: [tool.impact] {} matches it ({})", side, rule.name, *glob));
          continue;
        }
        added.add(in.graph, rule.run, fmt::format("pyproject.toml: [tool.impact] {}", rule.name),
                  {Hop{side, relation_of(change.status), 0, {}}}, Relation::trigger,
                  fmt::format("[tool.impact] {} ({} matches {})", rule.name, side, *glob));
      }
    }
  }
  if (!run_all.empty() && decision.outcome != Outcome::run_all) {
    decision.outcome = Outcome::run_all;
    decision.reason = Reason::triggered;
    decision.detail = fmt::format("{}", fmt::join(run_all, "; "));
    decision.selected.clear();
  }
  if (decision.outcome == Outcome::run_all) return;
  added.add(in.graph, in.always_run, "pyproject.toml: [tool.impact] always-run", {}, Relation::always_run,
            "[tool.impact] always-run");
  decision.warnings.insert(decision.warnings.end(), added.warnings.begin(), added.warnings.end());
  if (added.tests.empty()) return;
  merge(decision, std::move(added.tests));
  decision.outcome = Outcome::selected;
  decision.reason = Reason::none;
  decision.detail.clear();
}

} // namespace

void apply_declared(const DecisionInput& in, Decision& decision) {
  apply_changes_declared(in, decision);
  // --include-failed: a test pytest's last run failed runs again, changes or not (a user fixing it
  // expects it to); one that is gone from the suite is left out without a word.
  if (in.last_failed.empty() || decision.outcome == Outcome::run_all) return;
  std::vector<SelectedTest> failed;
  for (const auto& id : in.last_failed) {
    if (NodeId::of(id).whole_file || tests_named(in.graph, id).empty()) continue;
    failed.push_back(SelectedTest{id, {Hop{std::string(NodeId::of(id).file), Relation::last_failed, 0, {}}},
                                  "failed in pytest's last run (--include-failed)"});
  }
  if (failed.empty()) return;
  merge(decision, std::move(failed));
  decision.outcome = Outcome::selected;
  decision.reason = Reason::none;
  decision.detail.clear();
}

} // namespace impact::decision
