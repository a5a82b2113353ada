// decide(): the file-level rules, applied per changed file and unioned.
#include "decision/walk.hpp"
#include "impact/decision.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace impact {

namespace {

constexpr std::string_view k_may_load = "dynamic_import_may_load";
constexpr size_t k_max_counted_seeds = 100;

struct Trigger {
  std::string reason;
  std::string detail;
};

bool is_python(const RepoPath& path) { return path.ends_with(".py"); }

std::string_view status_word(FileStatus status) {
  switch (status) {
  case FileStatus::added: return "added";
  case FileStatus::deleted: return "deleted";
  case FileStatus::renamed: return "renamed";
  case FileStatus::type_changed: return "type_changed";
  case FileStatus::modified: return "modified";
  }
  return "modified";
}

class Decider {
public:
  explicit Decider(const DecisionInput& input) : m_in(input), m_walk(input.graph) {}

  Decision run() {
    m_decision.mode_requested = m_decision.mode_effective = m_in.mode;
    for (const auto& change : m_in.changes.files) classify(change);
    m_walk.run();
    deleted_conftests();
    uncertain_imports();
    collect_selection();
    count_per_file();
    conclude();
    return std::move(m_decision);
  }

private:
  bool ignored(const RepoPath& path) const {
    return std::any_of(m_in.ignore.begin(), m_in.ignore.end(),
                       [&](const std::string& glob) { return util::path_glob_match(glob, path.str); });
  }

  void trigger(FileVerdict& verdict, std::string reason, std::string kind, const RepoPath& path) {
    verdict.kind = std::move(kind);
    verdict.effect = "run_all: " + reason;
    m_triggers.push_back(Trigger{std::move(reason), fmt::format("{} changed", path)});
  }

  void classify(const ChangedFile& change) {
    FileVerdict verdict;
    verdict.path = change.path();
    if (change.status == FileStatus::renamed) verdict.old_path = change.old_path;
    verdict.status = change.status;
    bool new_side = !change.new_path.empty() && !ignored(change.new_path);
    bool old_side = !change.old_path.empty() && change.old_path != change.new_path && !ignored(change.old_path);
    if (!new_side && !old_side) {
      verdict.kind = "ignored";
      verdict.effect = "ignored by [tool.impact] ignore";
      m_decision.files.push_back(std::move(verdict));
      return;
    }
    if (change.submodule) {
      trigger(verdict, "submodule_changed", "submodule", change.path());
      m_decision.files.push_back(std::move(verdict));
      return;
    }
    for (const RepoPath* side : {&change.new_path, &change.old_path}) {
      bool active = side == &change.new_path ? new_side : old_side;
      if (!active) continue;
      if (is_config_file(*side) || !is_python(*side)) {
        if (is_config_file(*side)) trigger(verdict, "config_changed", "config", *side);
        else trigger(verdict, "non_python_changed", "non_python", *side);
        m_decision.files.push_back(std::move(verdict));
        return;
      }
    }
    verdict.kind = "python";
    if (new_side) {
      if (auto node = m_in.graph.find(change.new_path.str)) {
        const GraphNode& n = m_in.graph.nodes[*node];
        if (n.conftest) verdict.kind = "conftest";
        else if (n.test) verdict.kind = "test";
        add_seed(*node, std::string(status_word(change.status)));
      }
    }
    if (old_side) {
      if (auto node = m_in.graph.find(change.old_path.str)) {
        add_seed(*node, change.status == FileStatus::renamed ? "renamed_away" : "deleted");
        if (is_conftest(change.old_path) && m_in.graph.nodes[*node].ghost) {
          m_deleted_conftests.push_back(*node);
          verdict.kind = "conftest";
        }
      }
    }
    m_verdict_seeds.push_back(m_seeds_of_current);
    m_seeds_of_current.clear();
    m_decision.files.push_back(std::move(verdict));
  }

  void add_seed(uint32_t node, std::string relation) {
    m_seeds.push_back(node);
    m_seeds_of_current.push_back(node);
    m_walk.seed(node, std::move(relation));
  }

  // A deleted conftest.py selects every test module below its folder.
  void deleted_conftests() {
    for (uint32_t ghost : m_deleted_conftests) {
      std::string_view dir = m_in.graph.nodes[ghost].path.parent();
      for (uint32_t node = 0; node < m_in.graph.nodes.size(); ++node) {
        const GraphNode& n = m_in.graph.nodes[node];
        if (!n.ghost && (n.test || n.conftest || n.test_pattern) && n.path.is_within(dir)) {
          m_walk.link(node, ghost, "conftest", 0);
        }
      }
    }
    m_walk.run();
  }

  // A computed import can load any module: the tests that load it may run the change.
  void uncertain_imports() {
    if (m_seeds.empty()) return;
    for (const auto& u : m_in.graph.unbounded) {
      if (m_walk.reached(u.node)) continue;
      decision::ReverseWalk side(m_in.graph);
      side.seed(u.node, "uncertain");
      side.run();
      bool tests = std::any_of(side.order().begin(), side.order().end(),
                               [&](uint32_t n) { return m_in.graph.nodes[n].test; });
      if (!tests) continue;
      const std::string& path = m_in.graph.nodes[u.node].path.str;
      m_decision.uncertainties.push_back(
          Uncertainty{path, u.line, fmt::format("{}() with a computed name may load any module", u.call)});
      if (m_in.mode == Mode::fast) {
        m_decision.warnings.push_back(fmt::format(
            "{}:{}: {}() with a computed name may load the change; fast mode does not select for it", path, u.line,
            u.call));
        continue;
      }
      if (m_in.strict) {
        m_triggers.push_back(Trigger{"uncertain_dynamic_import",
                                     fmt::format("{}:{}: {}() with a computed name may load the change", path,
                                                 u.line, u.call)});
        continue;
      }
      m_walk.link(u.node, m_seeds.front(), std::string(k_may_load), u.line);
    }
    m_walk.run();
  }

  void collect_selection() {
    std::vector<uint32_t> import_only; // match python_files but define no tests: pytest still imports them
    for (uint32_t node : m_walk.order()) {
      const GraphNode& n = m_in.graph.nodes[node];
      if (n.ghost) continue;
      if (!n.test) {
        if (n.test_pattern) import_only.push_back(node);
        continue;
      }
      SelectedTest test;
      test.node_id = n.path.str;
      test.chain = m_walk.chain(node);
      for (const auto& hop : test.chain) {
        if (hop.relation == k_may_load) {
          test.note = fmt::format("cannot be ruled out: {}:{} imports a computed module name", hop.path, hop.line);
        }
      }
      m_decision.selected.push_back(std::move(test));
    }
    // pytest imports every file matching python_files during collection, tests or not, so an import
    // error there fails a full run. Alongside other tests such a file is simply passed too; on its own
    // it would make pytest exit 5 (no tests collected), so only a full run can show its errors.
    if (!import_only.empty() && m_decision.selected.empty() && m_triggers.empty()) {
      const std::string& path = m_in.graph.nodes[import_only.front()].path.str;
      m_triggers.push_back(Trigger{"import_only_test_files",
                                   fmt::format("{} matches python_files but defines no tests; only a full run "
                                               "shows its import errors",
                                               path)});
    } else if (!m_decision.selected.empty()) {
      for (uint32_t node : import_only) {
        SelectedTest test;
        test.node_id = m_in.graph.nodes[node].path.str;
        test.chain = m_walk.chain(node);
        test.note = "defines no tests; pytest imports it during collection, so its import errors count";
        m_decision.selected.push_back(std::move(test));
      }
    }
    std::sort(m_decision.selected.begin(), m_decision.selected.end(),
              [](const SelectedTest& a, const SelectedTest& b) { return a.node_id < b.node_id; });
  }

  void count_per_file() {
    size_t python = 0;
    for (auto& v : m_decision.files) python += v.effect.empty() ? 1 : 0;
    size_t seeded = 0;
    for (auto& verdict : m_decision.files) {
      if (!verdict.effect.empty()) continue;
      const auto& seeds = m_verdict_seeds[seeded++];
      if (python > k_max_counted_seeds) {
        verdict.effect = "analysed";
        continue;
      }
      decision::ReverseWalk walk(m_in.graph);
      for (uint32_t s : seeds) walk.seed(s, "changed");
      walk.run();
      long tests = 0;
      for (uint32_t n : walk.order()) tests += m_in.graph.nodes[n].test && !m_in.graph.nodes[n].ghost ? 1 : 0;
      verdict.tests = tests;
      if (verdict.kind == "test" && tests > 0) verdict.effect = fmt::format("test file: runs itself ({} test file(s) in all)", tests);
      else if (tests == 0) verdict.effect = "no test loads it";
      else verdict.effect = fmt::format("reaches {} test file(s)", tests);
    }
  }

  void conclude() {
    if (!m_triggers.empty()) {
      m_decision.outcome = Outcome::run_all;
      m_decision.reason = m_triggers.front().reason;
      std::vector<std::string> details;
      for (const auto& t : m_triggers) details.push_back(t.detail);
      m_decision.detail = fmt::format("{}", fmt::join(details, "; "));
      m_decision.selected.clear();
      return;
    }
    if (!m_decision.selected.empty()) {
      m_decision.outcome = Outcome::selected;
      return;
    }
    m_decision.outcome = Outcome::nothing;
    bool all_ignored = std::all_of(m_decision.files.begin(), m_decision.files.end(),
                                   [](const FileVerdict& v) { return v.kind == "ignored"; });
    if (m_in.changes.files.empty()) {
      m_decision.reason = "no_changes";
      m_decision.detail = "no files changed";
    } else if (all_ignored) {
      m_decision.reason = "only_ignored_files";
      m_decision.detail = "every changed file is ignored by [tool.impact] ignore";
    } else {
      m_decision.reason = "no_tests_reached";
      m_decision.detail = "no test loads the changed files";
    }
  }

  const DecisionInput& m_in;
  decision::ReverseWalk m_walk;
  Decision m_decision;
  std::vector<Trigger> m_triggers;
  std::vector<uint32_t> m_seeds;
  std::vector<uint32_t> m_seeds_of_current;
  std::vector<std::vector<uint32_t>> m_verdict_seeds; // per python verdict, in order
  std::vector<uint32_t> m_deleted_conftests;
};

} // namespace

Decision decide(const DecisionInput& input) { return Decider(input).run(); }

} // namespace impact
