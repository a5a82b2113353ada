// Names of code that reads functions rather than running them (readers.hpp).
#include "impact/python/readers.hpp"

#include <algorithm>
#include <array>

namespace impact::python {

namespace {

template <size_t N> bool names_any(const ProjectFacts& facts, const std::array<std::string_view, N>& names) {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return !facts.files_mentioning(n).empty(); });
}

} // namespace

bool project_names_docstring_reader(const ProjectFacts& facts) {
  static constexpr std::array<std::string_view, 25> k_readers = {
      "__doc__", "getdoc",   "cleandoc",   "get_docstring", "pydoc",    "help",   "doctest", "testmod", "testfile",
      "DocTestSuite", "DocTestFinder", "__dict__", "vars", "getmembers", "typer", "Typer", "fire",
      "Fire", "docopt", "argh", "plac", "pydantic", "fastapi", "docstring_parser", "griffe"};
  return project_names_source_reader(facts) || names_any(facts, k_readers);
}

constexpr std::array<std::string_view, 4> k_source_readers = {"getsource", "getsourcelines", "findsource", "getcomments"};
// Readers of what a body holds: its code object, its bytecode, its free and global names.
constexpr std::array<std::string_view, 4> k_code_readers = {"__code__", "dis", "getclosurevars", "__closure__"};
// Readers of a function's kind only (generator, coroutine, async generator): what `async def` and a
// `yield` in the body decide.
constexpr std::array<std::string_view, 4> k_kind_readers = {"isgeneratorfunction", "iscoroutinefunction",
                                                            "isasyncgenfunction", "getgeneratorstate"};

bool project_names_source_reader(const ProjectFacts& facts) { return names_any(facts, k_source_readers); }

bool project_names_code_reader(const ProjectFacts& facts) { return names_any(facts, k_code_readers); }

bool project_names_kind_reader(const ProjectFacts& facts) { return names_any(facts, k_kind_readers); }

bool reads_functions(std::string_view name) {
  auto in = [&](const auto& list) { return std::find(list.begin(), list.end(), name) != list.end(); };
  return in(k_source_readers) || in(k_code_readers) || in(k_kind_readers);
}

} // namespace impact::python
