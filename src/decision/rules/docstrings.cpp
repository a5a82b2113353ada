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

#include <algorithm>
#include <array>

namespace impact::decision::rules {

using resolve::FileInfo;
using resolve::Target;

bool project_reads_source(const ProjectFacts& facts) {
  static constexpr std::array<std::string_view, 4> k_readers = {"getsource", "getsourcelines", "findsource", "getcomments"};
  return std::any_of(k_readers.begin(), k_readers.end(), [&](std::string_view n) { return !facts.files_mentioning(n).empty(); });
}

namespace {

// Names whose use anywhere in the project may read a docstring: readers of `__doc__`, of the source
// (ast.get_docstring over a parsed module), of a whole namespace (which holds `__doc__`), and libraries
// that make help text from docstrings.
bool project_reads_docstrings(SymbolWalk& walk) {
  static constexpr std::array<std::string_view, 25> k_readers = {
      "__doc__", "getdoc",   "cleandoc",   "get_docstring", "pydoc",    "help",   "doctest", "testmod", "testfile",
      "DocTestSuite", "DocTestFinder", "__dict__", "vars", "getmembers", "typer", "Typer", "fire",
      "Fire", "docopt", "argh", "plac", "pydantic", "fastapi", "docstring_parser", "griffe"};
  if (project_reads_source(walk.facts())) return true;
  if (walk.layout().config().doctest_modules) return true;
  return std::any_of(k_readers.begin(), k_readers.end(), [&](std::string_view n) { return !walk.facts().files_mentioning(n).empty(); });
}

// Decorators that hand the function to nothing but a builtin descriptor.
bool plain_decorators(resolve::FileIndex& index, uint32_t node, const FileInfo& info, const SymbolView& s) {
  static constexpr std::array<std::string_view, 6> k_builtins = {"staticmethod", "classmethod", "property",
                                                                 "setter",       "getter",      "deleter"};
  for (auto d = info.facts.begin(s.decorators); d != info.facts.end(s.decorators); ++d) {
    std::string_view name = last_part(*d);
    bool builtin = std::find(k_builtins.begin(), k_builtins.end(), name) != k_builtins.end();
    if (!builtin || (d->find('.') == std::string_view::npos && defined_in_project(index, node, *d))) return false;
  }
  return true;
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
