#pragma once
// Which changed non-Python files can be bounded by the code that reads them (data, templates, fixtures),
// and which cannot, whatever reads them: docs/selection.md, rule `data-files`.
#include "impact/vocabulary.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// Why a file that is not Python, configuration, a pin file or a quiet file cannot be bounded by the
// code that reads it, or nullopt when it can: a source or binary that a build turns into importable
// code (`.c`, `.pyx`, `.so`), a stub or path file the interpreter reads on its own (`.pyi`, `.pth`),
// a file other programs find by convention (a Makefile, package.json, `.env` that pytest plugins
// load), a notebook or a file named like a test that a plugin may collect.
std::optional<std::string> unbounded_data(const RepoPath& path);

// True when `literal` could name `path` for a data file: what could_name() accepts, and also a literal
// that begins or ends the file's name (`"report_" + n`, `stem + ".golden"`): the name may be built
// from pieces, and a data file is narrowed only when every piece that could build it is found.
bool could_name_data(std::string_view literal, const RepoPath& path);

// True for a file under a folder that Django finds by convention in every installed app (`templates`,
// `static`, `fixtures`, `locale`, `jinja2`): code names it through a computed template or fixture
// name, not a string.
bool django_convention_folder(const RepoPath& path);

// The modules whose data folder may hold `path` by the pytest-datadir convention: for every folder
// above the file, the module beside it with the folder's name (`tests/test_a/x.json` may belong to
// `tests/test_a.py`). The caller keeps those that exist.
std::vector<std::string> datadir_owners(const RepoPath& path);

} // namespace impact
