// docs/selection.md `docstrings`. A docstring is read through `__doc__` (or what reads it for you:
// inspect.getdoc, pydoc, help(), doctest, a namespace read such as vars(cls)), or by the source text
// (inspect.getsource). None of these names anywhere in the project, no doctest collection, and a
// symbol whose decorators and bases (and those of the symbols around it) are the project's own or
// plain builtins: then nothing that runs in a test can see the docstring, and its change selects no
// test. Frameworks that turn docstrings into help text or schemas (click, typer, pydantic, web
// frameworks) get the function through a decorator or the class through a base, or are named.
#include "decision/rules/docstrings.hpp"

#include "decision/rules/registration.hpp"
#include "decision/rules/rule_family.hpp"
#include "decision/symbol_walk.hpp"
#include "impact/python/readers.hpp"

#include <algorithm>
#include <cctype>
#include <array>
#include <optional>

namespace impact::decision::rules {

using resolve::FileInfo;
using resolve::Target;

bool project_reads_source(const ProjectFacts& facts) { return python::project_names_source_reader(facts); }

namespace {

// Whether anything in the project may read a docstring: a name that reads one (python/readers.hpp), or
// doctest collection.
bool project_reads_docstrings(SymbolWalk& walk) {
  return walk.layout().config().doctest_modules || python::project_names_docstring_reader(walk.facts());
}

// A decorator that hands the function to nothing but a builtin descriptor.
bool plain_decorator(resolve::FileIndex& index, uint32_t node, std::string_view d) {
  static constexpr std::array<std::string_view, 6> k_builtins = {"staticmethod", "classmethod", "property",
                                                                 "setter",       "getter",      "deleter"};
  bool builtin = std::find(k_builtins.begin(), k_builtins.end(), last_part(d)) != k_builtins.end();
  return builtin && !(d.find('.') == std::string_view::npos && defined_in_project(index, node, d));
}

bool plain_decorators(resolve::FileIndex& index, uint32_t node, const FileInfo& info, const SymbolView& s) {
  return std::all_of(info.facts.begin(s.decorators), info.facts.end(s.decorators),
                     [&](std::string_view d) { return plain_decorator(index, node, d); });
}

// Whether every base of class `index`, at any depth, is a class of the project (or `object`), with no
// keyword (`metaclass=`) in any class header on the way.
bool project_bases(resolve::FileIndex& index, uint32_t node, int32_t class_index, int depth) {
  const FileInfo* info = index.get(node);
  if (info == nullptr || depth > 8) return false;
  const SymbolView& c = info->at(class_index);
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view base = base_expression(*b);
    if (base.empty()) return false; // metaclass=..., or another keyword
    if (base == "object") continue;
    Target t = index.resolve(node, base);
    if (t.kind != Target::definition) return false;
    const FileInfo* owner = index.get(t.node);
    int32_t at = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (at < 0 || owner->at(at).kind != SymbolKind::class_ || !project_bases(index, t.node, at, depth + 1)) return false;
  }
  return true;
}

// Whether decorator `d` may copy the docstring somewhere as the module is imported: a function of the
// project only where the project names a docstring reader (`project_reads`); anything else (a
// framework's, an attribute of a project object such as click's `@cli.command()`) in any case, but
// for the standard library's and pytest's wrappers and markers, which keep at most the function.
bool decorator_may_copy_docstring(resolve::FileIndex& index, uint32_t node, std::string_view d, bool project_reads) {
  static constexpr std::array<std::string_view, 9> k_modules = {"pytest", "functools", "abc", "typing", "typing_extensions",
                                                                "contextlib", "dataclasses", "enum", "unittest"};
  static constexpr std::array<std::string_view, 17> k_keepers = {
      "wraps",    "lru_cache", "cache",    "cached_property", "contextmanager", "asynccontextmanager",
      "abstractmethod", "overload", "override", "final", "total_ordering", "singledispatch",
      "singledispatchmethod", "dataclass", "fixture", "unique", "runtime_checkable"};
  if (plain_decorator(index, node, d)) return false;
  Target t = index.resolve(node, d);
  if (t.kind == Target::definition) {
    const FileInfo* owner = index.get(t.node);
    int32_t at = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (at >= 0 && owner->at(at).kind != SymbolKind::class_) return project_reads;
  }
  if (defined_in_project(index, node, d)) return true; // a project object's attribute, a class, anything else
  std::string_view root = d.substr(0, d.find('.'));
  bool known = std::find(k_modules.begin(), k_modules.end(), root) != k_modules.end() ||
               std::find(k_keepers.begin(), k_keepers.end(), last_part(d)) != k_keepers.end();
  return !known;
}

// Whether class `class_index` or a project class it derives from (at any depth) names a metaclass in
// its header: the metaclass sees the class's namespace, `__doc__` included, as the class is made.
bool project_metaclass(resolve::FileIndex& index, uint32_t node, int32_t class_index, int depth) {
  const FileInfo* info = index.get(node);
  if (info == nullptr || depth > 8) return false;
  const SymbolView& c = info->at(class_index);
  if (c.has_metaclass) return true;
  for (auto b = info->facts.begin(c.bases); b != info->facts.end(c.bases); ++b) {
    std::string_view base = base_expression(*b);
    if (base.empty() || base == "object") continue;
    Target t = index.resolve(node, base);
    if (t.kind != Target::definition) continue;
    const FileInfo* owner = index.get(t.node);
    int32_t at = owner == nullptr ? -1 : owner->symbol(t.qualname);
    if (at >= 0 && owner->at(at).kind == SymbolKind::class_ && project_metaclass(index, t.node, at, depth + 1)) return true;
  }
  return false;
}

} // namespace

bool docstring_unread(SymbolWalk& walk, uint32_t node, std::string_view qualname) {
  resolve::FileIndex& index = walk.index();
  const FileInfo* info = index.get(node);
  int32_t at = info == nullptr ? -1 : info->symbol(qualname);
  if (at < 0 || project_reads_docstrings(walk)) return false;
  // The symbol and every symbol around it.
  for (int32_t s = at; s != -1; s = info->at(s).parent) {
    const SymbolView& sym = info->at(s);
    if (!plain_decorators(index, node, *info, sym)) return false;
    if (sym.kind == SymbolKind::class_ && !project_bases(index, node, s, 0)) return false;
  }
  return true;
}

void drop_unread_docstrings(SymbolWalk& walk, std::vector<SymbolSeed>& seeds) {
  if (walk.mode() == Mode::safe) return;
  std::erase_if(seeds, [&](const SymbolSeed& s) {
    return s.change == Relation::docstring_only && docstring_unread(walk, s.node, s.qualname);
  });
}

} // namespace impact::decision::rules

namespace impact::decision::rules {

std::vector<uint32_t> docstrings_read_at_import(SymbolWalk& walk, const std::vector<SymbolSeed>& seeds) {
  std::vector<uint32_t> out;
  resolve::FileIndex& index = walk.index();
  std::optional<bool> reads; // project_reads_docstrings(), once
  auto project_reads = [&] {
    if (!reads) reads = project_reads_docstrings(walk);
    return *reads;
  };
  for (const auto& seed : seeds) {
    if (seed.change != Relation::docstring_only || std::find(out.begin(), out.end(), seed.node) != out.end()) continue;
    const FileInfo* info = index.get(seed.node);
    int32_t at = info == nullptr ? -1 : info->symbol(seed.qualname);
    if (at < 0) continue;
    for (int32_t s = at; s != -1; s = info->at(s).parent) {
      const SymbolView& sym = info->at(s);
      bool decorator_reads = std::any_of(info->facts.begin(sym.decorators), info->facts.end(sym.decorators), [&](std::string_view d) {
        return decorator_may_copy_docstring(index, seed.node, d, project_reads());
      });
      // Decorated by a call (`build = command(build)`: the file hands the definition to it), or a class
      // whose metaclass may read its namespace's `__doc__` as the class is made.
      bool handed_reads = sym.parent < 0 && std::any_of(info->facts.handed.begin(), info->facts.handed.end(), [&](std::string_view h) {
        size_t tab = h.find('\t');
        bool call = tab != std::string_view::npos && tab + 1 < h.size() && (std::isalpha(static_cast<unsigned char>(h[tab + 1])) || h[tab + 1] == '_');
        return call && h.substr(0, tab) == sym.qualname &&
               decorator_may_copy_docstring(index, seed.node, h.substr(tab + 1), project_reads());
      });
      bool metaclass_reads = sym.kind == SymbolKind::class_ && project_metaclass(index, seed.node, s, 0);
      if (decorator_reads || handed_reads || metaclass_reads) {
        out.push_back(seed.node);
        break;
      }
    }
  }
  return out;
}

} // namespace impact::decision::rules
