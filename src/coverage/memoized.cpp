// memoized(): coverage/memoized.hpp.
#include "coverage/memoized.hpp"

#include "util/ascii.hpp"

#include "impact/python/names.hpp"

#include <algorithm>

namespace impact {

namespace {

// Whether module-level `name` of file `at` is a decorator that gives back what it is given
// (Symbol::returns_itself) under every definition, and no other binding of the file's module level
// (an assignment, an import) may replace it.
bool defines_identity(const ProjectFacts& facts, size_t at, std::string_view name) {
  if (at >= facts.size()) return false;
  FactsView view;
  facts.view(at, view);
  bool found = false;
  for (const SymbolView& s : view.symbols) {
    if (s.parent != -1 || s.name() != name) continue;
    if (!s.returns_itself) return false;
    found = true;
  }
  if (!found || std::find(view.module_names.begin(), view.module_names.end(), name) != view.module_names.end()) return false;
  ImportScratch imports;
  facts.imports(at, imports);
  for (const auto& imp : imports.imports) {
    if (imp.kind == ImportKind::star) return false;
    for (size_t k = 0; k < imp.aliases_end - imp.aliases_begin; ++k) {
      std::string_view alias = imports.aliases[imp.aliases_begin + k];
      std::string_view bound = imp.kind == ImportKind::from && imp.names_begin + k < imp.names_end ? imports.names[imp.names_begin + k] : imp.module;
      if ((alias.empty() ? bound.substr(0, bound.find('.')) : alias) == name) return false;
    }
  }
  return true;
}

// docs/coverage.md `memoized`: a plain `@name` whose definition returns its parameter itself
// (`def internalcode(f): registry.add(f.__code__); return f`) binds the decorated name to the function:
// every call runs its body, and nothing is cached. Its definition is in this file, or in the project
// module a `from` import of this file names it from.
bool gives_back(const ProjectFacts& facts, const ImportGraph& graph, size_t at, const FactsView& view,
                const ImportScratch& imports, std::string_view d) {
  if (d.empty() || d.find_first_of(".( [") != std::string_view::npos) return false; // a call, an attribute
  if (std::any_of(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) { return s.parent == -1 && s.name() == d; })) {
    return defines_identity(facts, at, d);
  }
  if (std::find(view.module_names.begin(), view.module_names.end(), d) != view.module_names.end()) return false;
  // The one import that binds it: `from .utils import internalcode` (or `... import helper as d`).
  const ImportView* by = nullptr;
  std::string_view imported;
  for (const auto& imp : imports.imports) {
    if (imp.kind == ImportKind::star) return false;
    for (size_t k = 0; k < imp.aliases_end - imp.aliases_begin; ++k) {
      std::string_view alias = imports.aliases[imp.aliases_begin + k];
      bool from = imp.kind == ImportKind::from && imp.names_begin + k < imp.names_end;
      std::string_view name = from ? imports.names[imp.names_begin + k] : imp.module;
      if ((alias.empty() ? name.substr(0, name.find('.')) : alias) != d) continue;
      if (!from || by != nullptr || (imp.flags & k_import_in_function) != 0) return false;
      by = &imp;
      imported = name;
    }
  }
  if (by == nullptr || at >= graph.nodes.size()) return false;
  // The module it comes from, under each name it resolves to: every file that is that module must
  // define the name so, and none may be a submodule of that name instead (`from pkg import mod`).
  std::vector<std::string> names;
  if (by->level > 0) names = relative_module_names(graph.nodes[at], by->level, by->module);
  else names.emplace_back(by->module);
  bool found = false;
  for (const std::string& module : names) {
    if (!graph.modules_named(module + "." + std::string(imported)).empty()) return false;
    for (uint32_t target : graph.modules_named(module)) {
      if (!defines_identity(facts, target, imported)) return false;
      found = true;
    }
  }
  return found;
}

} // namespace

std::optional<std::pair<std::string, std::string>> memoized(const ProjectFacts& facts, const ImportGraph& graph, size_t at,
                                                            std::string_view file, const FileSemantics& sem) {
  FactsView view;
  facts.view(at, view);
  ImportScratch imports;
  facts.imports(at, imports);
  auto cache_like = [](std::string_view d) {
    std::string lower = ascii_lower(d);
    for (std::string_view w : {"cache", "memo", "once", "lru", "reify", "lazy", "singleton"}) {
      if (lower.find(w) != std::string::npos) return true;
    }
    return false;
  };
  auto project_import = [&](uint32_t line) {
    auto node = graph.find(file);
    if (!node) return true;
    return std::any_of(graph.out[*node].begin(), graph.out[*node].end(), [&](const Edge& e) { return e.line == line; });
  };
  // What the decorator `d` (its text) may be: a cache, or code of the project.
  auto keeps = [&](std::string_view d) -> bool {
    if (cache_like(d)) return true;
    if (gives_back(facts, graph, at, view, imports, d)) return false;
    std::string_view root = d.substr(0, d.find_first_of(".( "));
    // Whose the root is: the project's (defined here, bound by assignment, imported from a project
    // module) may be anything, whatever its name says (`register = functools.lru_cache(...)`).
    if (std::any_of(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) { return s.parent == -1 && s.name() == root; })) {
      return true; // defined here
    }
    if (std::find(view.module_names.begin(), view.module_names.end(), root) != view.module_names.end()) return true; // bound by assignment
    for (const auto& imp : imports.imports) {
      for (size_t k = 0; k < imp.aliases_end - imp.aliases_begin; ++k) {
        std::string_view alias = imports.aliases[imp.aliases_begin + k];
        std::string_view name = imp.kind == ImportKind::from && imp.names_begin + k < imp.names_end ? imports.names[imp.names_begin + k] : imp.module;
        if ((alias.empty() ? name.substr(0, name.find('.')) : alias) != root) continue;
        if (cache_like(name) || imp.level > 0 || project_import(imp.line)) return true;
      }
    }
    // Another library's decorator (property, contextmanager, functools.wraps, pytest's, ...) or a
    // builtin: trusted unless its name says cache.
    return false;
  };
  for (const auto& change : sem.symbols) {
    for (const auto& symbol : view.symbols) {
      if (symbol.qualname != change.qualname) continue;
      for (auto d = view.begin(symbol.decorators); d != view.end(symbol.decorators); ++d) {
        if (keeps(*d)) return std::pair{change.qualname, std::string(*d)};
      }
    }
    // Read by module-level code that also names a cache (`load = functools.lru_cache(maxsize=None)(_load)`),
    // or held by a module-level value made by such a call or one of the project's (`load = once(_load)`).
    std::string_view name = change.qualname;
    if (name.find('.') != std::string_view::npos) continue;
    const std::string_view* code_end = view.end(view.module_refs) - view.module_stored - view.module_program;
    bool read = false, caches = false;
    for (const std::string_view* r = view.begin(view.module_refs); r < code_end; ++r) {
      read = read || *r == name;
      caches = caches || cache_like(*r);
    }
    if (read && caches) return std::pair{change.qualname, "wrapped by module-level code that names a cache"};
    for (const auto& v : view.stored_values) {
      for (uint32_t k = 0; k < v.refs.end - v.refs.begin; ++k) {
        std::string_view ref = view.strings[v.refs.begin + k];
        std::string_view wrapper = k < v.wrappers.end - v.wrappers.begin ? view.strings[v.wrappers.begin + k] : std::string_view();
        if (ref == name && !wrapper.empty() && keeps(wrapper)) return std::pair{change.qualname, std::string(v.name) + " = " + std::string(wrapper) + "(...)"};
      }
    }
  }
  return std::nullopt;
}

} // namespace impact
