// memoized(): coverage/memoized.hpp.
#include "coverage/memoized.hpp"

#include "util/ascii.hpp"

#include "impact/python/names.hpp"

#include <algorithm>

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
  auto project_import = [&](uint32_t line) {
    auto node = graph.find(file);
    if (!node) return true;
    return std::any_of(graph.out[*node].begin(), graph.out[*node].end(), [&](const Edge& e) { return e.line == line; });
  };
  // What the decorator `d` (its text) may be: a cache, or code of the project.
  auto keeps = [&](std::string_view d) -> bool {
    if (cache_like(d)) return true;
    std::string_view root = d.substr(0, d.find_first_of(".( "));
    std::string_view last = d.substr(0, d.find('('));
    last = python::last_part(last);
    for (std::string_view plain : {"property", "staticmethod", "classmethod", "abstractmethod", "setter", "getter",
                                   "deleter", "contextmanager", "asynccontextmanager", "wraps", "overload", "override",
                                   "final", "fixture", "register", "singledispatch", "singledispatchmethod"}) {
      if (last == plain && !std::any_of(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) { return s.name() == root; })) return false;
    }
    if (root.starts_with("pytest") || root == "typing" || root == "abc" || root == "functools") return false;
    for (const auto& s : view.symbols) {
      if (s.parent == -1 && s.name() == root) return true; // defined here
    }
    for (std::string_view n : view.module_names) {
      if (n == root) return true; // bound by assignment
    }
    for (const auto& imp : imports.imports) {
      for (size_t k = 0; k < imp.aliases_end - imp.aliases_begin; ++k) {
        std::string_view alias = imports.aliases[imp.aliases_begin + k];
        std::string_view name = imp.kind == ImportKind::from && imp.names_begin + k < imp.names_end ? imports.names[imp.names_begin + k] : imp.module;
        if ((alias.empty() ? name.substr(0, name.find('.')) : alias) != root) continue;
        if (cache_like(name)) return true;
        return imp.level > 0 || project_import(imp.line);
      }
    }
    return false; // a builtin, or a name the analysis cannot place: other libraries' decorators
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
