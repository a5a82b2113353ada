#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// Whether the project names code that reads a function's text or make-up rather than running it: its
// docstring, its source, its code object. Where it does, a change the tests never ran may still be
// seen (docs/selection.md `docstrings`, `semantic-diff`; docs/coverage.md, "Functions read, not run").
#include "impact/python/project_facts.hpp"

namespace impact::python {

// `__doc__`, inspect.getdoc, pydoc, help(), doctest, a namespace read (`vars`, `__dict__`,
// getmembers), libraries that make help text or schemas of docstrings (typer, fire, pydantic, ...).
bool project_names_docstring_reader(const ProjectFacts& facts);
// inspect.getsource and its siblings (getsourcelines, findsource, getcomments).
bool project_names_source_reader(const ProjectFacts& facts);
// A function's code object or what it holds: `__code__`, `__closure__`, getclosurevars, dis.
bool project_names_code_reader(const ProjectFacts& facts);
// A function's kind, which only `async def` and a `yield` in its body decide: isgeneratorfunction,
// iscoroutinefunction, isasyncgenfunction, getgeneratorstate.
bool project_names_kind_reader(const ProjectFacts& facts);
// Whether `name` (the last part of a reference) is one of the readers of source text or code objects.
bool reads_functions(std::string_view name);

} // namespace impact::python
