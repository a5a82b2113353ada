#pragma once
// SymbolWalk: from changed symbols backwards over references and pytest fixtures to the tests that
// can reach them. Whatever it cannot follow precisely it hands back as a file-level seed (the file's
// importers are all affected), so it never answers with fewer tests than the file-level walk would
// for that file. This is the engine (the queue, the chains, the budget); what reaches what is said
// by the rule families in decision/rules/, which visit() applies in order.
#include "decision/project_tables.hpp"
#include "decision/rules/classes.hpp"
#include "decision/rules/dynamic_access.hpp"
#include "decision/rules/fixtures.hpp"
#include "decision/rules/references.hpp"
#include "decision/rules/registration.hpp"
#include "decision/rules/self_calls.hpp"
#include "decision/rules/rule_family.hpp"
#include "impact/decision.hpp"
#include "impact/project.hpp"
#include "impact/resolve/file_index.hpp"
#include "util/string_set.hpp"

#include <chrono>
#include <optional>
#include <utility>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace impact::decision {

struct SymbolSeed {
  uint32_t node = 0;
  std::string qualname;
  Relation change = Relation::implementation; // the kind of change, for the evidence
  uint32_t line = 0;
};

// The names text doctests spell (docs/selection.md `collection`): a walk that watches records, for
// each wanted name, the chain of the nearest reached symbol of that name, and sets
// `unnamed` when it reaches code that runs without being named: a special method, an autouse fixture,
// a pytest hook, a function given doctest_namespace. Nested walks report into the same watch.
struct NameWatch {
  util::StringSet wanted;
  // What a spelled name also names: the originals of the project's renamed imports (`from x import f
  // as g`: a doctest spelling `g` names `f`, which the walk reaches; its readers by `g` are found
  // through the import), followed through chains of renames. g -> {f, ...}.
  util::StringMap<std::vector<std::string>> originals;
  // What fixtures store into doctest_namespace: every doctest may read these names.
  std::vector<std::string> shared;
  util::StringMap<std::vector<Hop>> found;
  bool unnamed = false;
};

struct Budget {
  uint32_t max_depth = k_default_max_depth;
  double budget_ms = 0; // 0: no limit
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

struct SymbolResult {
  std::unordered_map<std::string, std::vector<Hop>> tests;            // node id -> chain
  std::unordered_map<uint32_t, std::vector<Hop>> whole_files;         // a test file selected whole
  std::unordered_map<uint32_t, std::vector<Hop>> file_level;          // every importer affected
  // Files whose main guard reaches a symbol (`main-guard`): the test files that may run them as programs.
  std::unordered_map<uint32_t, std::vector<Hop>> programs;
  std::vector<std::string> warnings;
  bool budget_exceeded = false;
  // Why a collection hook may run what this walk (or one nested in it) reached (`collect-hook`).
  std::optional<std::string> collect_hook;
};

class SymbolWalk {
public:
  // `mode`: in Mode::safe, code that reads attributes by computed names reads every name
  // (docs/selection.md `dynamic-access`), rather than the objects that can reach it.
  SymbolWalk(const ImportGraph& graph, const ProjectFacts& facts, const ProjectLayout& layout, Budget budget,
             Mode mode = Mode::balanced);
  // A nested walk (subwalk()) that shares `parent`'s name resolution and tables.
  SymbolWalk(SymbolWalk& parent, Budget budget);
  SymbolWalk(const SymbolWalk&) = delete;
  SymbolWalk& operator=(const SymbolWalk&) = delete;

  SymbolResult run(const std::vector<SymbolSeed>& seeds);
  // Reports the names this walk (and each nested one) reaches into `watch`, at the end of run().
  void watch(NameWatch* watch) { m_watch = watch; }

  // What the rules read.
  const ImportGraph& graph() const { return m_graph; }
  const ProjectFacts& facts() const { return m_facts; }
  const ProjectLayout& layout() const { return m_layout; }
  Mode mode() const { return m_mode; }
  bool nested() const { return m_nested; }
  // What a walk from `seeds` alone selects: a walk of its own, nested, on this one's budget.
  SymbolResult subwalk(const std::vector<SymbolSeed>& seeds);
  resolve::FileIndex& index() { return m_index; }
  ProjectTables& tables() { return m_tables; }
  rules::DynamicAccessRules& dynamic_access() { return m_dynamic_access; }
  rules::ClassRules& classes() { return m_classes; }
  rules::ReferenceRules& references() { return m_references; }
  rules::RegistrationRules& registration() { return m_registration; }
  rules::SelfCallRules& self_calls() { return m_self_calls; }

  // What the rules say. Each records how the walk got there (`relation`, on `line` of the file).
  WalkKey key_of(uint32_t node, std::string_view qualname); // interns the name
  Key key_from(WalkKey key) const;
  // Queues symbol `qualname` of `node`, reached from `from`; no-op if already queued.
  void reach(uint32_t node, std::string_view qualname, WalkKey from, Relation relation, uint32_t line);
  // Every importer of `node` is affected (code that runs at import reaches the symbol).
  void file_level(uint32_t node, WalkKey from, Relation relation, uint32_t line);
  // Test file `node` is selected whole.
  void whole_file(uint32_t node, WalkKey from, Relation relation);
  // The main guard of `node` reaches the symbol (`main-guard`), which runs where `node` runs as a program.
  void program_reached(uint32_t node, WalkKey from);
  // The test files that may run a module as a program (rules/main_guard.hpp), computed once per walk tree.
  const std::vector<uint32_t>& program_runners();
  // rules::data_loaders of data read from files, once per decision.
  const std::vector<uint32_t>& data_loaders();
  // Test `id` (or test file `node`, whole) is selected with the chain `hops`, then the chain of `from`.
  void select_test(const std::string& id, std::vector<Hop> hops, WalkKey from);
  void select_file(uint32_t node, std::vector<Hop> hops, WalkKey from);
  // Whether `key` was queued, or searched as the class of a changed method.
  bool known(WalkKey key) const { return m_via.contains(key) || m_member_of.contains(key); }
  bool reached(WalkKey key) const { return m_via.contains(key); } // queued
  // Records class `key` as searched for the subclasses that inherit a changed method (reached from
  // `from`), without queueing it: the class itself can still be reached.
  void searched_class(WalkKey key, WalkKey from, Relation relation, uint32_t line);
  // A collection hook may run what the walk reached (`detail` says how): noted on the outermost walk's result.
  void collect_hook_reached(std::string detail);

private:
  struct Via {
    WalkKey parent = k_no_key; // the symbol this one reaches
    Relation relation = Relation::references;
    uint32_t line = 0;
    uint32_t depth = 0;
  };

  void visit(const Key& key, WalkKey self);
  bool local_function(const resolve::FileInfo& info, int32_t index) const;
  bool visit_defined(const Key& key, WalkKey self, const resolve::FileInfo& info, int32_t index);
  const Via* via_of(WalkKey key) const; // m_via, else m_member_of
  std::vector<Hop> chain(WalkKey key) const;
  bool is_test_symbol(const resolve::FileInfo& info, int32_t index) const;
  void test_reached(const resolve::FileInfo& info, int32_t index, WalkKey from);
  bool over_budget();
  void report_names(); // into m_watch

  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  const ProjectLayout& m_layout;
  // Owned by the outermost walk; a nested walk borrows its parent's (they cache what they decode).
  std::unique_ptr<resolve::FileIndex> m_own_index;
  std::unique_ptr<ProjectTables> m_own_tables;
  resolve::FileIndex& m_index;
  ProjectTables& m_tables;
  Budget m_budget;
  Mode m_mode;
  bool m_nested;
  SymbolWalk* m_root = this; // the outermost walk
  std::optional<std::vector<uint32_t>> m_program_runners; // the outermost walk's program_runners()
  std::optional<std::vector<uint32_t>> m_data_loaders;    // the outermost walk's data_loaders()
  NameWatch* m_watch = nullptr;
  std::deque<std::string> m_qualnames; // interned qualified names, by id (Key::qualname views them)
  std::unordered_map<std::string_view, uint32_t> m_qualname_ids;
  std::unordered_map<WalkKey, Via> m_via;
  // A class whose subclasses were searched for a changed method: how the chains from there read. Kept
  // apart from m_via, which says what is queued, so that the class itself can still be reached.
  std::unordered_map<WalkKey, Via> m_member_of;
  std::vector<WalkKey> m_queue;
  SymbolResult m_result;
  // The rule families, in the order visit() applies them.
  rules::FixtureRules m_fixtures;
  rules::RegistrationRules m_registration;
  rules::ClassRules m_classes;
  rules::DynamicAccessRules m_dynamic_access;
  rules::SelfCallRules m_self_calls;
  rules::ReferenceRules m_references;
};

} // namespace impact::decision
