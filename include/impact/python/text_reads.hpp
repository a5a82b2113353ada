#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// Reads of Python text that need no facts: where each statement starts (for coverage.py's line
// numbers) and what the examples of a text doctest file import.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact {

// For each line of `source` (index = line number, 1-based; [0] unused), the first line of the innermost
// statement that holds it: coverage.py records a multi-line statement on its first line only. 0 for a
// line outside any statement (blank lines and comments between statements).
std::vector<uint32_t> statement_starts(std::string_view source);

// Whether running `source` as a module runs a line coverage.py records: it parses, and its top level
// holds a statement other than a docstring, `...`, `pass` or a `from __future__` import. A module
// without one (an empty __init__.py) records no line even when imported.
bool runs_code_at_import(std::string_view source);


namespace python {
// Which of `names` the code of `source` (another file than the one that binds them at module level)
// may change or let out where other code could: a use of `NAME` or `module.NAME` other than reading it
// (docs/coverage.md, "Results kept in module-level data"). A name imported under another name is
// changed; a file that does not parse changes every one. One parse for all of them.
std::vector<std::string_view> names_it_may_change(std::string_view source, const std::vector<std::string_view>& names);

// The modules the >>> examples in the strings of Python source `source` import (the same reading as
// doctest_imports(), with whatever precedes `>>>` on its line dropped: `""">>> import a` opens a
// docstring with an example), dotted, sorted and unique.
std::vector<std::string> example_imports(std::string_view source);

// The modules the >>> examples of a text doctest file import (`import a.b`, `from a import b` gives
// "a" and "a.b"), with their 1-based lines.
std::vector<std::pair<std::string, uint32_t>> doctest_imports(std::string_view text);

// The modules the import statements of a text file that some code may run as Python (`exec` of a
// rules file, of a README's code blocks) import, as doctest_imports() reads them, from every line
// (a `>>>` or `...` prompt on it dropped): the lines around them need not be Python.
std::vector<std::pair<std::string, uint32_t>> code_text_imports(std::string_view text);

// Every word (identifier) the >>> examples of a text doctest file spell, in code or in strings,
// sorted and unique; `dynamic` when they may reach code by a name they do not spell (getattr, eval,
// exec, dir, vars, an import by computed name, ...): docs/selection.md `collection`.
struct DoctestNames {
  std::vector<std::string> names;
  bool dynamic = false;
};
DoctestNames doctest_names(std::string_view text);
}

} // namespace impact
