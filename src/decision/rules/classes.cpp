// docs/selection.md `constructors`, `special-methods`: a changed constructor, special method or
// protocol method (keys, write, find_spec, ...) runs where its class is used, so the walk goes on from
// the class (`constructor`, `special_method`, `protocol_method`); a module's __getattr__/__dir__ makes
// its module file-level. `member-precision`: a method whose class has a base from outside the
// repository reaches the class (`overrides_external_base`). `test-node-ids`: what a class does, its
// subclasses do (`subclass`), and test classes inheriting a changed method run it (`member_of`).
#include "decision/rules/classes.hpp"

#include "decision/rules/dynamic_access.hpp"
#include "decision/rules/references.hpp"
#include "decision/rules/registration.hpp"
#include "decision/symbol_walk.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace impact::decision::rules {

using resolve::FileInfo;
using resolve::Target;

namespace {

// A base of a class of `info` whose own code calls no overridable method by name and reads no
// annotation for more than its names: object, the typing and abc forms, builtin types, and
// exceptions (a name ending in Error, Warning or Exception that the file does not bind).
bool inert_base(const FileInfo& info, std::string_view base) {
  static constexpr std::array<std::string_view, 22> k_inert = {
      "object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Protocol", "typing.Protocol", "NamedTuple",
      "typing.NamedTuple", "TypedDict", "typing.TypedDict", "int", "str", "float", "bytes", "list", "dict",
      "set", "frozenset", "tuple", "Exception", "BaseException"};
  if (std::find(k_inert.begin(), k_inert.end(), base) != k_inert.end()) return true;
  // The typing and abc forms under a module's other name (`import typing as t`: `t.Generic`).
  const resolve::Binding* root = info.binding(base.substr(0, base.find('.')));
  if (root != nullptr && root->kind == resolve::Binding::module && root->import >= 0 && base.find('.') != std::string_view::npos &&
      static_cast<size_t>(root->import) < info.imports.imports.size()) {
    std::string_view module = info.imports.imports[static_cast<size_t>(root->import)].module;
    std::string_view rest = base.substr(base.find('.') + 1);
    if (module == "typing" || module == "typing_extensions" || module == "abc") {
      std::string spelled = std::string(module == "abc" ? "abc." : "typing.") + std::string(rest);
      if (std::find(k_inert.begin(), k_inert.end(), spelled) != k_inert.end()) return true;
    }
  }
  bool bound = root != nullptr;
  return !bound && (base.ends_with("Error") || base.ends_with("Warning") || base.ends_with("Exception"));
}

bool runtime_checkable(const FileInfo& info, const SymbolView& cls) {
  return cls.kind == SymbolKind::class_ &&
         std::any_of(info.facts.begin(cls.decorators), info.facts.end(cls.decorators),
                     [](std::string_view d) { return last_part(d.substr(0, d.find('('))) == "runtime_checkable"; });
}

} // namespace

void ClassRules::gone(const Key& key, const FileInfo& info, WalkKey self) {
  // A special or protocol method that is gone changes what its class's instances do (bool() falls back
  // to __len__): the class is reached. So does any method gone from a class with bases: the base's
  // version runs in its place, or an abstract one is left unimplemented and the class can no longer
  // be instantiated.
  std::string_view name = last_part(key.qualname);
  std::string_view owner = parent_part(key.qualname);
  if (owner.empty()) return;
  int32_t cls = info.symbol(owner);
  if (cls < 0 || info.at(cls).kind != SymbolKind::class_) return;
  ViewRange bases = info.at(cls).bases;
  bool derived = std::any_of(info.facts.begin(bases), info.facts.end(bases), [](std::string_view b) { return b != "object"; });
  if (is_dunder(name) || is_protocol_method(name) || derived) {
    m_walk.reach(key.node, std::string(owner), self, Relation::special_method, 0);
  }
}

void ClassRules::subclasses_reached(const Key& key, WalkKey self) {
  for (const auto& [h, sub] : subclasses(key.node, key.qualname)) {
    const SymbolView& s = m_index.get(h)->at(sub);
    if (m_graph.nodes[h].test) m_walk.whole_file(h, self, Relation::subclass);
    m_walk.reach(h, std::string(s.qualname), self, Relation::subclass, s.def_line);
  }
}

bool ClassRules::reached(const Key& key, const FileInfo& info, int32_t index, WalkKey self) {
  const SymbolView& sym = info.at(index);
  std::string_view name = last_part(key.qualname);
  // What a reached class does (its constructor, its special methods), its subclasses do too. And its
  // instances may come out of data (a pickle, a YAML object tag) in code that never names it: the test
  // files that load such code run whole.
  if (sym.kind == SymbolKind::class_) {
    subclasses_reached(key, self);
    for (uint32_t node : m_walk.data_loaders()) m_walk.whole_file(node, self, Relation::dynamic_import_may_load);
  }
  // A module's __getattr__ / __dir__ (PEP 562) run on attribute access to the module, never by name.
  if (sym.kind == SymbolKind::function && sym.parent == -1 && is_dunder(name)) {
    m_walk.file_level(key.node, self, Relation::special_method, sym.def_line);
    return true;
  }
  // Builtins and the standard library call these by protocol, not by a name in the code: dict(obj) and
  // **obj call keys(), print(file=obj) and json.dump call write(), and so on. Like a special method,
  // such a method runs wherever an instance is, which is reached from the code that names the class.
  if (sym.kind == SymbolKind::method && is_protocol_method(name)) {
    m_walk.reach(key.node, std::string(parent_part(key.qualname)), self, Relation::protocol_method, sym.def_line);
  }
  // isinstance() against a runtime-checkable protocol checks that every member is there: a member
  // added (or renamed) changes which objects match, without a call by its name.
  if (sym.kind == SymbolKind::method && sym.parent != -1 && runtime_checkable(info, info.at(sym.parent))) {
    m_walk.reach(key.node, std::string(parent_part(key.qualname)), self, Relation::protocol_member, sym.def_line);
  }
  if (sym.kind == SymbolKind::method && DynamicAccessRules::is_serialization_method(name)) {
    m_walk.dynamic_access().serialization_method(key, parent_part(key.qualname), sym.def_line, self);
    return false;
  }
  if (sym.kind == SymbolKind::method && is_dunder(name)) {
    bool constructor = name == "__init__" || name == "__new__" || name == "__post_init__" || name == "__init_subclass__";
    // A constructor runs wherever the class is called. Any other special method runs, without its
    // name, wherever an instance is used by an operator or a builtin (`==`, `str()`, `for`, `with`):
    // in code that gets its instances from code that makes them, which names the class.
    m_walk.reach(key.node, std::string(parent_part(key.qualname)), self, constructor ? Relation::constructor : Relation::special_method,
                 sym.def_line);
  }
  return false;
}

void ClassRules::method_reached(const Key& key, const FileInfo& info, int32_t class_index, WalkKey self) {
  const SymbolView& parent = info.at(class_index);
  // A base class from outside the repository may call the method by name (an override of a
  // template method such as _buffer_encode, run, emit, default): whoever uses the class may run it.
  const ExternalCalls& external = external_calls(key.node, class_index);
  std::string_view called = last_part(key.qualname);
  if (external.any || std::find(external.names.begin(), external.names.end(), called) != external.names.end()) {
    m_walk.reach(key.node, std::string(parent.qualname), self, Relation::overrides_external_base, parent.def_line);
    // A test class's hook that only its external base calls, for every test (tornado's AsyncHTTPTestCase
    // calls get_app in setUp): pytest makes the instances and no code names the class or the hook, so
    // its file's tests run. A test, or a helper the file calls by name, is followed as before.
    if (m_graph.nodes[key.node].test && !m_layout.is_test_name(called) && !m_facts.mentions(key.node, called)) {
      m_walk.whole_file(key.node, self, Relation::overrides_external_base);
    }
  } else if (!is_dunder(called) && !m_layout.is_test_name(called) && handed(parent.name())) {
    // The class (or an instance) is handed to other code as a value, which may call the method by a
    // name the project never spells (sqlite3 calls an aggregate's step, logging a handler's emit):
    // whoever uses the class may run it.
    m_walk.reach(key.node, std::string(parent.qualname), self, Relation::handed_class, parent.def_line);
  }
  // Subclasses inherit the method, and their callers call it by its name (found by the references);
  // a test subclass also runs the tests it inherits. Once per class; a class that is reached itself
  // hands itself to its subclasses anyway.
  // A test method is searched per name (its inherited ids differ); another method once per class.
  WalkKey class_key = m_walk.key_of(key.node, parent.qualname);
  std::string_view name = last_part(key.qualname);
  std::string method = m_layout.is_test_name(name) ? std::string(name) : std::string();
  if (m_walk.reached(class_key) || !m_inherited.emplace(class_key, method).second) return;
  if (!m_walk.known(class_key)) m_walk.searched_class(class_key, self, Relation::member_of, parent.def_line);
  std::set<WalkKey> seen{class_key};
  imported_by_tests(class_key);
  inherited_by_tests(class_key, method, seen);
  // A test method of a class pytest does not collect as written and no class statement derives from (a
  // contract in a helper module, a class a factory makes) runs where code derives a test class from it
  // at run time (`TestB = type("TestB", (Base,), {})`, `TestB = make_suite(B)`): the class's readers
  // are followed. (After the searches above, which a class reached already skips.)
  if (!method.empty() && !(m_graph.nodes[key.node].test && m_layout.may_collect_class(info.facts.symbols, class_index)) &&
      subclasses(key.node, parent.qualname).empty()) {
    m_walk.reach(key.node, std::string(parent.qualname), self, Relation::test_template, parent.def_line);
  }
}

// `from test_a import TestA` (or `from helpers import Base as TestBase`) in a test module collects the class's
// tests there too, under that module's path: such a module is selected whole when a method of the
// class (or of a base it inherits) changes.
void ClassRules::imported_by_tests(WalkKey class_key) {
  Key key = m_walk.key_from(class_key);
  std::string_view name = last_part(key.qualname);
  if (key.qualname.find('.') != std::string::npos) return; // a nested class is imported with its own
  for (uint32_t g : m_facts.files_mentioning(name)) {
    if (g == key.node || !m_graph.nodes[g].test) continue;
    const FileInfo* info = m_index.get(g);
    if (info != nullptr && collects_by_import(m_index, m_layout, g, *info, key.node, key.qualname)) {
      m_walk.whole_file(g, class_key, Relation::imports_test);
    }
  }
}

const ClassRules::ExternalCalls& ClassRules::external_calls(uint32_t node, int32_t class_index) {
  uint64_t key = (static_cast<uint64_t>(node) << 32) | static_cast<uint32_t>(class_index);
  return m_external_base.get(key, [&] {
    ExternalCalls out;
    external_calls(node, class_index, 0, out);
    return out;
  });
}

void ClassRules::external_calls(uint32_t node, int32_t class_index, int depth, ExternalCalls& out) {
  const FileInfo* info = depth > 8 ? nullptr : m_index.get(node);
  if (info == nullptr) {
    out.any = true;
    return;
  }
  const SymbolView& c = info->at(class_index);
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases) && !out.any; ++b) {
    std::string_view base = base_expression(*b);
    if (base.empty()) continue; // metaclass=..., keywords
    // copy.copy, deepcopy and pickle rebuild a list subclass through its own append and extend.
    if (base == "list" && info->binding("list") == nullptr) {
      out.names.insert(out.names.end(), {"append", "extend"});
      continue;
    }
    if (inert_base(*info, base)) continue;
    Target t = m_index.resolve(node, base);
    if (t.kind != Target::definition) {
      const std::vector<std::string_view>* names = abc_calls(*info, base);
      if (names == nullptr) out.any = true;
      else out.names.insert(out.names.end(), names->begin(), names->end());
      continue;
    }
    const FileInfo* owner = m_index.get(t.node);
    int32_t index = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (index < 0 || owner->at(index).kind != SymbolKind::class_) {
      out.any = true;
      return;
    }
    external_calls(t.node, index, depth + 1, out);
  }
}

namespace {

// Whether `root` is bound only by plain imports of modules under it (`import a`, `import a.b`): no
// alias, from-import, definition or assignment of that name.
bool binds_only_plainly(const FileInfo& info, std::string_view root) {
  const FactsView& facts = info.facts;
  if (std::find(facts.module_names.begin(), facts.module_names.end(), root) != facts.module_names.end()) return false;
  if (info.symbol(root) >= 0) return false;
  bool any = false;
  for (const ImportView& imp : info.imports.imports) {
    if (imp.kind == ImportKind::plain) {
      bool aliased = imp.aliases_begin < imp.aliases_end && !info.imports.aliases[imp.aliases_begin].empty();
      if (aliased) {
        if (info.imports.aliases[imp.aliases_begin] == root) return false;
      } else if (imp.module.substr(0, imp.module.find('.')) == root) {
        any = imp.level == 0;
        if (!any) return false;
      }
    } else if (imp.kind == ImportKind::from) {
      for (size_t n = imp.names_begin; n < imp.names_end; ++n) {
        size_t a = imp.aliases_begin + (n - imp.names_begin);
        std::string_view bound = a < imp.aliases_end && !info.imports.aliases[a].empty() ? info.imports.aliases[a] : info.imports.names[n];
        if (bound == root) return false;
      }
    } else if (imp.kind == ImportKind::star) {
      return false;
    }
  }
  return any;
}

} // namespace

// The non-special methods the mixin methods of each abstract base class of collections.abc call on
// self, with those of its own bases (CPython's Lib/_collections_abc.py, 3.8 to 3.13): MutableMapping's
// clear calls popitem and Mapping's __eq__ calls items; get, pop, setdefault, update, keys and values
// call special methods only. The same classes under typing's aliases.
const std::vector<std::string_view>* ClassRules::abc_calls(const FileInfo& info, std::string_view base) {
  static const std::vector<std::pair<std::string_view, std::vector<std::string_view>>> k_abcs = {
      {"Hashable", {}},        {"Awaitable", {}},
      {"Coroutine", {"throw"}}, {"AsyncIterable", {}},
      {"AsyncIterator", {}},   {"AsyncGenerator", {"asend", "athrow"}},
      {"Iterable", {}},        {"Iterator", {}},
      {"Reversible", {}},      {"Generator", {"send", "throw"}},
      {"Sized", {}},           {"Container", {}},
      {"Collection", {}},      {"Callable", {}},
      {"Set", {"_from_iterable"}}, {"MutableSet", {"_from_iterable", "add", "clear", "discard", "pop"}},
      {"Mapping", {"items"}},  {"MutableMapping", {"items", "popitem"}},
      {"MappingView", {"_mapping"}}, {"KeysView", {"_mapping", "_from_iterable"}},
      {"ItemsView", {"_mapping", "_from_iterable"}}, {"ValuesView", {"_mapping"}},
      {"Sequence", {}},        {"MutableSequence", {"append", "extend", "index", "insert", "pop"}},
      {"ByteString", {}}};
  // The dotted name the base stands for: `MutableMapping` bound by `from collections.abc import
  // MutableMapping`, `abc.Mapping` by `from collections import abc`, `cabc.Set` by `import
  // collections.abc as cabc`, `collections.abc.Sized` by `import collections.abc`.
  std::string_view root = base.substr(0, base.find('.'));
  std::string_view rest = base.substr(root.size());
  const resolve::Binding* b = info.binding(root);
  if (b == nullptr) return nullptr;
  std::string full;
  if (b->kind == resolve::Binding::conflict) {
    // `import collections` and `import collections.abc` both bind `collections`, to the same module.
    if (!binds_only_plainly(info, root)) return nullptr;
    full.assign(base);
  } else {
    if (b->import < 0 || static_cast<size_t>(b->import) >= info.imports.imports.size()) return nullptr;
    const ImportView& imp = info.imports.imports[static_cast<size_t>(b->import)];
    if (imp.level != 0) return nullptr;
    if (b->kind == resolve::Binding::module) full.assign(b->name);
    else if (b->kind == resolve::Binding::from_import) full.assign(imp.module).append(".").append(b->name);
    else return nullptr;
    full.append(rest);
  }
  std::string_view name = full;
  for (std::string_view module : {std::string_view("collections.abc."), std::string_view("typing.")}) {
    if (!name.starts_with(module)) continue;
    std::string_view cls = name.substr(module.size());
    for (const auto& [abc, calls] : k_abcs) {
      if (abc == cls) return &calls;
    }
  }
  return nullptr;
}

std::vector<std::pair<uint32_t, int32_t>> ClassRules::subclasses(uint32_t node, std::string_view qualname) {
  std::vector<std::pair<uint32_t, int32_t>> out;
  std::string_view name = last_part(qualname);
  // A module-level class is also derived from under the names renamed imports give it
  // (`from pkg.items import Float as _Base` in one module, `class AoT(_Base)` in another).
  std::vector<std::string> names{std::string(name)};
  if (name.size() == qualname.size()) names = m_walk.references().names_known(node, name);
  std::vector<uint32_t> files;
  for (const auto& n : names) {
    std::vector<uint32_t> more = m_facts.files_mentioning(n);
    files.insert(files.end(), more.begin(), more.end());
  }
  if (names.size() > 1) {
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
  }
  for (uint32_t h : files) {
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) continue;
    for (size_t i = 0; i < info->facts.symbols.size(); ++i) {
      const SymbolView& c = info->facts.symbols[i];
      if (c.kind != SymbolKind::class_ || (h == node && c.qualname == qualname)) continue;
      for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
        std::string_view base = base_expression(*b);
        if (base.empty()) continue;
        // The base names the class (under an alias, too: `from x import Base as B`), or is bound in a
        // way resolution does not follow; a base proved to be something else is not it.
        std::string_view root = base.substr(0, base.find('.'));
        if (info->binding(root) == nullptr && std::find(names.begin(), names.end(), last_part(base)) == names.end()) {
          continue; // a builtin
        }
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

void ClassRules::inherited_by_tests(WalkKey class_key, std::string_view method, std::set<WalkKey>& seen) {
  Key key = m_walk.key_from(class_key);
  for (const auto& [h, sub] : subclasses(key.node, key.qualname)) {
    const FileInfo& info = *m_index.get(h);
    const SymbolView& s = info.at(sub);
    if (m_graph.nodes[h].test) {
      if (!method.empty() && surely_collected(info, sub)) {
        std::string qualname(s.qualname);
        qualname.append(".").append(method);
        m_walk.select_test(test_node_id(m_graph.nodes[h].path.str, qualname),
                           {Hop{m_graph.nodes[h].path.str, Relation::subclass, s.def_line, std::string(s.qualname)}}, class_key);
      } else {
        m_walk.whole_file(h, class_key, Relation::subclass);
      }
    }
    // A subclass, in a test file or not, may itself be the base of a test class, or be imported by
    // another test module, which collects it.
    WalkKey sub_key = m_walk.key_of(h, s.qualname);
    if (!seen.insert(sub_key).second || m_walk.reached(sub_key)) continue;
    if (!m_walk.known(sub_key)) m_walk.searched_class(sub_key, class_key, Relation::subclass, s.def_line);
    imported_by_tests(sub_key);
    inherited_by_tests(sub_key, method, seen);
  }
}

bool ClassRules::surely_collected(const FileInfo& info, int32_t index) const {
  const SymbolView& c = info.at(index);
  if (c.kind != SymbolKind::class_ || c.parent != -1 || c.has_init) return false;
  if (m_layout.is_test_class_name(c.name())) return true;
  for (auto b = info.facts.begin(c.bases); b != info.facts.end(c.bases); ++b) {
    if (b->ends_with("TestCase")) return true; // unittest collects it whatever its name
  }
  return false;
}

bool ClassRules::may_call_constructor(uint32_t h, int32_t symbol, uint32_t node, std::string_view qualname) {
  const FileInfo* info = m_index.get(h);
  if (info == nullptr || symbol < 0) return true;
  int32_t cls = info->at(symbol).parent;
  while (cls != -1 && info->at(cls).kind != SymbolKind::class_) cls = info->at(cls).parent;
  if (cls == -1) return true; // a function: `obj.__init__(...)` on anything
  const Family& f = family(node, qualname);
  return f.open || f.classes.contains({h, cls});
}

bool ClassRules::inert_annotations(uint32_t node, int32_t index, int depth) {
  const FileInfo* info = depth > 8 ? nullptr : m_index.get(node);
  if (info == nullptr) return false;
  const SymbolView& c = info->at(index);
  if (c.kind != SymbolKind::class_ || c.has_metaclass) return false;
  for (auto d = info->facts.begin(c.decorators); d != info->facts.end(c.decorators); ++d) {
    if (!is_transparent_decorator(*d) || defined_in_project(m_index, node, *d)) return false;
  }
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view base = base_expression(*b);
    if (base.empty()) return false; // a keyword (metaclass=..., a framework's options)
    if (inert_base(*info, base)) continue;
    Target t = m_index.resolve(node, base);
    if (t.kind != Target::definition) return false;
    const FileInfo* owner = m_index.get(t.node);
    int32_t at = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (at < 0 || !inert_annotations(t.node, at, depth + 1)) return false;
  }
  return true;
}

bool ClassRules::computed_base(uint32_t node, int32_t index) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr) return true;
  const SymbolView& c = info->at(index);
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    // A call or a comparison may hold an `=` that base_expression() reads as a keyword's
    // (`mixin_for(kind="loud")`, `Fast if MODE != "slow" else Slow`); a keyword is `name=value`.
    std::string_view raw = *b;
    size_t eq = raw.find('=');
    bool keyword = eq != std::string_view::npos && eq + 1 < raw.size() && raw[eq + 1] != '=' &&
                   std::all_of(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(eq), [](char ch) {
                     return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_';
                   });
    if (!keyword && (raw.find('(') != std::string_view::npos || eq != std::string_view::npos)) return true;
    std::string_view base = base_expression(*b);
    if (base.empty()) continue; // a keyword: metaclass=...
    bool dotted = std::all_of(base.begin(), base.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_' || ch == '.' || static_cast<unsigned char>(ch) >= 0x80;
    });
    if (!dotted) return true;
    if (inert_base(*info, base) || base == "type" || base == "property") continue;
    // The text has no spaces (`Loud if LOUD else Quiet` reads `LoudifLOUDelseQuiet`): a name no
    // import or definition binds is no name.
    if (info->binding(base.substr(0, base.find('.'))) == nullptr) return true;
    Target t = m_index.resolve(node, base);
    if (t.kind == Target::unknown) return true; // a value of the project (`from .mixin import marker`)
    if (t.kind != Target::definition) continue;  // a class from outside the project
    const FileInfo* owner = m_index.get(t.node);
    int32_t at = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (at < 0 || owner->at(at).kind != SymbolKind::class_) return true; // a value standing for a class
  }
  return false;
}

bool ClassRules::may_share_mro(uint32_t a, std::string_view a_qualname, uint32_t b, std::string_view b_qualname) {
  const Family& fa = family(a, a_qualname);
  const Family& fb = family(b, b_qualname);
  if (fa.open || fb.open) return true;
  return std::any_of(fa.classes.begin(), fa.classes.end(), [&](const auto& c) { return fb.classes.contains(c); });
}

const ClassRules::Family& ClassRules::family(uint32_t node, std::string_view qualname) {
  return m_families.get(m_walk.key_of(node, qualname), [&] {
    Family out;
    const FileInfo* info = m_index.get(node);
    int32_t index = info == nullptr ? -1 : info->symbol(qualname);
    if (index < 0) {
      out.open = true;
      return out;
    }
    // The class and its subclasses at any depth.
    std::vector<std::pair<uint32_t, int32_t>> subs{{node, index}};
    out.classes.emplace(node, index);
    for (size_t i = 0; i < subs.size() && subs.size() < 4096; ++i) {
      const auto [n, c] = subs[i];
      for (const auto& sub : subclasses(n, m_index.get(n)->at(c).qualname)) {
        if (out.classes.insert(sub).second) subs.push_back(sub);
      }
    }
    if (subs.size() >= 4096) out.open = true;
    // A class of the family whose other base is computed (`class Impl(mixin_for("loud"), Base)`,
    // `Loud if LOUD else Quiet`, an object with __mro_entries__) may have any class in its MRO.
    for (size_t i = 0; i < subs.size() && !out.open; ++i) out.open = computed_base(subs[i].first, subs[i].second);
    return out;
  });
}

bool ClassRules::handed(std::string_view class_name) {
  return m_handed.get(std::string(class_name), [&] { return hands_on(class_name, 0); });
}

bool ClassRules::hands_on(std::string_view value, int depth) {
  for (uint32_t g : m_facts.files_mentioning(handed_name(value))) {
    const FileInfo* info = m_index.get(g);
    if (info == nullptr) return true;
    for (std::string_view entry : info->facts.handed) {
      size_t tab = entry.find('\t');
      if (tab == std::string_view::npos || entry.substr(0, tab) != value) continue;
      std::string_view callee = entry.substr(tab + 1);
      // Returned by function f: handed where f's result is (`addHandler(make_handler())`).
      if (callee.starts_with('^')) {
        if (depth < 2 && hands_on(callee.substr(1), depth + 1)) return true;
        continue;
      }
      // A parameter goes where a named callee takes it; stored or given to a computed callee (the
      // dispatch of `getattr(obj, name)(*args)`), the references of that code follow it.
      if (callee.empty() ? value.front() != '=' : !project_defines(callee)) return true;
      // A project function given the value: it counts when it hands its parameter on.
      if (depth < 1 && hands_on(std::string(1, '=').append(callee), depth + 1)) return true;
    }
  }
  return false;
}

bool ClassRules::project_defines(std::string_view name) {
  const auto& names = m_defined.get([&] {
    std::vector<std::string_view> out;
    FactsView view;
    for (size_t i = 0; i < m_facts.size(); ++i) {
      view = {};
      m_facts.view(i, view);
      for (const auto& s : view.symbols) out.push_back(last_part(s.qualname));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  });
  return std::binary_search(names.begin(), names.end(), name);
}

bool ClassRules::is_protocol_method(std::string_view name) {
  static constexpr std::array<std::string_view, 28> k_names = {
      // mappings (dict(obj), **obj; json.dumps, copy and pickle call a dict subclass's items()) and files
      // (print(file=), json.dump / json.load)
      "keys", "items", "read", "readline", "readlines", "readinto", "write", "writelines", "flush", "close", "fileno",
      "seek", "tell", "isatty", "readable", "writable", "seekable", "truncate",
      // logging filters (Filterer calls filter(record) on any object), import hooks (sys.meta_path)
      "filter", "find_spec", "find_module", "create_module", "exec_module", "load_module", "get_source",
      "get_data", "get_filename", "is_package"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

} // namespace impact::decision::rules
