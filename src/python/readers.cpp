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
constexpr std::array<std::string_view, 8> k_code_readers = {"__code__",           "isgeneratorfunction", "iscoroutinefunction",
                                                            "isasyncgenfunction", "dis",                 "getgeneratorstate",
                                                            "getclosurevars",     "__closure__"};

bool project_names_source_reader(const ProjectFacts& facts) { return names_any(facts, k_source_readers); }

bool project_names_code_reader(const ProjectFacts& facts) { return names_any(facts, k_code_readers); }

bool reads_functions(std::string_view name) {
  return std::find(k_source_readers.begin(), k_source_readers.end(), name) != k_source_readers.end() ||
         std::find(k_code_readers.begin(), k_code_readers.end(), name) != k_code_readers.end();
}

} // namespace impact::python
