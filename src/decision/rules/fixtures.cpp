// docs/selection.md `fixtures`: a changed fixture reaches what requests it (by parameter,
// usefixtures, getfixturevalue, an inherited request, an override), within its scope (a test module, a
// conftest.py's folder, the test modules loading a plugin); autouse and ini `usefixtures` fixtures
// reach their whole scope. docs/selection.md `test-node-ids`: a changed setUp or setup_method selects
// its test file whole.
#include "decision/rules/fixtures.hpp"

#include "decision/project_tables.hpp"
#include "decision/rules/registration.hpp"
#include "decision/symbol_walk.hpp"

#include <algorithm>
#include <array>

namespace impact::decision::rules {

namespace {

// pytest asks for fixtures on behalf of test functions, test methods and fixtures, all at module level
// or in a class: a function nested in another (a callback a test defines) requests none, whatever
// decorates it.
bool in_function(const resolve::FileInfo& info, const SymbolView& s) {
  for (int32_t p = s.parent; p != -1; p = info.at(p).parent) {
    if (info.at(p).kind != SymbolKind::class_) return true;
  }
  return false;
}

} // namespace

using resolve::FileInfo;
using resolve::Target;

void FixtureRules::reached(const Key& key, const SymbolView& sym, WalkKey self) {
  if (!sym.fixture.empty()) {
    fixture_consumers(key.node, sym, sym.fixture, self);
    // pytest names a fixture without `name=` by the attribute it finds: a conftest.py or test module
    // that imports it under another name (`from fixtures_lib import db as database`) offers it so.
    if (sym.fixture == sym.qualname) {
      for (std::string_view alias : import_aliases(key.node, sym.qualname)) fixture_consumers(key.node, sym, alias, self);
    }
  }
  // xunit-style setup and teardown run around every test of their class or module.
  if (!is_fixture_hook(last_part(key.qualname))) return;
  if (m_graph.nodes[key.node].test) {
    m_walk.whole_file(key.node, self, Relation::setup_teardown);
  } else if (sym.parent == -1) {
    // pytest looks `setup_module` (`setup_function`, `setUpModule`, ...) up in a test module's
    // namespace, so one a test module imports (`from helpers import *`) runs there too: every test
    // module that loads this one.
    for (uint32_t n : m_tables.closure(key.node)) {
      if (n < m_graph.nodes.size() && m_graph.nodes[n].test && !m_graph.nodes[n].ghost) {
        m_walk.whole_file(n, self, Relation::setup_teardown);
      }
    }
  }
}

std::vector<std::string_view> FixtureRules::import_aliases(uint32_t node, std::string_view name) {
  std::vector<std::string_view> out;
  ImportScratch scratch;
  for (const auto& [g, edge] : m_graph.in[node]) {
    if (g >= m_facts.size() || !(m_graph.nodes[g].conftest || m_graph.nodes[g].test_pattern)) continue;
    m_facts.imports(g, scratch);
    for (const ImportView& imp : scratch.imports) {
      if (imp.kind != ImportKind::from) continue;
      for (size_t k = 0; k < imp.names_end - imp.names_begin && imp.aliases_begin + k < imp.aliases_end; ++k) {
        std::string_view imported = scratch.names[imp.names_begin + k], alias = scratch.aliases[imp.aliases_begin + k];
        if (imported == name && alias != name && std::find(out.begin(), out.end(), alias) == out.end()) out.push_back(alias);
      }
    }
  }
  return out;
}

void FixtureRules::fixture_consumers(uint32_t node, const SymbolView& fixture, std::string_view fixture_name, WalkKey from) {
  const GraphNode& d = m_graph.nodes[node];
  std::vector<uint32_t> scope;
  if (d.conftest) {
    std::string_view dir = d.path.parent();
    for (uint32_t n = 0; n < m_facts.size(); ++n) {
      const GraphNode& g = m_graph.nodes[n];
      if ((g.test_pattern || g.conftest) && g.path.is_within(dir)) scope.push_back(n);
    }
  } else if (d.test_pattern) {
    // A test module's fixture: that module, and the test modules importing it (`from test_a import
    // user`, `from test_a import *`), where pytest finds it as their own.
    for (uint32_t n : m_tables.closure(node)) {
      if (n == node || (n < m_facts.size() && (m_graph.nodes[n].test_pattern || m_graph.nodes[n].conftest))) {
        scope.push_back(n);
      }
    }
  } else {
    // A plugin module: every test module and conftest.py that loads it.
    for (uint32_t n : m_tables.closure(node)) {
      if (n < m_facts.size() && (m_graph.nodes[n].test_pattern || m_graph.nodes[n].conftest)) scope.push_back(n);
    }
  }
  std::string name(fixture_name);
  const auto& ini = m_layout.config().usefixtures;
  // `usefixtures = name` in the ini file: every test uses it.
  // A fixture whose name cannot be read may be requested by any name: every test in scope.
  bool autouse = fixture.autouse || name == k_unknown_fixture || std::find(ini.begin(), ini.end(), name) != ini.end();
  bool requested = autouse; // whether anything in the repository requests it
  // A fixture defined further up that requests this name gets this definition in this scope (the
  // override idiom, or a nearer definition shadowing one a shared fixture asks for).
  m_graph.conftests_from(d.path.parent(), [&](uint32_t c) {
    const FileInfo* above = c != node ? m_index.get(c) : nullptr;
    if (above == nullptr) return true;
    auto names = [&](ViewRange r) { return std::find(above->facts.begin(r), above->facts.end(r), name) != above->facts.end(r); };
    for (const SymbolView& s : above->facts.symbols) {
      if (!s.fixture.empty() && (names(s.params) || names(s.usefixtures) || s.usefixtures_dynamic)) {
        m_walk.reach(c, std::string(s.qualname), from, Relation::requests_fixture, s.def_line);
        requested = true;
      }
    }
    return true;
  });
  // A fixture method of a test class with bases: the tests the class inherits may request it.
  if (fixture.parent != -1 && d.test_pattern) {
    const FileInfo* info = m_index.get(node);
    const SymbolView& owner = info->at(fixture.parent);
    if (owner.kind == SymbolKind::class_ && !owner.bases.empty()) m_walk.whole_file(node, from, Relation::class_fixture);
  }
  for (uint32_t h : scope) {
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    const FactsView& f = info->facts;
    auto names = [&](ViewRange r) { return std::find(f.begin(r), f.end(r), name) != f.end(r); };
    if (autouse) {
      // Every test in scope runs it.
      if (m_graph.nodes[h].test) m_walk.whole_file(h, from, Relation::autouse_fixture);
      continue;
    }
    if ((f.module_usefixtures_dynamic || names(f.module_usefixtures)) && m_graph.nodes[h].test) {
      m_walk.whole_file(h, from, Relation::usefixtures);
      requested = true;
      continue;
    }
    // A test class may inherit, from a class in another module, tests, fixtures or marks that request it.
    bool inherited = false;
    for (size_t i = 0; i < f.symbols.size() && !inherited; ++i) {
      if (f.symbols[i].kind == SymbolKind::class_) inherited = inherits_request(h, static_cast<int32_t>(i), name, 0);
    }
    if (inherited && m_graph.nodes[h].test) {
      m_walk.whole_file(h, from, Relation::inherits_fixture_request);
      requested = true;
      continue;
    }
    // request.getfixturevalue(computed) may ask for any fixture, so files that never name it count too;
    // so may a decorator of the project's own (a mark kept in a variable: `needs_db = usefixtures("db")`).
    bool mentioned = m_facts.mentions(h, name);
    for (const SymbolView& s : f.symbols) {
      if (s.kind == SymbolKind::class_ || in_function(*info, s)) continue;
      bool by_name = mentioned && (names(s.params) || names(s.usefixtures));
      bool may = s.usefixtures_dynamic || marked_by_project(h, s);
      for (int32_t p = s.parent; p != -1 && !by_name && !may; p = info->at(p).parent) {
        const SymbolView& c = info->at(p);
        by_name = mentioned && names(c.usefixtures);
        may = c.usefixtures_dynamic || marked_by_project(h, c);
      }
      if (by_name || may) m_walk.reach(h, std::string(s.qualname), from, Relation::requests_fixture, s.def_line);
      requested |= by_name; // a request that may be for any fixture is no proof that this one is asked for
    }
  }
  if (d.conftest || d.test_pattern) {
    // A fixture of a plugin module that requests this name gets this definition where this one is seen.
    for (uint32_t h : m_facts.files_mentioning(name)) {
      const GraphNode& g = m_graph.nodes[h];
      if (g.test_pattern || g.conftest || h == node) continue;
      const FileInfo* info = m_index.get(h);
      if (info == nullptr) continue;
      const FactsView& f = info->facts;
      auto names = [&](ViewRange r) { return std::find(f.begin(r), f.end(r), name) != f.end(r); };
      for (const SymbolView& s : f.symbols) {
        if (!s.fixture.empty() && (names(s.params) || names(s.usefixtures) || s.usefixtures_dynamic)) {
          m_walk.reach(h, std::string(s.qualname), from, Relation::requests_fixture, s.def_line);
          requested = true;
        }
      }
    }
  }
  // A helper outside test modules and conftest.py files that asks for it with
  // `request.getfixturevalue("db")` (a function, not a fixture: its usefixtures come from such calls)
  // runs it for the tests that call the helper.
  for (uint32_t h : m_facts.files_mentioning(name)) {
    const GraphNode& g = m_graph.nodes[h];
    if (g.test_pattern || g.conftest) continue;
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    const FactsView& f = info->facts;
    for (const SymbolView& s : f.symbols) {
      if (!s.fixture.empty() || s.kind == SymbolKind::class_) continue;
      if (std::find(f.begin(s.usefixtures), f.end(s.usefixtures), name) == f.end(s.usefixtures)) continue;
      m_walk.reach(h, std::string(s.qualname), from, Relation::requests_fixture, s.def_line);
      requested = true;
    }
  }
  if (d.conftest && !requested) {
    // Nothing in the repository requests it: it overrides a fixture that an installed plugin requests
    // (anyio_backend, django_db_setup, celery_config), which may be any test in scope.
    for (uint32_t h : scope) {
      if (m_graph.nodes[h].test) m_walk.whole_file(h, from, Relation::overrides_plugin_fixture);
    }
  }
}

bool FixtureRules::marked_by_project(uint32_t node, const SymbolView& s) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr) return false;
  for (auto d = info->facts.begin(s.decorators); d != info->facts.end(s.decorators); ++d) {
    if (d->starts_with("pytest.") || d->starts_with("mark.")) continue; // pytest's own marks, read as such
    if (defined_in_project(m_index, node, *d)) return true;
  }
  return false;
}

bool FixtureRules::inherits_request(uint32_t node, int32_t class_index, const std::string& name, int depth) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr || depth > 8) return false;
  const SymbolView& c = info->at(class_index);
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view expression = base_expression(*b);
    if (expression.empty()) continue; // metaclass=..., keywords
    Target t = m_index.resolve(node, expression);
    if (t.kind != Target::definition || t.node == node) continue; // same file: its own methods are read above
    const FileInfo* owner = m_index.get(t.node);
    int32_t index = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (index < 0 || owner->at(index).kind != SymbolKind::class_) continue;
    const FactsView& f = owner->facts;
    auto names = [&](ViewRange r) { return std::find(f.begin(r), f.end(r), name) != f.end(r); };
    const SymbolView& base = owner->at(index);
    if (base.usefixtures_dynamic || names(base.usefixtures)) return true;
    for (const SymbolView& m : f.symbols) {
      if (m.parent == index && (m.usefixtures_dynamic || names(m.params) || names(m.usefixtures))) return true;
    }
    if (inherits_request(t.node, index, name, depth + 1)) return true;
  }
  return false;
}

bool FixtureRules::is_fixture_hook(std::string_view name) {
  static constexpr std::array<std::string_view, 20> k_names = {
      "setUp",          "tearDown",          "setUpClass",       "tearDownClass",     "asyncSetUp",
      "asyncTearDown",  "setUpModule",       "tearDownModule",   "setup_method",      "teardown_method",
      "setup_class",    "teardown_class",    "setup_module",     "teardown_module",   "setup_function",
      "teardown_function", "setup",          "teardown",         "addClassCleanup",   "addCleanup"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

} // namespace impact::decision::rules
