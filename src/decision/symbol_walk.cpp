// The symbol-level walk's engine: a queue of symbols, each remembering the symbol it reaches (the
// chain of evidence), bounded by --max-depth and --budget-ms. What a symbol reaches is the rules'
// business (decision/rules/): visit() applies each family in turn, in the order of this file.
#include "decision/symbol_walk.hpp"

#include "decision/rules/main_guard.hpp"
#include "decision/rules/session_hooks.hpp"

#include <fmt/format.h>

namespace impact::decision {

using resolve::FileInfo;

rules::RuleFamily::RuleFamily(SymbolWalk& walk)
    : m_walk(walk), m_graph(walk.graph()), m_facts(walk.facts()), m_layout(walk.layout()), m_index(walk.index()),
      m_tables(walk.tables()) {}

SymbolWalk::SymbolWalk(const ImportGraph& graph, const ProjectFacts& facts, const ProjectLayout& layout, Budget budget,
                       Mode mode)
    : m_graph(graph), m_facts(facts), m_layout(layout), m_own_index(std::make_unique<resolve::FileIndex>(graph, facts)),
      m_own_tables(std::make_unique<ProjectTables>(graph, facts)), m_index(*m_own_index), m_tables(*m_own_tables),
      m_budget(budget), m_mode(mode), m_nested(false), m_fixtures(*this), m_registration(*this), m_classes(*this),
      m_dynamic_access(*this), m_self_calls(*this), m_references(*this) {
  m_own_index->count_namespace_stores(mode == Mode::safe);
  m_own_index->type_checking_set_by([this] { return m_mode == Mode::safe || rules::tests_set_type_checking(m_graph, &m_facts); });
}

SymbolWalk::SymbolWalk(SymbolWalk& parent, Budget budget)
    : m_graph(parent.m_graph), m_facts(parent.m_facts), m_layout(parent.m_layout), m_index(parent.m_index),
      m_tables(parent.m_tables), m_budget(budget), m_mode(parent.m_mode), m_nested(true), m_root(parent.m_root),
      m_watch(parent.m_watch),
      m_fixtures(*this),
      m_registration(*this), m_classes(*this), m_dynamic_access(*this), m_self_calls(*this), m_references(*this) {}

void SymbolWalk::collect_hook_reached(std::string detail) {
  if (!m_root->m_result.collect_hook) m_root->m_result.collect_hook = std::move(detail);
}

WalkKey SymbolWalk::key_of(uint32_t node, std::string_view qualname) {
  auto it = m_qualname_ids.find(qualname);
  if (it == m_qualname_ids.end()) {
    const std::string& stored = m_qualnames.emplace_back(qualname);
    it = m_qualname_ids.emplace(stored, static_cast<uint32_t>(m_qualnames.size() - 1)).first;
  }
  return (static_cast<WalkKey>(node) << 32) | it->second;
}

Key SymbolWalk::key_from(WalkKey key) const {
  return Key{static_cast<uint32_t>(key >> 32), m_qualnames[static_cast<uint32_t>(key)]};
}

bool SymbolWalk::over_budget() {
  if (m_budget.budget_ms <= 0) return false;
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_budget.start).count();
  return elapsed > m_budget.budget_ms;
}

SymbolResult SymbolWalk::run(const std::vector<SymbolSeed>& seeds) {
  for (const auto& seed : seeds) {
    WalkKey key = key_of(seed.node, seed.qualname);
    if (!m_via.try_emplace(key, Via{k_no_key, seed.change, seed.line, 0}).second) continue;
    m_queue.push_back(key);
  }
  // A queued symbol is looked up by its WalkKey: its qualified name is hashed once, when first reached.
  for (size_t next = 0; next < m_queue.size(); ++next) {
    WalkKey self = m_queue[next];
    Key key = key_from(self);
    if (over_budget()) {
      // Out of time: every symbol still waiting falls back to its file's importers.
      m_result.budget_exceeded = true;
      for (size_t rest = next; rest < m_queue.size(); ++rest) {
        file_level(static_cast<uint32_t>(m_queue[rest] >> 32), m_queue[rest], Relation::budget_exceeded, 0);
      }
      m_result.warnings.push_back(fmt::format("--budget-ms {:.0f} exceeded: the rest of the walk is file-level",
                                              m_budget.budget_ms));
      break;
    }
    if (m_via.find(self)->second.depth >= m_budget.max_depth) {
      if (!m_result.budget_exceeded) {
        m_result.warnings.push_back(
            fmt::format("--max-depth {} reached at {}: that file is analysed at file level", m_budget.max_depth,
                        m_graph.nodes[key.node].path));
      }
      m_result.budget_exceeded = true;
      file_level(key.node, self, Relation::max_depth, 0);
      continue;
    }
    visit(key, self);
  }
  if (m_watch != nullptr) report_names();
  return std::move(m_result);
}

void SymbolWalk::report_names() {
  std::unordered_map<std::string_view, std::pair<uint32_t, WalkKey>> nearest; // name -> (depth, key)
  auto note = [&](std::string_view name, WalkKey key, uint32_t depth) {
    if (name.empty() || !m_watch->wanted.contains(name)) return;
    auto [it, added] = nearest.try_emplace(name, depth, key);
    if (!added && std::pair(depth, key) < it->second) it->second = {depth, key};
  };
  std::vector<std::pair<uint32_t, std::string_view>> dunder_classes; // the classes of special methods reached
  for (const auto& [key, via] : m_via) {
    Key k = key_from(key);
    std::string_view q = k.qualname;
    auto dot = q.rfind('.');
    std::string_view name = q.substr(dot == std::string_view::npos ? 0 : dot + 1);
    if (name.starts_with("pytest_")) m_watch->unnamed = true;
    if (name.size() > 4 && name.starts_with("__") && name.ends_with("__")) {
      // A special method runs on an instance without being named; whoever holds one made it, or got
      // it, through code that names the class, which the walk reaches from the class. A module's
      // own (__getattr__, __dir__) runs for any name.
      if (dot == std::string_view::npos) m_watch->unnamed = true;
      else dunder_classes.emplace_back(k.node, q.substr(0, dot));
    }
    const resolve::FileInfo* info = m_index.get(k.node);
    int32_t i = info == nullptr ? -1 : info->symbol(q);
    if (i < 0) {
      note(name, key, via.depth); // a module-level value (stored-values)
      continue;
    }
    const SymbolView& s = info->at(i);
    if (s.autouse) m_watch->unnamed = true;
    // A fixture is not called by its name (pytest refuses): a doctest gets one from getfixture(),
    // which keeps the file-level answer.
    if (s.fixture.empty()) note(name, key, via.depth);
    for (auto p = info->facts.begin(s.params); p != info->facts.end(s.params); ++p) {
      if (*p == "doctest_namespace") m_watch->unnamed = true;
    }
  }
  for (const auto& [node, cls] : dunder_classes) {
    if (!m_via.contains(key_of(node, cls))) m_watch->unnamed = true;
  }
  // A nested walk's chains start at its own seeds: the outermost walk's, which reports last, win.
  for (const auto& [name, at] : nearest) {
    auto [it, added] = m_watch->found.try_emplace(std::string(name));
    if (added || !m_nested) it->second = chain(at.second);
  }
}

void SymbolWalk::reach(uint32_t node, std::string_view qualname, WalkKey from, Relation relation, uint32_t line) {
  WalkKey key = key_of(node, qualname);
  if (m_via.contains(key)) return;
  const Via* parent = from == k_no_key ? nullptr : via_of(from);
  uint32_t depth = parent == nullptr ? 0 : parent->depth + 1;
  m_via.emplace(key, Via{from, relation, line, depth});
  m_queue.push_back(key);
}

const SymbolWalk::Via* SymbolWalk::via_of(WalkKey key) const {
  if (auto it = m_via.find(key); it != m_via.end()) return &it->second;
  if (auto it = m_member_of.find(key); it != m_member_of.end()) return &it->second;
  return nullptr;
}

void SymbolWalk::file_level(uint32_t node, WalkKey from, Relation relation, uint32_t line) {
  if (m_result.file_level.contains(node)) return;
  std::vector<Hop> hops;
  hops.push_back(Hop{m_graph.nodes[node].path.str, relation, line, {}});
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.file_level.emplace(node, std::move(hops));
}

void SymbolWalk::whole_file(uint32_t node, WalkKey from, Relation relation) {
  if (m_result.whole_files.contains(node)) return;
  std::vector<Hop> hops;
  hops.push_back(Hop{m_graph.nodes[node].path.str, relation, 0, {}});
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.whole_files.emplace(node, std::move(hops));
}

void SymbolWalk::program_reached(uint32_t node, WalkKey from) {
  if (m_result.programs.contains(node)) return;
  std::vector<Hop> hops;
  hops.push_back(Hop{m_graph.nodes[node].path.str, Relation::main_block, 0, {}});
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.programs.emplace(node, std::move(hops));
}

const std::vector<uint32_t>& SymbolWalk::program_runners() {
  auto& runners = m_root->m_program_runners;
  if (!runners) runners = rules::program_runners(m_graph, &m_facts);
  return *runners;
}

const std::vector<uint32_t>& SymbolWalk::data_loaders() {
  auto& loaders = m_root->m_data_loaders;
  if (!loaders) loaders = rules::data_loaders(m_graph, m_facts, true);
  return *loaders;
}

void SymbolWalk::select_test(const std::string& id, std::vector<Hop> hops, WalkKey from) {
  if (m_result.tests.contains(id)) return;
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.tests.emplace(id, std::move(hops));
}

void SymbolWalk::select_file(uint32_t node, std::vector<Hop> hops, WalkKey from) {
  if (m_result.whole_files.contains(node)) return;
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.whole_files.emplace(node, std::move(hops));
}

SymbolResult SymbolWalk::subwalk(const std::vector<SymbolSeed>& seeds) {
  SymbolWalk nested(*this, m_budget);
  SymbolResult out = nested.run(seeds);
  if (out.budget_exceeded) {
    m_result.budget_exceeded = true;
    m_result.warnings.insert(m_result.warnings.end(), out.warnings.begin(), out.warnings.end());
  }
  return out;
}

std::vector<Hop> SymbolWalk::chain(WalkKey key) const {
  std::vector<Hop> hops;
  WalkKey current = key;
  for (size_t guard = 0; guard < 10000 && current != k_no_key; ++guard) {
    const Via* via = via_of(current);
    if (via == nullptr) break;
    Key k = key_from(current);
    hops.push_back(Hop{m_graph.nodes[k.node].path.str, via->relation, via->line, std::string(k.qualname)});
    current = via->parent;
  }
  return hops;
}

bool SymbolWalk::is_test_symbol(const FileInfo& info, int32_t index) const {
  return m_graph.nodes[info.node].test && m_layout.is_test_item(info.facts.symbols, index);
}

void SymbolWalk::searched_class(WalkKey key, WalkKey from, Relation relation, uint32_t line) {
  const Via* parent = via_of(from);
  m_member_of[key] = Via{from, relation, line, parent == nullptr ? 0 : parent->depth + 1};
}

void SymbolWalk::test_reached(const FileInfo& info, int32_t index, WalkKey from) {
  std::string id = test_node_id(m_graph.nodes[info.node].path.str, info.at(index).qualname);
  if (!m_result.tests.contains(id)) m_result.tests.emplace(id, chain(from));
}

void SymbolWalk::visit(const Key& key, WalkKey self) {
  const FileInfo* info = m_index.get(key.node);
  std::string_view name = last_part(key.qualname);
  // A symbolic link to the file is the same code under another module name or test path
  // (`symlinks`): the same symbol of the link is reached too.
  for (const auto& [from, edge] : m_graph.in[key.node]) {
    if (edge.kind == EdgeKind::symlink) reach(from, key.qualname, self, Relation::symlink, 0);
  }
  if (info == nullptr) {
    m_references.referrers(key, self, name, rules::ReferenceRules::Scan::gone); // a deleted file's symbol: its users by name
    return;
  }
  int32_t index = info->symbol(key.qualname);
  if (index < 0 && m_via.find(self)->second.relation == Relation::stored_in) {
    // A module-level value that holds a changed symbol (`stored-values`): read by its name, by whatever
    // holds its module, and named as a base (`class Child(Alias)`). A method's alias in its class body
    // (`next = __next__`) is read as a member of that name: by its name, by protocol when it is a
    // special method, by a base from outside the repository.
    std::string_view owner = parent_part(key.qualname);
    if (owner.empty()) {
      m_classes.subclasses_reached(key, self);
    } else {
      m_classes.gone(key, *info, self);
      if (int32_t cls = info->symbol(owner); cls >= 0) m_classes.method_reached(key, *info, cls, self);
    }
    m_dynamic_access.gone(key, *info, self);
    m_references.referrers(key, self, name, rules::ReferenceRules::Scan::all);
    return;
  }
  if (index < 0) {
    // Gone from the file (deleted or renamed): name resolution in the new version cannot rule users out,
    // and a module that imports the old name fails at import.
    m_classes.gone(key, *info, self);
    m_dynamic_access.gone(key, *info, self);
    m_references.referrers(key, self, name, rules::ReferenceRules::Scan::gone);
    return;
  }
  if (visit_defined(key, self, *info, index)) {
    m_dynamic_access.reached(key, *info, index, self);
    if (!local_function(*info, index)) m_references.referrers(key, self, name, rules::ReferenceRules::Scan::all);
  }
}

// docs/selection.md `symbol-precision`: a function defined inside a function is a local of it. No
// other code names it (a bare name elsewhere is another binding), and code given it as a value got
// it from a run of the enclosing function, which visit_defined reached (`nested_in`). Safe mode reads
// every user by name.
bool SymbolWalk::local_function(const FileInfo& info, int32_t index) const {
  const SymbolView& sym = info.at(index);
  return m_mode != Mode::safe && sym.parent != -1 && info.at(sym.parent).kind != SymbolKind::class_ &&
         sym.kind != SymbolKind::class_;
}

// The rules for a symbol the file defines, in order; false when one of them made the file file-level
// (then its users by name add nothing).
bool SymbolWalk::visit_defined(const Key& key, WalkKey self, const FileInfo& info, int32_t index) {
  const SymbolView& sym = info.at(index);
  if (is_test_symbol(info, index)) {
    test_reached(info, index, self);
  } else if (m_graph.nodes[key.node].test && m_tables.custom_items()) {
    whole_file(key.node, self, Relation::pytest_hook); // a pytest_pycollect_makeitem hook may collect it (`collect-hook`)
  } else if (!m_graph.nodes[key.node].test && m_graph.in[key.node].empty() && m_tables.collect_hooks()) {
    // A file nothing imports, which a collection hook may make a test module of (`check_*.py`).
    auto t = rules::collect_hook_over(m_graph, m_facts, &m_layout, m_graph.nodes[key.node].path);
    if (t) collect_hook_reached(std::move(t->detail));
  }
  m_fixtures.reached(key, sym, self);
  if (m_registration.reached(key, info, index, self)) return false;
  if (m_classes.reached(key, info, index, self)) return false;
  if (sym.parent != -1) {
    const SymbolView& parent = info.at(sym.parent);
    if (parent.kind != SymbolKind::class_) m_references.enclosing(key, parent, self);
    else m_classes.method_reached(key, info, sym.parent, self);
  }
  // The class body stores the method under other names too (`next = __next__`, `stored-values`).
  // pytest collects a test-like alias in a test class, and safe mode keeps the class body's reading.
  if (!sym.aliases.empty()) {
    const SymbolView& parent = info.at(sym.parent);
    if (m_mode == Mode::safe || m_graph.nodes[key.node].test) {
      file_level(key.node, self, Relation::class_body, parent.def_line);
      return false;
    }
    for (auto a = info.facts.begin(sym.aliases); a != info.facts.end(sym.aliases); ++a) {
      reach(key.node, std::string(parent.qualname) + "." + std::string(*a), self, Relation::stored_in, sym.def_line);
    }
  }
  return true;
}

} // namespace impact::decision
