// memoized(): coverage/memoized.hpp.
#include "coverage/memoized.hpp"

#include "util/ascii.hpp"

#include "impact/python/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace impact {

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
  std::optional<uint32_t> node = graph.find(file);
  auto project_import = [&](uint32_t line) {
    if (!node) return true;
    return std::any_of(graph.out[*node].begin(), graph.out[*node].end(), [&](const Edge& e) { return e.line == line; });
  };
  // What each import binds: the name in this file, what it imports, and whether it may be the
  // project's (a relative import, or one the graph links to a project file).
  struct Bound {
    std::string_view name, imported;
    bool project;
  };
  std::vector<Bound> bound;
  for (const auto& imp : imports.imports) {
    for (size_t k = 0; k < imp.aliases_end - imp.aliases_begin; ++k) {
      std::string_view alias = imports.aliases[imp.aliases_begin + k];
      std::string_view name = imp.kind == ImportKind::from && imp.names_begin + k < imp.names_end ? imports.names[imp.names_begin + k] : imp.module;
      bound.push_back(Bound{alias.empty() ? name.substr(0, name.find('.')) : alias, name, imp.level > 0 || project_import(imp.line)});
    }
  }
  // What the decorator `d` (its text) may be: a cache, or code of the project.
  auto keeps = [&](std::string_view d) -> bool {
    if (cache_like(d)) return true;
    std::string_view root = d.substr(0, d.find_first_of(".( "));
    // Whose the root is: the project's (defined here, bound by assignment, imported from a project
    // module) may be anything, whatever its name says (`register = functools.lru_cache(...)`).
    if (std::any_of(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) { return s.parent == -1 && s.name() == root; })) {
      return true; // defined here
    }
    if (std::find(view.module_names.begin(), view.module_names.end(), root) != view.module_names.end()) return true; // bound by assignment
    // Imported: a cache, or the project's. Another library's decorator (property, contextmanager,
    // functools.wraps, pytest's, ...) or a builtin is trusted unless its name says cache.
    return std::any_of(bound.begin(), bound.end(), [&](const Bound& b) { return b.name == root && (cache_like(b.imported) || b.project); });
  };
  auto has_part = [](std::string_view r, std::string_view name) {
    for (size_t start = 0; start <= r.size();) {
      size_t dot = r.find('.', start);
      if (r.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start) == name) return true;
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    return false;
  };
  // A cache factory named by a reference: functools' and the usual libraries' (a part spelled so), or
  // an import's other name for one (`from functools import lru_cache as _keep`). (A dict named
  // `_cache` is data: keeping_callers reads its stores.)
  auto names_cache = [&](std::string_view r) {
    std::string_view root = r.substr(0, r.find('.'));
    if (std::any_of(bound.begin(), bound.end(), [&](const Bound& b) { return b.name == root && cache_like(b.imported); })) return true;
    for (std::string_view f : {"lru_cache", "cache", "cached", "cachedmethod", "memoize", "memoized", "memoise", "cached_property"}) {
      if (has_part(r, f)) return true;
    }
    return false;
  };
  // The code of the file that names a cache factory (module level, class bodies, functions): found
  // once, then asked whether it reads the changed name. `dynamic`: it reads names by computed strings.
  struct CacheCode {
    ViewRange refs;
    bool dynamic;
    std::string where;
  };
  std::vector<CacheCode> cache_code;
  auto names_a_cache = [&](ViewRange refs) { return std::any_of(view.begin(refs), view.end(refs), names_cache); };
  if (names_a_cache(view.module_refs)) {
    cache_code.push_back(CacheCode{view.module_refs, view.module_dynamic_access, "module-level code that names a cache reads it"});
  }
  for (const auto& s : view.symbols) {
    if (names_a_cache(s.refs)) cache_code.push_back(CacheCode{s.refs, s.dynamic_access, fmt::format("{} names a cache and reads it", s.qualname)});
  }
  for (const auto& change : sem.symbols) {
    for (const auto& symbol : view.symbols) {
      if (symbol.qualname != change.qualname) continue;
      for (auto d = view.begin(symbol.decorators); d != view.end(symbol.decorators); ++d) {
        if (keeps(*d)) return std::pair{change.qualname, std::string(*d)};
      }
      // A decorator of a class around it may wrap its methods (`setattr(cls, name, lru_cache(...)(m))`).
      for (int32_t p = symbol.parent; p >= 0; p = view.symbols[static_cast<size_t>(p)].parent) {
        const SymbolView& owner = view.symbols[static_cast<size_t>(p)];
        if (owner.kind != SymbolKind::class_) continue;
        for (auto d = view.begin(owner.decorators); d != view.end(owner.decorators); ++d) {
          if (keeps(*d)) return std::pair{change.qualname, fmt::format("{} decorates {}", *d, owner.qualname)};
        }
      }
    }
    // Code of the file that reads its name and names a cache: it may put a cached copy in its place
    // (`rate = lru_cache(...)(rate)` in a class body, `global rate` in a function, `_keep(...)(rate)`
    // under an import's other name), or anything when it reads names by computed strings (`globals()[name]`).
    std::string_view last = python::last_part(change.qualname);
    for (const CacheCode& c : cache_code) {
      if (c.dynamic || std::any_of(view.begin(c.refs), view.end(c.refs), [&](std::string_view r) { return has_part(r, last); })) {
        return std::pair{change.qualname, c.where};
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
