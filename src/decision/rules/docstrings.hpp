#pragma once
// docs/selection.md `docstrings`: a docstring-only change of a function, method or class changes
// nothing a test can observe when nothing in the project reads docstrings and no code from outside
// the project (a decorator, a base class, a metaclass) is handed the symbol to read it.
#include <cstdint>
#include <string_view>
#include <vector>

namespace impact {
class ProjectFacts;
} // namespace impact

namespace impact::decision {
class SymbolWalk;
struct SymbolSeed;
} // namespace impact::decision

namespace impact::decision::rules {

// Whether the docstring of symbol `qualname` of file `node` is read by nothing the tests run (outside
// `--mode safe`, where every docstring change counts: the caller checks the mode).
bool docstring_unread(SymbolWalk& walk, uint32_t node, std::string_view qualname);
// docs/selection.md `semantic-diff`: whether some file of the project names a reader of source text
// (`inspect.getsource`, `getsourcelines`, `findsource`, `getcomments`): then a comment or layout
// change is a change of its symbols, as in `--mode safe`, since the text such a reader returns changed.
bool project_reads_source(const ProjectFacts& facts);
// Drops the docstring-only changes among `seeds` whose docstrings nothing reads (not in safe mode).
void drop_unread_docstrings(SymbolWalk& walk, std::vector<SymbolSeed>& seeds);
// The files of the docstring-only changes among `seeds` that a decorator of the symbol, or of a class
// around it, may read as the module is imported (`@command` copying `f.__doc__` into a registry,
// click's `@cli.command()` making a group's help text): what it made of the docstring is kept
// elsewhere, so the change is one of the module's code (in every mode).
std::vector<uint32_t> docstrings_read_at_import(SymbolWalk& walk, const std::vector<SymbolSeed>& seeds);

} // namespace impact::decision::rules
