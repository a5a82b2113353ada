// The symbol-level walk. A reference is a dotted name read by some code; a name matches when any of
// its components is the changed symbol's name and name resolution cannot rule it out. Code that runs
// at import (module level, class bodies) reaching a symbol makes its whole file a file-level seed.
#include "decision/symbol_walk.hpp"

#include "decision/walk.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>

namespace impact::decision {

namespace {

constexpr size_t k_max_closures = 256; // past this many plugin modules, a plugin's scope is every file

bool is_dunder(std::string_view name) { return name.size() > 4 && name.starts_with("__") && name.ends_with("__"); }

std::string_view last_part(std::string_view qualname) {
  auto dot = qualname.rfind('.');
  return dot == std::string_view::npos ? qualname : qualname.substr(dot + 1);
}

std::string_view parent_part(std::string_view qualname) {
  auto dot = qualname.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : qualname.substr(0, dot);
}

} // namespace

bool is_transparent_decorator(std::string_view callee) {
  static constexpr std::array<std::string_view, 22> k_names = {
      "staticmethod", "classmethod",  "property",        "cached_property", "abstractmethod", "abstractproperty",
      "wraps",        "lru_cache",    "cache",           "total_ordering",  "overload",       "override",
      "final",        "contextmanager", "asynccontextmanager", "dataclass", "setter",         "getter",
      "deleter",      "fixture",      "yield_fixture",   "unique"};
  if (callee.starts_with("pytest.mark.") || callee.starts_with("mark.")) return true;
  std::string_view last = last_part(callee);
  return std::find(k_names.begin(), k_names.end(), last) != k_names.end();
}

SymbolWalk::WalkKey SymbolWalk::key_of(uint32_t node, std::string_view qualname) {
  auto it = m_qualname_ids.find(qualname);
  if (it == m_qualname_ids.end()) {
    const std::string& stored = m_qualnames.emplace_back(qualname);
    it = m_qualname_ids.emplace(stored, static_cast<uint32_t>(m_qualnames.size() - 1)).first;
  }
  return (static_cast<WalkKey>(node) << 32) | it->second;
}

SymbolWalk::Key SymbolWalk::key_from(WalkKey key) const {
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
    if (m_via.contains(key)) continue;
    m_via[key] = Via{k_no_key, seed.change, seed.line, 0};
    m_queue.push_back(key_from(key));
  }
  for (size_t next = 0; next < m_queue.size(); ++next) {
    Key key = m_queue[next];
    if (over_budget()) {
      // Out of time: every symbol still waiting falls back to its file's importers.
      m_result.budget_exceeded = true;
      for (size_t rest = next; rest < m_queue.size(); ++rest) {
        file_level(m_queue[rest].node, key_of(m_queue[rest].node, m_queue[rest].qualname), "budget_exceeded", 0);
      }
      m_result.warnings.push_back(fmt::format("--budget-ms {:.0f} exceeded: the rest of the walk is file-level",
                                              m_budget.budget_ms));
      break;
    }
    const Via& via = m_via[key_of(key.node, key.qualname)];
    if (via.depth >= m_budget.max_depth) {
      if (!m_result.budget_exceeded) {
        m_result.warnings.push_back(
            fmt::format("--max-depth {} reached at {}: that file is analysed at file level", m_budget.max_depth,
                        m_graph.nodes[key.node].path));
      }
      m_result.budget_exceeded = true;
      file_level(key.node, key_of(key.node, key.qualname), "max_depth", 0);
      continue;
    }
    visit(key);
  }
  return std::move(m_result);
}

void SymbolWalk::reach(uint32_t node, std::string_view qualname, WalkKey from, std::string relation, uint32_t line) {
  WalkKey key = key_of(node, qualname);
  if (m_via.contains(key)) return;
  const Via* parent = from == k_no_key ? nullptr : via_of(from);
  uint32_t depth = parent == nullptr ? 0 : parent->depth + 1;
  m_via[key] = Via{from, std::move(relation), line, depth};
  m_queue.push_back(key_from(key));
}

const SymbolWalk::Via* SymbolWalk::via_of(WalkKey key) const {
  if (auto it = m_via.find(key); it != m_via.end()) return &it->second;
  if (auto it = m_member_of.find(key); it != m_member_of.end()) return &it->second;
  return nullptr;
}

void SymbolWalk::file_level(uint32_t node, WalkKey from, std::string relation, uint32_t line) {
  if (m_result.file_level.contains(node)) return;
  std::vector<Hop> hops;
  hops.push_back(Hop{m_graph.nodes[node].path.str, std::move(relation), line, {}});
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.file_level.emplace(node, std::move(hops));
}

void SymbolWalk::whole_file(uint32_t node, WalkKey from, std::string relation) {
  if (m_result.whole_files.contains(node)) return;
  std::vector<Hop> hops;
  hops.push_back(Hop{m_graph.nodes[node].path.str, std::move(relation), 0, {}});
  auto rest = chain(from);
  hops.insert(hops.end(), rest.begin(), rest.end());
  m_result.whole_files.emplace(node, std::move(hops));
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

// The files that can name a module-level symbol of `node`: the module itself, the packages and
// star-importers that re-export it (transitively), the modules importing any of those, and the
// modules importing those (`helpers.models.save` reads `save` through `helpers`' import of `models`).
const std::vector<uint32_t>& SymbolWalk::importers(uint32_t node) {
  if (auto it = m_importers.find(node); it != m_importers.end()) return it->second;
  NodeSet& seen = m_seen.clear(m_graph.nodes.size());
  std::vector<uint32_t> exporters{node};
  seen.insert(node);
  for (size_t i = 0; i < exporters.size(); ++i) {
    for (const auto& [from, edge] : m_graph.in[exporters[i]]) {
      bool reexports = m_graph.nodes[from].path.filename() == "__init__.py" || edge.kind == EdgeKind::star_import;
      if (reexports && seen.insert(from)) exporters.push_back(from);
    }
  }
  std::vector<uint32_t> out = exporters;
  for (int hop = 0; hop < 2; ++hop) {
    size_t end = out.size();
    for (size_t i = 0; i < end; ++i) {
      for (const auto& [from, edge] : m_graph.in[out[i]]) {
        if (edge.kind == EdgeKind::package_init || edge.kind == EdgeKind::conftest) continue;
        if (seen.insert(from)) out.push_back(from);
      }
    }
  }
  return m_importers.emplace(node, std::move(out)).first->second;
}

const std::vector<uint32_t>& SymbolWalk::closure(uint32_t node) {
  if (auto it = m_closures.find(node); it != m_closures.end()) return it->second;
  if (m_closures.size() >= k_max_closures) return all_files();
  ReverseWalk walk(m_graph);
  walk.seed(node, "changed");
  walk.run();
  auto& out = m_closures[node];
  out = walk.order();
  return out;
}

bool SymbolWalk::is_test_symbol(const FileInfo& info, int32_t index) const {
  return m_graph.nodes[info.node].test && m_layout.is_test_item(info.facts.symbols, index);
}

bool SymbolWalk::has_external_base(uint32_t node, int32_t class_index) {
  uint64_t key = (static_cast<uint64_t>(node) << 32) | static_cast<uint32_t>(class_index);
  if (auto it = m_external_base.find(key); it != m_external_base.end()) return it->second;
  bool external = has_external_base(node, class_index, 0);
  m_external_base.emplace(key, external);
  return external;
}

bool SymbolWalk::has_external_base(uint32_t node, int32_t class_index, int depth) {
  // Bases whose own code calls no overridable method by name.
  static constexpr std::array<std::string_view, 22> k_inert = {
      "object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Protocol", "typing.Protocol", "NamedTuple",
      "typing.NamedTuple", "TypedDict", "typing.TypedDict", "int", "str", "float", "bytes", "list", "dict",
      "set", "frozenset", "tuple", "Exception", "BaseException"};
  if (depth > 8) return true;
  const FileInfo* info = m_index.get(node);
  if (info == nullptr) return true;
  const SymbolView& c = info->at(class_index);
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view base = *b;
    if (base.find('=') != std::string_view::npos) continue; // metaclass=..., keywords
    base = base.substr(0, base.find('['));
    while (!base.empty() && base.back() == ' ') base.remove_suffix(1);
    if (std::find(k_inert.begin(), k_inert.end(), base) != k_inert.end()) continue;
    bool bound = info->binding(base.substr(0, base.find('.'))) != nullptr;
    if (!bound && (base.ends_with("Error") || base.ends_with("Warning") || base.ends_with("Exception"))) continue;
    Target t = m_index.resolve(node, base);
    if (t.kind != Target::definition) return true;
    const FileInfo* owner = m_index.get(t.node);
    int32_t index = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (index < 0 || owner->at(index).kind != SymbolKind::class_) return true;
    if (has_external_base(t.node, index, depth + 1)) return true;
  }
  return false;
}

std::vector<std::pair<uint32_t, int32_t>> SymbolWalk::subclasses(uint32_t node, std::string_view qualname) {
  std::vector<std::pair<uint32_t, int32_t>> out;
  std::string_view name = last_part(qualname);
  for (uint32_t h : m_facts.files_mentioning(name)) {
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    for (size_t i = 0; i < info->facts.symbols.size(); ++i) {
      const SymbolView& c = info->facts.symbols[i];
      if (c.kind != SymbolKind::class_ || (h == node && c.qualname == qualname)) continue;
      for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
        std::string_view base = b->substr(0, b->find('['));
        if (base.find('=') != std::string_view::npos) continue;
        // The base names the class (under an alias, too: `from x import Base as B`), or is bound in a
        // way resolution does not follow; a base proved to be something else is not it.
        std::string_view root = base.substr(0, base.find('.'));
        if (info->binding(root) == nullptr && last_part(base) != name) continue; // a builtin
        Target t = m_index.resolve(h, base);
        bool may = t.kind == Target::unknown ||
                   (t.kind == Target::definition && t.qualname == qualname && m_index.may_denote(t, node, qualname));
        if (may) {
          out.emplace_back(h, static_cast<int32_t>(i));
          break;
        }
      }
    }
  }
  return out;
}

void SymbolWalk::inherited_by_tests(WalkKey class_key) {
  Key key = key_from(class_key);
  for (const auto& [h, sub] : subclasses(key.node, key.qualname)) {
    const SymbolView& s = m_index.get(h)->at(sub);
    if (m_graph.nodes[h].test) {
      whole_file(h, class_key, "subclass");
      continue;
    }
    // A subclass in another module may itself be the base of a test class.
    WalkKey sub_key = key_of(h, s.qualname);
    if (m_via.contains(sub_key) || m_member_of.contains(sub_key)) continue;
    m_member_of[sub_key] = Via{class_key, "subclass", s.def_line, via_of(class_key)->depth + 1};
    inherited_by_tests(sub_key);
  }
}

bool SymbolWalk::is_setter(const Key& key) {
  return has_decorator(key, [](std::string_view d) { return d.ends_with(".setter") || d.ends_with(".deleter"); });
}

bool SymbolWalk::is_property(const Key& key) {
  // A getter, or something like one whose call a lookup runs (cached_property, abstractproperty).
  return has_decorator(key, [](std::string_view d) {
    return d.ends_with("property") || d.ends_with(".getter") || !is_transparent_decorator(d);
  });
}

bool SymbolWalk::has_decorator(const Key& key, const std::function<bool(std::string_view)>& wanted) {
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

bool SymbolWalk::is_protocol_method(std::string_view name) {
  static constexpr std::array<std::string_view, 27> k_names = {
      // mappings (dict(obj), **obj) and files (print(file=), json.dump / json.load)
      "keys", "read", "readline", "readlines", "readinto", "write", "writelines", "flush", "close", "fileno",
      "seek", "tell", "isatty", "readable", "writable", "seekable", "truncate",
      // logging filters (Filterer calls filter(record) on any object), import hooks (sys.meta_path)
      "filter", "find_spec", "find_module", "create_module", "exec_module", "load_module", "get_source",
      "get_data", "get_filename", "is_package"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

bool SymbolWalk::registers_subclasses(uint32_t node, int32_t class_index, int depth) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr || depth > 8) return false;
  const SymbolView& c = info->at(class_index);
  if (c.has_metaclass) return true;
  // `Base.__subclasses__()` (or `cls.__subclasses__()`) makes instances of classes it never names: a
  // file that reads it and names this class (or, further up, a base of it) may.
  if (!m_subclass_enumerators_ready) {
    m_subclass_enumerators = m_facts.files_mentioning("__subclasses__");
    m_subclass_enumerators_ready = true;
  }
  for (uint32_t h : m_subclass_enumerators) {
    if (h == node || m_facts.mentions(h, c.name())) return true;
  }
  std::string init_subclass(c.qualname);
  init_subclass.append(".__init_subclass__");
  if (info->symbol(init_subclass) >= 0) return true;
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view base = b->substr(0, b->find('['));
    Target t = m_index.resolve(node, base);
    if (t.kind != Target::definition) continue; // outside the repository, or not known: its own rules
    const FileInfo* owner = m_index.get(t.node);
    int32_t index = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (index >= 0 && owner->at(index).kind == SymbolKind::class_ && registers_subclasses(t.node, index, depth + 1)) {
      return true;
    }
  }
  return false;
}

bool SymbolWalk::defined_in_project(uint32_t node, std::string_view callee) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr) return true;
  std::string_view root = callee.substr(0, callee.find('.'));
  const Binding* b = info->binding(root);
  // Unbound: a builtin (property, staticmethod), unless a star import may have bound it.
  if (b == nullptr) return info->star_imports;
  if (b->kind != Binding::module && b->kind != Binding::from_import) return true; // defined or assigned here
  return m_index.resolve(node, callee).kind != Target::nothing; // nothing: from outside the repository
}

bool SymbolWalk::is_fixture_hook(std::string_view name) {
  static constexpr std::array<std::string_view, 20> k_names = {
      "setUp",          "tearDown",          "setUpClass",       "tearDownClass",     "asyncSetUp",
      "asyncTearDown",  "setUpModule",       "tearDownModule",   "setup_method",      "teardown_method",
      "setup_class",    "teardown_class",    "setup_module",     "teardown_module",   "setup_function",
      "teardown_function", "setup",          "teardown",         "addClassCleanup",   "addCleanup"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

std::string SymbolWalk::node_id(const FileInfo& info, int32_t index) const {
  return test_node_id(m_graph.nodes[info.node].path.str, info.at(index).qualname);
}

void SymbolWalk::test_reached(uint32_t node, const FileInfo& info, int32_t index, WalkKey from) {
  (void)node;
  std::string id = node_id(info, index);
  if (!m_result.tests.contains(id)) m_result.tests.emplace(id, chain(from));
}

void SymbolWalk::visit(const Key& key) {
  WalkKey self = key_of(key.node, key.qualname);
  const FileInfo* info = m_index.get(key.node);
  std::string_view name = last_part(key.qualname);
  if (info == nullptr) {
    referrers(key, name, Scan::gone); // a deleted file's symbol: its users by name
    return;
  }
  int32_t index = info->symbol(key.qualname);
  if (index < 0) {
    // Gone from the file (deleted or renamed): name resolution in the new version cannot rule users out,
    // and a module that imports the old name fails at import. A special or protocol method that is gone
    // changes what its class's instances do (bool() falls back to __len__): the class is reached.
    std::string_view owner = parent_part(key.qualname);
    if (!owner.empty() && (is_dunder(name) || is_protocol_method(name))) {
      int32_t cls = info->symbol(owner);
      if (cls >= 0 && info->at(cls).kind == SymbolKind::class_) reach(key.node, std::string(owner), self, "special_method", 0);
    }
    referrers(key, name, Scan::gone);
    return;
  }
  {
    const SymbolView& sym = info->at(index);
    if (is_test_symbol(*info, index)) test_reached(key.node, *info, index, self);
    if (!sym.fixture.empty()) fixture_consumers(key.node, sym, self);
    // xunit-style setup and teardown run around every test of their class or module.
    if (is_fixture_hook(name) && m_graph.nodes[key.node].test) whole_file(key.node, self, "setup_teardown");
    // Called by pytest or by whatever a decorator registered it with, not by name: every importer.
    if (name.starts_with("pytest_")) return file_level(key.node, self, "pytest_hook", sym.def_line);
    for (auto d = info->facts.begin(sym.decorators); d != info->facts.end(sym.decorators); ++d) {
      // A known wrapper leaves the function reachable by its name only; the project's own decorator
      // of the same name (a registry's `cache`) is not that wrapper.
      if (!is_transparent_decorator(*d) || defined_in_project(key.node, *d)) {
        return file_level(key.node, self, "decorated", sym.first_line);
      }
    }
    // A class whose hierarchy records its subclasses (__init_subclass__, a metaclass) is made from the
    // registry, without its name: constructing it, or anything reaching the class, runs at import.
    if (sym.kind == SymbolKind::class_ && registers_subclasses(key.node, index, 0)) {
      return file_level(key.node, self, "registered_class", sym.def_line);
    }
    // What a reached class does (its constructor, its special methods), its subclasses do too.
    if (sym.kind == SymbolKind::class_) {
      for (const auto& [h, sub] : subclasses(key.node, key.qualname)) {
        const SymbolView& s = m_index.get(h)->at(sub);
        if (m_graph.nodes[h].test) whole_file(h, self, "subclass");
        reach(h, std::string(s.qualname), self, "subclass", s.def_line);
      }
    }
    // A module's __getattr__ / __dir__ (PEP 562) run on attribute access to the module, never by name.
    if (sym.kind == SymbolKind::function && sym.parent == -1 && is_dunder(name)) {
      return file_level(key.node, self, "special_method", sym.def_line);
    }
    // Builtins and the standard library call these by protocol, not by a name in the code: dict(obj) and
    // **obj call keys(), print(file=obj) and json.dump call write(), and so on. Like a special method,
    // such a method runs wherever an instance is, which is reached from the code that names the class.
    if (sym.kind == SymbolKind::method && is_protocol_method(name)) {
      reach(key.node, std::string(parent_part(key.qualname)), self, "protocol_method", sym.def_line);
    }
    if (sym.kind == SymbolKind::method && is_dunder(name)) {
      bool constructor = name == "__init__" || name == "__new__" || name == "__post_init__" || name == "__init_subclass__";
      // A constructor runs wherever the class is called. Any other special method runs, without its
      // name, wherever an instance is used by an operator or a builtin (`==`, `str()`, `for`, `with`):
      // in code that gets its instances from code that makes them, which names the class.
      reach(key.node, std::string(parent_part(key.qualname)), self, constructor ? "constructor" : "special_method",
            sym.def_line);
    }
    if (sym.parent != -1) {
      const SymbolView& parent = info->at(sym.parent);
      if (parent.kind != SymbolKind::class_) {
        // A nested function is made, and usually called, by the function around it.
        reach(key.node, std::string(parent.qualname), self, "nested_in", parent.def_line);
      } else {
        // A base class from outside the repository may call the method by name (an override of a
        // template method such as _buffer_encode, run, emit, default): whoever uses the class may run it.
        if (has_external_base(key.node, sym.parent)) {
          reach(key.node, std::string(parent.qualname), self, "overrides_external_base", parent.def_line);
        }
        // Subclasses inherit the method, and their callers call it by its name (found below); a test
        // subclass also runs the tests it inherits. Once per class; a class that is reached itself hands
        // itself to its subclasses anyway.
        WalkKey class_key = key_of(key.node, parent.qualname);
        if (!m_via.contains(class_key) && !m_member_of.contains(class_key)) {
          m_member_of[class_key] = Via{self, "member_of", parent.def_line, via_of(self)->depth + 1};
          inherited_by_tests(class_key);
        }
      }
    }
  }
  referrers(key, name, Scan::all);
}

// Where references to a symbol can be: code that imports its module (directly or not) names a
// module-level function or class; a member (a method, an attribute) is read through objects, which
// travel anywhere, so every file that mentions one of its names (or any member, by a computed getattr)
// is a candidate. Files that read names by computed strings could reach anything: they always are.
// Tests are still bounded by the file level later.
std::vector<uint32_t> SymbolWalk::candidates(const Key& key, bool member, const std::vector<std::string_view>& markers,
                                             const std::vector<std::string>& names) {
  const std::vector<uint32_t>& dynamic = dynamic_files();
  if (!member) {
    auto& out = m_module_candidates[key.node];
    if (out.empty()) {
      out = importers(key.node);
      NodeSet& seen = m_seen.clear(m_graph.nodes.size());
      for (uint32_t n : out) seen.insert(n);
      for (uint32_t n : dynamic) {
        if (seen.insert(n)) out.push_back(n);
      }
    }
    return out;
  }
  std::vector<uint32_t> out = m_facts.files_mentioning("__dict__"); // vars(cls), getmembers(cls)
  auto add = [&](std::string_view name) {
    std::vector<uint32_t> files = m_facts.files_mentioning(name);
    out.insert(out.end(), files.begin(), files.end());
  };
  for (std::string_view m : markers) add(m); // getattr(self, computed), setattr/hasattr(obj, computed)
  for (const auto& n : names) add(n);
  out.insert(out.end(), dynamic.begin(), dynamic.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const std::vector<uint32_t>& SymbolWalk::dynamic_files() {
  if (!m_dynamic_ready) {
    m_is_dynamic.assign(m_facts.size(), 0);
    for (uint32_t i = 0; i < m_facts.size(); ++i) {
      if (m_facts.header(i).has_dynamic_access) {
        m_dynamic.push_back(i);
        m_is_dynamic[i] = 1;
      }
    }
    m_dynamic_ready = true;
  }
  return m_dynamic;
}

bool SymbolWalk::is_dynamic(uint32_t node) {
  dynamic_files();
  return node < m_is_dynamic.size() && m_is_dynamic[node] != 0;
}

bool SymbolWalk::star_imports(uint32_t importer, uint32_t node) const {
  return std::any_of(m_graph.in[node].begin(), m_graph.in[node].end(), [&](const auto& link) {
    return link.first == importer && link.second.kind == EdgeKind::star_import;
  });
}

const std::vector<uint32_t>& SymbolWalk::all_files() {
  if (m_all.size() != m_facts.size()) {
    m_all.resize(m_facts.size());
    for (uint32_t i = 0; i < m_all.size(); ++i) m_all[i] = i;
  }
  return m_all;
}

// Names a module-level symbol is also known by: `from x import name as alias` in the candidate files,
// followed through re-exports.
std::vector<std::string> SymbolWalk::aliases(const std::vector<uint32_t>& files, std::string_view name) {
  std::vector<std::string> names{std::string(name)};
  for (size_t round = 0; round < 4; ++round) {
    size_t before = names.size();
    for (uint32_t h : files) {
      if (h >= m_facts.size()) continue;
      for (const auto& [imported, alias] : renamed_imports(h)) {
        if (std::find(names.begin(), names.end(), imported) == names.end()) continue;
        if (std::find(names.begin(), names.end(), alias) == names.end()) names.emplace_back(alias);
      }
    }
    if (names.size() == before) break;
  }
  return names;
}

std::span<const std::pair<std::string_view, std::string_view>> SymbolWalk::renamed_imports(uint32_t node) {
  if (m_renamed.size() != m_facts.size()) m_renamed.assign(m_facts.size(), {k_unknown, k_unknown});
  auto& [begin, end] = m_renamed[node];
  if (begin == k_unknown) {
    m_facts.imports(node, m_scratch);
    begin = static_cast<uint32_t>(m_renamed_pool.size());
    for (const auto& imp : m_scratch.imports) {
      if (imp.kind != ImportKind::from) continue;
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        size_t a = imp.aliases_begin + (k - imp.names_begin);
        if (a < imp.aliases_end && m_scratch.aliases[a] != m_scratch.names[k]) {
          m_renamed_pool.emplace_back(m_scratch.names[k], m_scratch.aliases[a]);
        }
      }
    }
    end = static_cast<uint32_t>(m_renamed_pool.size());
  }
  return {m_renamed_pool.data() + begin, m_renamed_pool.data() + end};
}

void SymbolWalk::referrers(const Key& key, std::string_view name, Scan scan) {
  WalkKey self = key_of(key.node, key.qualname);
  bool member = key.qualname.find('.') != std::string_view::npos;
  std::vector<std::string> names{std::string(name)};
  // A member may run where a computed name reads any member (getattr(self, name)); a property's
  // setter or deleter also where setattr/delattr stores one, and its getter where hasattr looks one up.
  std::vector<std::string_view> markers;
  if (member) {
    markers.push_back(k_any_member_name);
    if (is_setter(key)) markers.push_back(k_any_setter_name);
    if (is_property(key)) markers.push_back(k_any_getter_name);
  }
  std::vector<uint32_t> files = candidates(key, member, markers, names);
  if (!member) names = aliases(files, name);
  std::vector<uint32_t> ids;
  for (const auto& n : names) ids.push_back(m_index.intern(n));
  std::vector<uint32_t> marker_ids;
  for (std::string_view m : markers) marker_ids.push_back(m_index.intern(m));
  bool test_like = !member && (m_layout.is_test_name(name) || m_layout.is_test_class_name(name));
  for (uint32_t h : files) {
    if (h >= m_facts.size()) continue;
    if (test_like && h != key.node && m_graph.nodes[h].test && star_imports(h, key.node)) {
      whole_file(h, self, "imports_test"); // `from test_a import *` collects test_a's tests here too
    }
    if (!member) {
      // Most importers never read the name: a look at the name table skips them. (A member's candidates
      // come from that table already.)
      bool mentioned = false;
      for (const auto& n : names) mentioned = mentioned || m_facts.mentions(h, n);
      if (!mentioned && !is_dynamic(h) && !m_facts.mentions(h, "__dict__")) continue;
    }
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    const FactsView& facts = info->facts;
    // The code of h that reads the symbol: the indices of its symbols, -1 for module-level code.
    std::vector<int32_t>& reading = m_reading;
    reading.clear();
    auto mark = [&](const Read& r) { reading.push_back(r.symbol); };
    for (size_t k = 0; k < markers.size(); ++k) {
      for (const Read& r : m_index.reads(h, marker_ids[k], markers[k])) mark(r);
    }
    for (size_t k = 0; k < names.size(); ++k) {
      for (const Read& r : m_index.reads(h, ids[k], names[k])) {
        // A symbol that is gone cannot be resolved in the new file: every user by name counts.
        if (scan == Scan::gone || m_index.may_denote(*r.target, key.node, key.qualname)) mark(r);
      }
    }
    // `module.__dict__`, vars(module) and inspect.getmembers(module) read every name of the module;
    // vars(cls), cls.__dict__ and type(obj).__dict__ every member of a class. An instance's __dict__
    // (`other.__dict__`, a plain name) holds its data, not the methods of its class.
    std::string_view owner_class = member ? parent_part(key.qualname) : std::string_view();
    for (const Read& r : m_index.namespace_reads(h)) {
      const Target& t = *r.target;
      bool reads_it = false;
      if (!member) {
        reads_it = t.kind == Target::unknown ||
                   (t.kind == Target::module && std::find(t.modules.begin(), t.modules.end(), key.node) != t.modules.end());
      } else if (t.kind == Target::definition) {
        reads_it = m_index.may_denote(t, key.node, owner_class);
      } else if (t.kind == Target::unknown) {
        reads_it = r.class_like;
      }
      if (reads_it) mark(r);
    }
    if (scan == Scan::gone) {
      // `from module import gone_name` fails when the module is imported.
      for (const auto& imp : info->imports.imports) {
        if (imp.kind != ImportKind::from) continue;
        for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
          if (info->imports.names[k] == name) file_level(h, self, "imports_the_old_name", imp.line);
        }
      }
    }
    // Code that reads names by computed strings may read this one. In source order from here.
    reading.insert(reading.end(), info->dynamic_symbols.begin(), info->dynamic_symbols.end());
    std::sort(reading.begin(), reading.end());
    reading.erase(std::unique(reading.begin(), reading.end()), reading.end());
    // Code that runs at import: the module, and class bodies.
    bool module_level = !reading.empty() && reading.front() == -1;
    if (module_level || facts.module_dynamic_access) file_level(h, self, "module_level", 0);
    for (int32_t i : reading) {
      if (i < 0) continue;
      const SymbolView& s = info->at(i);
      if (h == key.node && s.qualname == key.qualname) continue;
      bool class_body = s.kind == SymbolKind::class_;
      if (class_body) file_level(h, self, "class_body", s.def_line);
      else reach(h, std::string(s.qualname), self, s.dynamic_access ? "dynamic_access" : "references", s.def_line);
    }
    // A test module that imports a test function or class collects it as its own.
    if (m_graph.nodes[h].test && (m_layout.is_test_name(name) || m_layout.is_test_class_name(name))) {
      for (const auto& imp : info->imports.imports) {
        if (imp.kind != ImportKind::from || (imp.flags & k_import_in_function) != 0) continue;
        for (size_t a = imp.aliases_begin; a < imp.aliases_end; ++a) {
          std::string_view alias = info->imports.aliases[a];
          if (!m_layout.is_test_name(alias) && !m_layout.is_test_class_name(alias)) continue;
          std::vector<std::string_view> chain{alias};
          if (m_index.may_refer(h, chain, 0, key.node, key.qualname)) whole_file(h, self, "imports_test");
        }
      }
    }
    // Strings that name the symbol's module (mock.patch targets, settings) count as references by
    // the code on their line.
    std::string_view top = std::string_view(key.qualname).substr(0, key.qualname.find('.'));
    for (const StringRef& ref : string_refs(h, *info)) {
      bool names_module = false;
      for (const auto& [module, next] : ref.modules) {
        // The string names the module itself, or a name in it that could be the symbol.
        if (module == key.node && (!next || *next == top || *next == name)) names_module = true;
      }
      if (!names_module || h == key.node) continue; // a module naming itself (its docstring) is no user
      if (ref.owner == -1 || info->at(ref.owner).kind == SymbolKind::class_) {
        file_level(h, self, "string_ref", ref.line);
      } else {
        reach(h, std::string(info->at(ref.owner).qualname), self, "string_ref", ref.line);
      }
    }
  }
}

const std::vector<SymbolWalk::StringRef>& SymbolWalk::string_refs(uint32_t node, const FileInfo& info) {
  if (m_string_refs.size() != m_facts.size()) m_string_refs.resize(m_facts.size());
  if (m_string_refs[node]) return *m_string_refs[node];
  std::vector<StringRef> out;
  for (const auto& imp : info.imports.imports) {
    if (imp.kind != ImportKind::string_ref) continue;
    std::string full(imp.module);
    for (size_t k = imp.names_begin; k < imp.names_end; ++k) full.append(".").append(info.imports.names[k]);
    auto parts = split_chain(full);
    StringRef ref;
    ref.line = imp.line;
    for (size_t k = parts.size(); k > 0; --k) {
      std::string_view prefix(full.data(), static_cast<size_t>(parts[k - 1].data() + parts[k - 1].size() - full.data()));
      for (uint32_t module : m_graph.modules_named(prefix)) {
        std::optional<std::string> next;
        if (k < parts.size()) next = std::string(parts[k]);
        ref.modules.emplace_back(module, std::move(next));
      }
    }
    if (ref.modules.empty()) continue;
    for (size_t i = 0; i < info.facts.symbols.size(); ++i) {
      const SymbolView& s = info.facts.symbols[i];
      if (s.first_line <= imp.line && imp.line <= s.last_line) ref.owner = static_cast<int32_t>(i);
    }
    out.push_back(std::move(ref));
  }
  m_string_refs[node] = std::move(out);
  return *m_string_refs[node];
}

void SymbolWalk::fixture_consumers(uint32_t node, const SymbolView& fixture, WalkKey from) {
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
    for (uint32_t n : closure(node)) {
      if (n == node || (n < m_facts.size() && (m_graph.nodes[n].test_pattern || m_graph.nodes[n].conftest))) {
        scope.push_back(n);
      }
    }
  } else {
    // A plugin module: every test module and conftest.py that loads it.
    for (uint32_t n : closure(node)) {
      if (n < m_facts.size() && (m_graph.nodes[n].test_pattern || m_graph.nodes[n].conftest)) scope.push_back(n);
    }
  }
  std::string name(fixture.fixture);
  const auto& ini = m_layout.config().usefixtures;
  // `usefixtures = name` in the ini file: every test uses it.
  bool autouse = fixture.autouse || std::find(ini.begin(), ini.end(), name) != ini.end();
  bool requested = autouse; // whether anything in the repository requests it
  // A fixture defined further up that requests this name gets this definition in this scope (the
  // override idiom, or a nearer definition shadowing one a shared fixture asks for).
  std::string_view dir = d.path.parent();
  for (;;) {
    std::string conftest = dir.empty() ? std::string("conftest.py") : std::string(dir) + "/conftest.py";
    if (auto c = m_graph.find(conftest); c && *c != node) {
      if (const FileInfo* above = m_index.get(*c)) {
        auto names = [&](ViewRange r) { return std::find(above->facts.begin(r), above->facts.end(r), name) != above->facts.end(r); };
        for (const SymbolView& s : above->facts.symbols) {
          if (!s.fixture.empty() && (names(s.params) || names(s.usefixtures) || s.usefixtures_dynamic)) {
            reach(*c, std::string(s.qualname), from, "requests_fixture", s.def_line);
            requested = true;
          }
        }
      }
    }
    if (dir.empty()) break;
    auto slash = dir.rfind('/');
    dir = slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
  }
  // A fixture method of a test class with bases: the tests the class inherits may request it.
  if (fixture.parent != -1 && d.test_pattern) {
    const FileInfo* info = m_index.get(node);
    const SymbolView& owner = info->at(fixture.parent);
    if (owner.kind == SymbolKind::class_ && !owner.bases.empty()) whole_file(node, from, "class_fixture");
  }
  for (uint32_t h : scope) {
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    const FactsView& f = info->facts;
    auto names = [&](ViewRange r) { return std::find(f.begin(r), f.end(r), name) != f.end(r); };
    if (autouse) {
      // Every test in scope runs it.
      if (m_graph.nodes[h].test) whole_file(h, from, "autouse_fixture");
      continue;
    }
    if ((f.module_usefixtures_dynamic || names(f.module_usefixtures)) && m_graph.nodes[h].test) {
      whole_file(h, from, "usefixtures");
      requested = true;
      continue;
    }
    // A test class may inherit, from a class in another module, tests, fixtures or marks that request it.
    bool inherited = false;
    for (size_t i = 0; i < f.symbols.size() && !inherited; ++i) {
      if (f.symbols[i].kind == SymbolKind::class_) inherited = inherits_request(h, static_cast<int32_t>(i), name, 0);
    }
    if (inherited && m_graph.nodes[h].test) {
      whole_file(h, from, "inherits_fixture_request");
      requested = true;
      continue;
    }
    // request.getfixturevalue(computed) may ask for any fixture, so files that never name it count too;
    // so may a decorator of the project's own (a mark kept in a variable: `needs_db = usefixtures("db")`).
    bool mentioned = m_facts.mentions(h, name);
    for (const SymbolView& s : f.symbols) {
      if (s.kind == SymbolKind::class_) continue;
      bool by_name = mentioned && (names(s.params) || names(s.usefixtures));
      bool may = s.usefixtures_dynamic || marked_by_project(h, s);
      for (int32_t p = s.parent; p != -1 && !by_name && !may; p = info->at(p).parent) {
        const SymbolView& c = info->at(p);
        by_name = mentioned && names(c.usefixtures);
        may = c.usefixtures_dynamic || marked_by_project(h, c);
      }
      if (by_name || may) reach(h, std::string(s.qualname), from, "requests_fixture", s.def_line);
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
          reach(h, std::string(s.qualname), from, "requests_fixture", s.def_line);
          requested = true;
        }
      }
    }
  }
  if (d.conftest && !requested) {
    // Nothing in the repository requests it: it overrides a fixture that an installed plugin requests
    // (anyio_backend, django_db_setup, celery_config), which may be any test in scope.
    for (uint32_t h : scope) {
      if (m_graph.nodes[h].test) whole_file(h, from, "overrides_plugin_fixture");
    }
  }
}

bool SymbolWalk::marked_by_project(uint32_t node, const SymbolView& s) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr) return false;
  for (auto d = info->facts.begin(s.decorators); d != info->facts.end(s.decorators); ++d) {
    if (d->starts_with("pytest.") || d->starts_with("mark.")) continue; // pytest's own marks, read as such
    if (defined_in_project(node, *d)) return true;
  }
  return false;
}

bool SymbolWalk::inherits_request(uint32_t node, int32_t class_index, const std::string& name, int depth) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr || depth > 8) return false;
  const SymbolView& c = info->at(class_index);
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    Target t = m_index.resolve(node, b->substr(0, b->find('[')));
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

} // namespace impact::decision
