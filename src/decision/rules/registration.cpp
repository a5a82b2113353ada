// docs/selection.md `registration`: a pytest hook, a function behind a decorator that is not a known
// wrapper (or is the project's own), and a class whose hierarchy records its subclasses are called
// without their names: every importer of their module is affected (`pytest_hook`, `decorated`,
// `registered_class`).
#include "decision/rules/registration.hpp"

#include "decision/project_tables.hpp"
#include "decision/rules/session_hooks.hpp"
#include "decision/symbol_walk.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

namespace impact::decision {

using resolve::Binding;
using resolve::FileInfo;
using resolve::Target;

bool is_transparent_decorator(std::string_view callee) {
  static constexpr std::array<std::string_view, 23> k_names = {
      "staticmethod", "classmethod",  "property",        "cached_property", "abstractmethod", "abstractproperty",
      "wraps",        "lru_cache",    "cache",           "total_ordering",  "overload",       "override",
      "final",        "contextmanager", "asynccontextmanager", "dataclass", "setter",         "getter",
      "deleter",      "fixture",      "yield_fixture",   "unique",          "deprecated"};
  if (callee.starts_with("pytest.mark.") || callee.starts_with("mark.")) return true;
  std::string_view last = last_part(callee);
  return std::find(k_names.begin(), k_names.end(), last) != k_names.end();
}

bool defined_in_project(resolve::FileIndex& index, uint32_t node, std::string_view callee) {
  const FileInfo* info = index.get(node);
  if (info == nullptr) return true;
  std::string_view root = callee.substr(0, callee.find('.'));
  const Binding* b = info->binding(root);
  // Unbound: a builtin (property, staticmethod), unless a star import may have bound it.
  if (b == nullptr) return info->star_imports;
  if (b->kind != Binding::module && b->kind != Binding::from_import) return true; // defined or assigned here
  return index.resolve(node, callee).kind != Target::nothing; // nothing: from outside the repository
}

bool path_scoped_hook(std::string_view hook) {
  // pytest calls these through the hook proxy of a node's path, which leaves out the conftest.py
  // files not above it; every other hook goes to every conftest.py loaded so far.
  static constexpr std::array<std::string_view, 20> k_scoped = {
      "pytest_runtest_setup",      "pytest_runtest_call",       "pytest_runtest_teardown", "pytest_runtest_makereport",
      "pytest_runtest_logreport",  "pytest_runtest_logstart",   "pytest_runtest_logfinish", "pytest_pycollect_makeitem",
      "pytest_pycollect_makemodule", "pytest_generate_tests",   "pytest_collect_file",     "pytest_collect_directory",
      "pytest_ignore_collect",     "pytest_itemcollected",      "pytest_collectstart",     "pytest_collectreport",
      "pytest_make_collect_report", "pytest_fixture_setup",     "pytest_fixture_post_finalizer", "pytest_pyfunc_call"};
  return std::find(k_scoped.begin(), k_scoped.end(), hook) != k_scoped.end();
}

bool session_hook(const SymbolView& s) {
  return s.parent == -1 && s.kind == SymbolKind::function && session_hook_name(s.qualname);
}

bool session_hook_name(std::string_view name) {
  return name.starts_with("pytest_") && name != "pytest_plugins" && !path_scoped_hook(name);
}

bool library_wrapper(resolve::FileIndex& index, uint32_t node, std::string_view callee) {
  // Each returns the function (or class) it is given, or a wrapper that calls it when called, and
  // neither calls it while decorating nor keeps it anywhere else.
  static constexpr std::array<std::string_view, 19> k_wrappers = {
      "freezegun.freeze_time",        "unittest.mock.patch",          "unittest.mock.patch.object",
      "unittest.mock.patch.dict",     "unittest.mock.patch.multiple", "mock.patch",
      "mock.patch.object",            "mock.patch.dict",              "mock.patch.multiple",
      "hypothesis.given",             "hypothesis.settings",          "hypothesis.example",
      "hypothesis.seed",              "hypothesis.reproduce_failure", "unittest.skip",
      "unittest.skipIf",              "unittest.skipUnless",          "unittest.expectedFailure",
      "responses.activate"};
  const FileInfo* info = index.get(node);
  if (info == nullptr) return false;
  size_t dot = callee.find('.');
  std::string_view root = callee.substr(0, dot);
  std::string_view rest = dot == std::string_view::npos ? std::string_view() : callee.substr(dot);
  const Binding* b = info->binding(root);
  if (b == nullptr || b->import < 0) return false;
  const ImportView& imp = info->imports.imports[static_cast<size_t>(b->import)];
  if (imp.level != 0) return false; // a relative import comes from the repository
  std::string origin;
  if (b->kind == Binding::module) origin = std::string(b->name);
  else if (b->kind == Binding::from_import) origin = fmt::format("{}.{}", imp.module, b->name);
  else return false;
  origin += rest;
  if (std::find(k_wrappers.begin(), k_wrappers.end(), origin) == k_wrappers.end()) return false;
  // A module of the repository of the same name (a local `mock.py`) is not the library.
  return index.resolve(node, callee).kind == Target::nothing;
}

namespace rules {

bool RegistrationRules::reached(const Key& key, const FileInfo& info, int32_t index, WalkKey self) {
  const SymbolView& sym = info.at(index);
  // Called by pytest or by whatever a decorator registered it with, not by name: every importer.
  if (last_part(key.qualname).starts_with("pytest_")) {
    m_walk.file_level(key.node, self, Relation::pytest_hook, sym.def_line);
    if (collect_hook_name(last_part(key.qualname))) { // `collect-hook`
      m_walk.collect_hook_reached(collect_hook_trigger(m_graph, key.node, sym.def_line).detail);
    }
    // A hook pytest calls for the whole session (pytest_collection_modifyitems, pytest_configure)
    // from every plugin and conftest.py it loaded, wherever that is: every test file.
    if (session_hook(sym)) {
      for (uint32_t n = 0; n < m_graph.nodes.size(); ++n) {
        if (m_graph.nodes[n].test && !m_graph.nodes[n].ghost) m_walk.whole_file(n, self, Relation::pytest_hook);
      }
    }
    return true;
  }
  for (auto d = info.facts.begin(sym.decorators); d != info.facts.end(sym.decorators); ++d) {
    if (library_wrapper(m_index, key.node, *d)) continue;
    // A known wrapper leaves the function reachable by its name only; the project's own decorator
    // of the same name (a registry's `cache`) is not that wrapper.
    // The project's own decorator that returns the function or a wrapper calling it (outside safe mode).
    if (!is_transparent_decorator(*d) || defined_in_project(m_index, key.node, *d)) {
      if (m_walk.mode() != Mode::safe && wrapping_decorator(key.node, *d)) continue;
      m_walk.file_level(key.node, self, Relation::decorated, sym.first_line);
      return true;
    }
  }
  // A class whose hierarchy records its subclasses (__init_subclass__, a metaclass) is made from the
  // registry, without its name: constructing it, or anything reaching the class, runs at import.
  if (sym.kind == SymbolKind::class_ && registers_subclasses(key.node, index, 0)) {
    m_walk.file_level(key.node, self, Relation::registered_class, sym.def_line);
    return true;
  }
  return false;
}

bool RegistrationRules::wrapping_decorator(uint32_t node, std::string_view callee, bool direct) {
  Target t = m_index.resolve(node, callee);
  if (t.kind == Target::unknown) return wrapping_shim(node, callee, direct);
  if (t.kind != Target::definition) return false;
  const FileInfo* owner = m_index.get(t.node);
  if (owner == nullptr || owner->symbol(t.qualname) < 0) return false;
  // A name also bound by an assignment (`deco = registry.wrap`) may be either.
  if (t.qualname.find('.') == std::string::npos &&
      std::find(owner->facts.module_names.begin(), owner->facts.module_names.end(), t.qualname) !=
          owner->facts.module_names.end()) {
    return false;
  }
  return std::all_of(owner->facts.symbols.begin(), owner->facts.symbols.end(),
                     [&](const SymbolView& s) { return s.qualname != t.qualname || (direct ? s.wraps_direct : s.wraps_only); });
}

// A name its module binds several ways (Binding::conflict, which resolve() cannot pin): a wrapper
// under each binding wraps whichever runs. Each definition of the name must wrap, no assignment bind
// it, and each import of it bring a known wrapper (is_transparent_decorator) from outside the
// repository. pathspec's `_typing.py` binds `override` from typing, from typing_extensions, or as
// `def override(f, /): return f`; its decorated methods made their files file-level.
bool RegistrationRules::wrapping_shim(uint32_t node, std::string_view callee, bool direct) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr || callee.find('.') != std::string_view::npos) return false;
  const Binding* b = info->binding(callee);
  if (b == nullptr) return false;
  uint32_t owner_node = node;
  std::string_view name = callee;
  if (b->kind == Binding::from_import && b->import >= 0) {
    std::vector<uint32_t> modules = m_index.imported_modules(node, info->imports.imports[static_cast<size_t>(b->import)]);
    if (modules.size() != 1) return false;
    owner_node = modules.front();
    name = b->name;
  } else if (b->kind != Binding::conflict) {
    return false;
  }
  const FileInfo* owner = m_index.get(owner_node);
  const Binding* own = owner == nullptr ? nullptr : owner->binding(name);
  if (own == nullptr || own->kind != Binding::conflict) return false;
  const auto& assigned = owner->facts.module_names;
  if (std::find(assigned.begin(), assigned.end(), name) != assigned.end()) return false;
  for (const SymbolView& s : owner->facts.symbols) {
    if (s.qualname == name && !(direct ? s.wraps_direct : s.wraps_only)) return false;
  }
  const ImportScratch& imports = owner->imports;
  for (const ImportView& imp : imports.imports) {
    for (size_t k = imp.aliases_begin; k < imp.aliases_end; ++k) {
      std::string_view alias = imports.aliases[k];
      if (imp.kind != ImportKind::from) {
        if ((alias.empty() ? imp.module.substr(0, imp.module.find('.')) : alias) == name) return false;
        continue;
      }
      if (alias != name) continue;
      size_t at = imp.names_begin + (k - imp.aliases_begin);
      if (at >= imp.names_end || !is_transparent_decorator(imports.names[at])) return false;
      if (imp.level != 0 || !m_index.imported_modules(owner_node, imp).empty()) return false;
    }
  }
  return true;
}

bool RegistrationRules::registers_subclasses(uint32_t node, int32_t class_index, int depth) {
  const FileInfo* info = m_index.get(node);
  if (info == nullptr || depth > 8) return false;
  const SymbolView& c = info->at(class_index);
  if (c.has_metaclass) return true;
  // `Base.__subclasses__()` (or `cls.__subclasses__()`) makes instances of classes it never names: a
  // file that reads it and names this class (or, further up, a base of it) may.
  for (uint32_t h : m_tables.subclass_enumerators()) {
    if (h == node || m_facts.mentions(h, c.name())) return true;
  }
  std::string init_subclass(c.qualname);
  init_subclass.append(".__init_subclass__");
  if (info->symbol(init_subclass) >= 0) return true;
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view base = base_expression(*b);
    if (base.empty()) continue; // metaclass=...: its own rule above
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

} // namespace rules
} // namespace impact::decision
