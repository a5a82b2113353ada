// docs/selection.md `dynamic-access`: setattr/delattr(obj, <computed>) run only a property's setter or
// deleter, and hasattr(obj, <computed>) only a getter; `module.__dict__`, vars(module) and
// getmembers(module) read every name of the module, vars(cls) and cls.__dict__ every member of the
// class. getattr(obj, <computed>) reads a member of an object or a name of a module object: the walk
// reaches the member's class (`dynamic_member`) and the code that holds the module as a value
// (`module_value`); in safe mode, every such reader instead. The files and symbols that read names by
// computed strings (eval, globals()[...]) are candidates for every name: see
// ProjectTables::dynamic_files and ReferenceRules (relation `dynamic_access`).
#include "decision/rules/dynamic_access.hpp"

#include "decision/rules/registration.hpp"
#include "decision/symbol_walk.hpp"
#include "impact/node_id.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_set>

namespace impact::decision::rules {

using resolve::FileInfo;
using resolve::Read;
using resolve::Target;

std::vector<std::string_view> DynamicAccessRules::markers(const Key& key, bool member) {
  std::vector<std::string_view> out;
  bool safe = m_walk.mode() == Mode::safe;
  if (member) {
    out.push_back(k_any_member_name);
    if (is_setter(key)) out.insert(out.end(), {k_any_setter_name, k_self_setter_name});
    if (is_property(key)) out.insert(out.end(), {k_any_getter_name, k_self_getter_name});
  }
  if (safe) out.push_back(k_any_value_attr_name);
  return out;
}

// An instance's __dict__ (`other.__dict__`, a plain name) holds its data, not the methods of its class.
// The namespace of a value (`record.__dict__`, a parameter) holds a module's names only when the value
// is a module object: outside safe mode, module_name() follows where module objects come from, as for
// getattr(value, computed).
bool DynamicAccessRules::reads_namespace(const Read& r, const Key& key, bool member) {
  const Target& t = *r.target;
  if (!member) {
    if (t.kind == Target::unknown) return m_walk.mode() == Mode::safe;
    if (t.kind != Target::module) return false;
    // The module's own names, and those it imported: `vars(om)["helper"]` where om did
    // `from pkg.x import helper` runs pkg.x's helper.
    std::vector<uint32_t> holding = namespaces_holding(key);
    return std::any_of(t.modules.begin(), t.modules.end(),
                       [&](uint32_t m) { return std::find(holding.begin(), holding.end(), m) != holding.end(); });
  }
  if (t.kind == Target::definition) return m_index.may_denote(t, key.node, parent_part(key.qualname));
  if (t.kind == Target::unknown) return r.class_like;
  return false;
}

bool DynamicAccessRules::is_setter(const Key& key) {
  return has_decorator(key, [](std::string_view d) { return d.ends_with(".setter") || d.ends_with(".deleter"); });
}

bool DynamicAccessRules::is_property(const Key& key) {
  // A getter, or something like one whose call a lookup runs (cached_property, abstractproperty).
  return has_decorator(key, [](std::string_view d) {
    return d.ends_with("property") || d.ends_with(".getter") || !is_transparent_decorator(d);
  });
}

bool DynamicAccessRules::has_decorator(const Key& key, const std::function<bool(std::string_view)>& wanted) {
  const FileInfo* info = m_index.get(key.node);
  if (info == nullptr || info->symbol(key.qualname) < 0) return true; // gone: it may have had one
  // A property and its setter share the qualified name: look at every definition of it.
  for (const SymbolView& s : info->facts.symbols) {
    if (s.qualname != key.qualname) continue;
    for (auto d = info->facts.begin(s.decorators); d != info->facts.end(s.decorators); ++d) {
      if (wanted(*d)) return true;
    }
  }
  return false;
}

// docs/selection.md `dynamic-access`, outside safe mode. getattr(obj, computed) runs a member of
// whatever object it is given; that object was made by code that names its class (or a subclass,
// or a registry the `registration` rule follows), the same argument as for special methods. A test
// method is run by pytest, by name, and stays where it is.
void DynamicAccessRules::reached(const Key& key, const FileInfo& info, int32_t index, WalkKey self) {
  if (m_walk.mode() == Mode::safe) return;
  const SymbolView& sym = info.at(index);
  if (sym.parent == -1) {
    module_name(key, self);
    return;
  }
  if (info.at(sym.parent).kind != SymbolKind::class_) return; // a nested function: nested_in
  if (m_graph.nodes[key.node].test && m_layout.is_test_item(info.facts.symbols, index)) return;
  member(key, info, parent_part(key.qualname), self);
}

void DynamicAccessRules::gone(const Key& key, const FileInfo& info, WalkKey self) {
  if (m_walk.mode() == Mode::safe) return;
  std::string_view owner = parent_part(key.qualname);
  if (owner.empty()) module_name(key, self);
  else member(key, info, owner, self);
}

// A member read by getattr(obj, computed) runs in a test that both runs such a getattr and holds an
// instance of the member's class (or the class): the tests a walk from the class selects, among
// those a walk from every such getattr selects. A nested walk (one side of another's) takes the
// class's side alone.
void DynamicAccessRules::member(const Key& key, const FileInfo& info, std::string_view owner, WalkKey self) {
  if (!value_reader_of(key.qualname.substr(owner.size() + 1))) return; // no getattr(obj, computed) can name it
  int32_t cls = info.symbol(owner);
  if (cls < 0 || info.at(cls).kind != SymbolKind::class_) return;
  uint32_t line = info.at(cls).def_line;
  // pytest makes the instances of a test module's test class, no code names it: the module's tests.
  bool collected = m_graph.nodes[key.node].test && m_layout.may_collect_class(info.facts.symbols, cls);
  if (collected) m_walk.whole_file(key.node, self, Relation::dynamic_member);
  if (collected || !intersects()) {
    m_walk.reach(key.node, owner, self, Relation::dynamic_member, line);
    return;
  }
  const Covered& users = m_class_users.get(m_walk.key_of(key.node, owner), [&] {
    return covered(m_walk.subwalk({SymbolSeed{key.node, std::string(owner), Relation::dynamic_member, line}}));
  });
  select_both(users, reader_callers(), self);
}

// Whether some code reads the namespace of a value it cannot name (`record.__dict__`).
bool DynamicAccessRules::reads_value_namespaces() {
  return m_value_namespaces.get([&] {
    for (uint32_t h : m_facts.files_mentioning("__dict__")) {
      for (const Read& r : m_index.namespace_reads(h)) {
        if (r.target->kind == Target::unknown) return true;
      }
    }
    return false;
  });
}

const DynamicAccessRules::Covered& DynamicAccessRules::reader_callers() {
  static constexpr std::array<std::string_view, 1> k_readers = {k_any_value_attr_name};
  return m_reader_callers.get([&] { return callers_of(k_readers, Relation::dynamic_access); });
}

void DynamicAccessRules::for_each_read(std::span<const std::string_view> names,
                                       const std::function<void(uint32_t, const FileInfo&, int32_t)>& fn) {
  for (std::string_view name : names) {
    uint32_t id = m_index.intern(name);
    for (uint32_t h : m_facts.files_mentioning(name)) {
      const FileInfo* info = m_index.get(h);
      if (info == nullptr) continue;
      for (const Read& r : m_index.reads(h, id, name)) fn(h, *info, r.symbol);
      // `from copy import deepcopy as snapshot_of`: the alias is read in its place.
      for (const auto& [local, b] : info->names) {
        if (b.kind != resolve::Binding::from_import || b.name != name || local == name) continue;
        for (const Read& r : m_index.reads(h, m_index.intern(local), local)) fn(h, *info, r.symbol);
      }
    }
  }
}

void DynamicAccessRules::add_seed(Seeds& seeds, uint32_t h, const FileInfo& info, int32_t symbol, Relation relation) {
  // Code at module level or in a class body runs at import: every loader.
  if (symbol < 0 || info.at(symbol).kind == SymbolKind::class_) {
    uint32_t line = symbol < 0 ? 0 : info.at(symbol).def_line;
    seeds.import_time.emplace(h, std::vector<Hop>{Hop{m_graph.nodes[h].path.str, relation, line, {}}});
  } else {
    const SymbolView& s = info.at(symbol);
    seeds.symbols.push_back(SymbolSeed{h, std::string(s.qualname), relation, s.def_line});
  }
}

DynamicAccessRules::Covered DynamicAccessRules::walk_from(Seeds seeds) {
  SymbolResult result = m_walk.subwalk(seeds.symbols);
  result.file_level.merge(seeds.import_time);
  return covered(result);
}

DynamicAccessRules::Covered DynamicAccessRules::callers_of(std::span<const std::string_view> names, Relation relation) {
  Seeds seeds;
  for_each_read(names, [&](uint32_t h, const FileInfo& info, int32_t symbol) { add_seed(seeds, h, info, symbol, relation); });
  return walk_from(std::move(seeds));
}

// The code that may read a module's names through a value: getattr(value, computed) and the
// namespace of a value it cannot name (`record.__dict__`), and the tests a walk from it selects.
const DynamicAccessRules::Covered& DynamicAccessRules::module_readers() {
  return m_module_readers.get([&] {
    static constexpr std::array<std::string_view, 1> k_readers = {k_any_value_attr_name};
    Seeds seeds;
    for_each_read(k_readers, [&](uint32_t h, const FileInfo& info, int32_t symbol) {
      add_seed(seeds, h, info, symbol, Relation::dynamic_access);
    });
    for (uint32_t h : m_facts.files_mentioning("__dict__")) {
      const FileInfo* info = m_index.get(h);
      if (info == nullptr) continue;
      for (const Read& r : m_index.namespace_reads(h)) {
        if (r.target->kind == Target::unknown) add_seed(seeds, h, *info, r.symbol, Relation::dynamic_access);
      }
    }
    return walk_from(std::move(seeds));
  });
}

DynamicAccessRules::Covered DynamicAccessRules::covered(const SymbolResult& result) {
  Covered out;
  for (const auto& [id, hops] : result.tests) out.tests.emplace_back(id, hops);
  std::unordered_set<uint32_t> files;
  auto add_file = [&](uint32_t node, const std::vector<Hop>& hops) {
    if (m_graph.nodes[node].test && files.insert(node).second) out.files.emplace_back(node, hops);
  };
  for (const auto& [node, hops] : result.whole_files) add_file(node, hops);
  // A file-level answer selects every test file that loads the file.
  for (const auto& [node, hops] : result.file_level) {
    for (uint32_t n : m_tables.closure(node)) add_file(n, hops);
  }
  for (const auto& [node, hops] : result.programs) { // a main guard's: the test files that may run a program
    for (uint32_t n : m_walk.program_runners()) add_file(n, hops);
  }
  return out;
}

namespace {

// Whether test id `wide` names `id` or a collector of it ("f.py::TestC" holds "f.py::TestC::test_m").
bool holds(std::string_view wide, std::string_view id) {
  return id == wide || (id.starts_with(wide) && id.substr(wide.size()).starts_with("::"));
}

std::string_view file_of(std::string_view id) { return NodeId::of(id).file; }

} // namespace

void DynamicAccessRules::select_both(const Covered& users, const Covered& readers, WalkKey self) {
  auto file_in = [&](const Covered& c, std::string_view path) {
    return std::any_of(c.files.begin(), c.files.end(), [&](const auto& f) { return m_graph.nodes[f.first].path.view() == path; });
  };
  auto test_in = [](const Covered& c, std::string_view id) {
    return std::any_of(c.tests.begin(), c.tests.end(), [&](const auto& t) { return holds(t.first, id); });
  };
  for (const auto& [id, hops] : users.tests) {
    if (file_in(readers, file_of(id)) || test_in(readers, id)) m_walk.select_test(id, hops, self);
  }
  // A test of the readers' side that the class's side holds by a wider id or a whole file: the
  // narrower id, with the class's side's chain.
  for (const auto& entry : readers.tests) {
    const std::string& id = entry.first; // a name of its own: clang 14 cannot capture a structured binding
    auto by_id = std::find_if(users.tests.begin(), users.tests.end(), [&](const auto& t) { return holds(t.first, id); });
    if (by_id != users.tests.end()) {
      m_walk.select_test(id, by_id->second, self);
      continue;
    }
    auto by_file = std::find_if(users.files.begin(), users.files.end(),
                                [&](const auto& f) { return m_graph.nodes[f.first].path.view() == file_of(id); });
    if (by_file != users.files.end()) m_walk.select_test(id, by_file->second, self);
  }
  for (const auto& [node, hops] : users.files) {
    if (file_in(readers, m_graph.nodes[node].path.view())) m_walk.select_file(node, hops, self);
  }
}

// Two nested walks cost two walks: they answer a bounded number of times per decision, in walk
// order; past that, and in a nested walk, one side alone answers (each side holds every test the
// intersection holds, so either is safe, only wider).
bool DynamicAccessRules::intersects() {
  if (m_walk.nested() || m_subwalks >= k_max_subwalks) return false;
  ++m_subwalks;
  return true;
}

const std::vector<uint32_t>& DynamicAccessRules::value_readers() {
  return m_value_readers.get([&] { return m_facts.files_mentioning(k_any_value_attr_name); });
}

// Whether some getattr(obj, computed) may look member `name` up: one with no literal start, or one
// whose start the name has (getattr(version, "bump_" + part) never reads `_increment_string`).
bool DynamicAccessRules::value_reader_of(std::string_view name) {
  if (m_walk.mode() == Mode::safe) return !value_readers().empty(); // safe mode: any reads every name
  uint32_t id = m_index.intern(k_any_value_attr_name);
  for (uint32_t h : value_readers()) {
    for (const Read& r : m_index.reads(h, id, k_any_value_attr_name)) {
      if (ReferenceRules::looks_up(r.name_prefix, name)) return true;
    }
  }
  return false;
}

// getattr(mod, computed) reads a module-level name of a module object it is given. A module object
// comes from code that holds the module as a value (`mod`, `pkg.mod` passed on; `import mod` in a
// function) or from code that looks modules up (sys.modules, importlib.import_module, __import__,
// inspect.getmodule, pytest's request.module): the tests that run that code and such a read are
// selected (or, past the intersections a decision may compute, that code is reached).
void DynamicAccessRules::module_name(const Key& key, WalkKey self, bool attribute) {
  // Without any getattr(value, computed) or namespace of a value in the project, only a name read as
  // `value.name` asks.
  if (!attribute && value_readers().empty() && !reads_value_namespaces()) return;
  // The modules whose objects give the name: its own, the modules that import it into their
  // namespace, and the packages of both. The same code holds every name of a module: each module
  // once per decision.
  auto done = [&](uint32_t m) { return m_modules_reached.contains(m) || (!attribute && m_modules_intersected.contains(m)); };
  std::vector<uint32_t> modules;
  for (uint32_t n : namespaces_holding(key)) {
    for (uint32_t m : module_and_packages(n)) {
      if (!done(m) && std::find(modules.begin(), modules.end(), m) == modules.end()) modules.push_back(m);
    }
  }
  if (modules.empty()) return;
  // A name read through getattr(value, computed) or a value's namespace is read in a test that runs
  // both such a read and code holding the module: the two sides' tests, intersected where the walk
  // may. A name read as `value.name` keeps the holders' side alone, even after an intersection.
  bool both = !attribute && intersects();
  for (uint32_t m : modules) (both ? m_modules_intersected : m_modules_reached).insert(m);
  Seeds holders;
  auto hold = [&](uint32_t h, const FileInfo& info, int32_t symbol) {
    if (both) add_seed(holders, h, info, symbol, Relation::module_value);
    else reach_code(h, info, symbol, self, Relation::module_value);
  };
  // pytest imports a test module under a name that depends on its rootdir and import mode, which no
  // code outside the tests spells: a lookup by name there (sys.modules[...], import_module, __import__,
  // reload) gets one only if that code imports it. request.module and inspect.getmodule get the module
  // of a test or function they are handed, so they count wherever they are.
  const TestCode& tests = m_test_code.get([&] { return TestCode(m_graph); });
  bool test_only = m_walk.mode() != Mode::safe &&
                   std::all_of(modules.begin(), modules.end(), [&](uint32_t m) { return tests.test_module_only(m); });
  // Besides sys.modules and reload: the loaders that hand back a module named by a string or a spec
  // (pkgutil.resolve_name, pydoc.locate, werkzeug's and Django's import_string, importlib's spec
  // loaders, imp.load_source).
  static constexpr std::array<std::string_view, 9> k_by_name = {
      "modules", "reload", "resolve_name", "locate", "import_string", "module_from_spec", "exec_module", "load_module",
      "load_source"};
  static constexpr std::array<std::string_view, 2> k_importers = {"import_module", "__import__"};
  static constexpr std::array<std::string_view, 2> k_handed = {"getmodule", "module"};
  for_each_read(k_by_name, [&](uint32_t h, const FileInfo& info, int32_t symbol) {
    if (!test_only || tests.holds(h)) hold(h, info, symbol);
  });
  for_each_read(k_importers, [&](uint32_t h, const FileInfo& info, int32_t symbol) {
    if ((!test_only || tests.holds(h)) &&
        std::any_of(modules.begin(), modules.end(), [&](uint32_t m) { return imports_may_give(h, m); })) {
      hold(h, info, symbol);
    }
  });
  for_each_read(k_handed, hold);
  literal_lookups(modules, hold);
  std::vector<uint32_t> files;
  for (uint32_t m : modules) {
    const auto& importers = m_tables.importers(m);
    files.insert(files.end(), importers.begin(), importers.end());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (uint32_t h : files) {
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    for (const auto& [symbol, held] : module_values(h)) {
      bool holds = std::any_of(held.begin(), held.end(),
                               [&](uint32_t m) { return std::find(modules.begin(), modules.end(), m) != modules.end(); });
      if (holds) hold(h, *info, symbol);
    }
  }
  if (both) select_both(walk_from(std::move(holders)), module_readers(), self);
}

namespace {

std::string_view top_of(std::string_view dotted) { return dotted.substr(0, dotted.find('.')); }

} // namespace

// importlib.import_module and __import__ in file `h` return a module its dynamic imports name (a
// literal, or one under a literal prefix) or a package holding it (`__import__("a.b")` returns `a`):
// a module whose top-level package the literal spells. An unbounded or relative one may return any
// module; so may a file whose calls the facts did not see (the function passed on as a value:
// `load = importlib.import_module`). Compared by name: the module object a lookup of "addons.plugin_x"
// returns is registered under that name, never under the changed module's ("relay.x", "src.relay.x").
bool DynamicAccessRules::imports_may_give(uint32_t h, uint32_t node) {
  const std::vector<std::string>& tops = m_lookup_tops.get(h, [&] {
    std::vector<std::string> out; // a top-level name, "name*" for a partial one, "*" for any
    for (const auto& u : m_graph.unbounded) {
      if (u.node == h) out.emplace_back("*");
    }
    FileFacts facts = m_facts.full(h);
    for (const auto& u : facts.uncertain_imports) {
      if (u.level > 0 || u.prefix.empty()) out.emplace_back("*");
      else if (u.prefix.find('.') == std::string::npos) out.push_back(u.prefix + "*");
      else out.emplace_back(top_of(u.prefix));
    }
    for (const auto& imp : facts.imports) {
      if (imp.kind != ImportKind::dynamic) continue;
      out.emplace_back(imp.level > 0 ? std::string_view("*") : top_of(imp.module));
    }
    return out;
  });
  if (tops.empty()) return true;
  for (const std::string& name : m_graph.nodes[node].module_names) {
    std::string_view top = top_of(name);
    for (const std::string& t : tops) {
      if (t == "*" || t == top || (t.ends_with('*') && top.starts_with(std::string_view(t).substr(0, t.size() - 1)))) return true;
    }
  }
  return m_graph.nodes[node].module_names.empty();
}

// `sys.modules["a.b"]` holds module a.b, and `sys.modules[__name__]` the reading file's own: the code
// is reached when that module is one of `modules` (the changed module and its packages).
void DynamicAccessRules::literal_lookups(const std::vector<uint32_t>& modules,
                                         const std::function<void(uint32_t, const FileInfo&, int32_t)>& hold) {
  auto held = [&](uint32_t h, std::string_view key) {
    if (key == "__name__") return std::find(modules.begin(), modules.end(), h) != modules.end();
    const std::vector<uint32_t>& named = m_graph.modules_named(key);
    return std::any_of(named.begin(), named.end(),
                       [&](uint32_t n) { return std::find(modules.begin(), modules.end(), n) != modules.end(); });
  };
  for (uint32_t h : m_facts.files_mentioning(k_module_lookup)) {
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    auto scan = [&](ViewRange refs, int32_t symbol) {
      for (auto ref = info->facts.begin(refs); ref != info->facts.end(refs); ++ref) {
        std::string_view chain = *ref;
        if (chain.size() > k_module_lookup.size() && chain.starts_with(k_module_lookup) &&
            chain[k_module_lookup.size()] == '.' && held(h, chain.substr(k_module_lookup.size() + 1))) {
          hold(h, *info, symbol);
          return;
        }
      }
    };
    scan(info->facts.module_refs, -1);
    for (size_t i = 0; i < info->facts.symbols.size(); ++i) scan(info->facts.symbols[i].refs, static_cast<int32_t>(i));
  }
}

bool DynamicAccessRules::is_serialization_method(std::string_view name) {
  // simplejson's dumps calls _asdict() on any object that has one (namedtuple_as_object) and for_json()
  // with for_json=True.
  static constexpr std::array<std::string_view, 10> k_names = {
      "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__getnewargs__", "__getnewargs_ex__",
      "__copy__",   "__deepcopy__",  "_asdict",      "for_json"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

// pickle and copy call these by name on the object they are given: a test runs one only if it holds
// an instance of the class (the class's side) and reaches code that names a serializer (pickle,
// copy, deepcopy, multiprocessing, ...: the other side).
void DynamicAccessRules::serialization_method(const Key& key, std::string_view owner, uint32_t line, WalkKey self) {
  // pytest makes the instances of a test module's test class, no code names it: the module's tests.
  const resolve::FileInfo* info = m_index.get(key.node);
  int32_t cls = info == nullptr ? -1 : info->symbol(owner);
  bool collected = m_graph.nodes[key.node].test && (cls < 0 || m_layout.may_collect_class(info->facts.symbols, cls));
  if (collected) m_walk.whole_file(key.node, self, Relation::special_method);
  if (m_walk.mode() == Mode::safe || collected || !intersects()) {
    m_walk.reach(key.node, owner, self, Relation::special_method, line);
    return;
  }
  const Covered& users = m_class_users.get(m_walk.key_of(key.node, owner), [&] {
    return covered(m_walk.subwalk({SymbolSeed{key.node, std::string(owner), Relation::special_method, line}}));
  });
  const Covered& serializers = m_serializer_callers.get([&] {
    // dataclasses.asdict and astuple deep-copy every field's value.
    static constexpr std::array<std::string_view, 16> k_serializers = {
        "pickle", "dumps", "dump", "copy", "deepcopy", "cloudpickle", "dill", "shelve", "multiprocessing",
        "Pool", "Process", "ProcessPoolExecutor", "joblib", "copyreg", "asdict", "astuple"};
    return callers_of(k_serializers, Relation::references);
  });
  select_both(users, serializers, self);
}

// A method of a class that a test module defines runs only where that module made an instance: in
// the tests of the files that load it, which are selected whole rather than whatever calls a method
// of that name elsewhere.
void DynamicAccessRules::test_class_reader(uint32_t h, const FileInfo& info, int32_t index, WalkKey self) {
  const SymbolView& s = info.at(index);
  for (uint32_t n : m_tables.closure(h)) {
    if (m_graph.nodes[n].test) {
      m_walk.select_file(n, {Hop{m_graph.nodes[h].path.str, Relation::dynamic_access, s.def_line, std::string(s.qualname)}}, self);
    }
  }
}

const std::vector<std::pair<int32_t, std::vector<uint32_t>>>& DynamicAccessRules::module_values(uint32_t h) {
  return m_module_values.get(h, [&] {
    std::vector<std::pair<int32_t, std::vector<uint32_t>>> out;
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) return out;
    // What a fixture only stores into doctest_namespace goes to doctests, not to the tests that run it.
    auto scan = [&](ViewRange refs, int32_t symbol, uint32_t only_stored) {
      auto end = info->facts.end(refs) - (m_walk.mode() == Mode::safe ? 0 : only_stored);
      for (auto ref = info->facts.begin(refs); ref != end; ++ref) {
        std::string_view chain = *ref;
        const resolve::Binding* b = info->binding(chain.substr(0, chain.find('.')));
        if (b == nullptr || (b->kind != resolve::Binding::module && b->kind != resolve::Binding::from_import)) continue;
        Target t = m_index.resolve(h, chain);
        if (t.kind == Target::module) {
          out.emplace_back(symbol, std::move(t.modules));
        } else if (t.kind == Target::unknown && chain.find('.') == std::string_view::npos) {
          // `from pkg import sub` that resolution cannot follow (a star import in pkg, a cycle): it
          // may bind the submodule pkg.sub, so the code holds that module.
          if (auto sub = m_index.imported_submodules(h, *b); !sub.empty()) out.emplace_back(symbol, std::move(sub));
        }
      }
    };
    scan(info->facts.module_refs, -1, 0);
    for (size_t i = 0; i < info->facts.symbols.size(); ++i) {
      const SymbolView& s = info->facts.symbols[i];
      scan(s.refs, static_cast<int32_t>(i), s.namespace_values);
    }
    return out;
  });
}

namespace {

// The name a module is imported by from its package (`x` for pkg/x.py and for pkg/x/__init__.py).
std::string_view module_stem(std::string_view path) {
  if (!path.ends_with(".py")) return {};
  path.remove_suffix(3);
  if (path == "__init__") return {};
  if (path.ends_with("/__init__")) path.remove_suffix(std::string_view("/__init__").size());
  return path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
}

} // namespace

std::vector<uint32_t> DynamicAccessRules::namespaces_holding(const Key& key) {
  std::vector<uint32_t> out{key.node};
  if (key.qualname.find('.') != std::string::npos) return out; // a member: its class's, not a module's
  const Bindings& bindings = m_bindings.get(key.node, [&] {
    Bindings b;
    std::string_view stem = module_stem(m_graph.nodes[key.node].path.view());
    // Whether name `bound` of file `h` is the module itself: getattr(h's module, "x") gives it.
    auto binds_module = [&](uint32_t h, std::string_view bound) {
      Target t = m_index.resolve(h, bound);
      return t.kind == Target::module && std::find(t.modules.begin(), t.modules.end(), key.node) != t.modules.end();
    };
    for (uint32_t h : m_tables.importers(key.node)) {
      const FileInfo* info = m_index.get(h);
      if (info == nullptr || h == key.node) continue;
      if (info->star_imports) b.star.push_back(h);
      bool binder = false;
      for (const auto& imp : info->imports.imports) {
        // An import in a function binds a local name, not one of the module's namespace.
        if ((imp.flags & k_import_in_function) != 0) continue;
        if (imp.kind != ImportKind::from) {
          for (size_t a = imp.aliases_begin; a < imp.aliases_end; ++a) {
            std::string_view alias = info->imports.aliases[a];
            binder = binder || (!alias.empty() && binds_module(h, alias));
          }
          continue;
        }
        for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
          std::string_view name = info->imports.names[k];
          size_t a = imp.aliases_begin + (k - imp.names_begin);
          std::string_view alias = a < imp.aliases_end && !info->imports.aliases[a].empty() ? info->imports.aliases[a] : name;
          b.by_name[std::string(name)].emplace_back(h, std::string(alias));
          binder = binder || (!stem.empty() && name == stem && binds_module(h, alias));
        }
      }
      if (binder) b.module_binders.push_back(h);
    }
    return b;
  });
  auto add = [&](uint32_t h, std::string_view bound) {
    std::vector<std::string_view> chain{bound};
    if (std::find(out.begin(), out.end(), h) == out.end() && m_index.may_refer(h, chain, 0, key.node, key.qualname)) out.push_back(h);
  };
  if (auto it = bindings.by_name.find(std::string(key.qualname)); it != bindings.by_name.end()) {
    for (const auto& [h, bound] : it->second) add(h, bound);
  }
  for (uint32_t h : bindings.star) add(h, key.qualname);
  // The module itself bound in another module's namespace, under its own name or an alias.
  for (uint32_t h : bindings.module_binders) {
    if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
  }
  return out;
}

std::vector<uint32_t> DynamicAccessRules::module_and_packages(uint32_t node) const {
  std::vector<uint32_t> out{node};
  std::string_view path = m_graph.nodes[node].path.view();
  bool init = path.ends_with("/__init__.py") || path == "__init__.py";
  std::string_view folder = path.substr(0, path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/'));
  if (init) folder = folder.substr(0, folder.rfind('/') == std::string_view::npos ? 0 : folder.rfind('/'));
  while (!folder.empty()) {
    std::string package(folder);
    package.append("/__init__.py");
    if (auto n = m_graph.find(package)) out.push_back(*n);
    size_t slash = folder.rfind('/');
    folder = slash == std::string_view::npos ? std::string_view() : folder.substr(0, slash);
  }
  return out;
}

void DynamicAccessRules::reach_code(uint32_t h, const FileInfo& info, int32_t symbol, WalkKey self, Relation relation) {
  if (symbol < 0) {
    m_walk.file_level(h, self, relation, 0);
    return;
  }
  const SymbolView& s = info.at(symbol);
  if (s.kind == SymbolKind::class_) m_walk.file_level(h, self, relation, s.def_line); // a class body runs at import
  else m_walk.reach(h, s.qualname, self, relation, s.def_line);
}

} // namespace impact::decision::rules
