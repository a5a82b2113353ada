// Functions code may read rather than run (read_not_run.hpp).
#include "coverage/read_not_run.hpp"

#include "impact/python/names.hpp"
#include "impact/python/readers.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace impact {

namespace {

// `name` itself, or an attribute named `name` (`ops.square`, `Rules.check`).
bool names(std::string_view value, std::string_view name) {
  return value == name || (value.size() > name.size() && value.ends_with(name) && value[value.size() - name.size() - 1] == '.');
}

// Whether some file hands `name` to other code as a value, or reads its `__code__`.
bool read_as_value(const ProjectFacts& facts, std::string_view name) {
  FactsView view;
  for (uint32_t f : facts.files_mentioning(name)) {
    facts.view(f, view);
    for (std::string_view h : view.handed) {
      if (names(h.substr(0, h.find('\t')), name)) return true;
    }
    auto code_of = [&](std::string_view chain) {
      size_t at = chain.find(".__code__");
      return at != std::string_view::npos && names(chain.substr(0, at), name);
    };
    if (std::any_of(view.begin(view.module_refs), view.end(view.module_refs), code_of)) return true;
    // A function that names it and a reader of functions (`inspect.getclosurevars(handle)`).
    auto reader = [](std::string_view r) { return python::reads_functions(python::last_part(r)); };
    auto named = [&](std::string_view r) { return names(r, name) || r.starts_with(std::string(name) + "."); };
    for (const auto& s : view.symbols) {
      if (std::any_of(view.begin(s.refs), view.end(s.refs), code_of)) return true;
      if (std::any_of(view.begin(s.refs), view.end(s.refs), reader) && std::any_of(view.begin(s.refs), view.end(s.refs), named)) return true;
    }
  }
  return false;
}

} // namespace

std::optional<std::string> read_not_run(const ProjectFacts& facts, std::string_view path, const FileSemantics& sem,
                                        const std::function<bool()>& kind_may_change) {
  std::optional<bool> docstrings;
  for (const auto& s : sem.symbols) {
    if (!s.docstring_changed) continue;
    if (!docstrings) docstrings = python::project_names_docstring_reader(facts);
    if (*docstrings) return fmt::format("{}: the docstring of {} changed too, and the project reads docstrings", path, s.qualname);
  }
  // A reader of a function's kind sees a body change only where it adds or removes a `yield`.
  bool content = python::project_names_source_reader(facts) || python::project_names_code_reader(facts);
  if (!content && !(python::project_names_kind_reader(facts) && kind_may_change())) return std::nullopt;
  for (const auto& s : sem.symbols) {
    if (s.kind == SymbolKind::class_ || !read_as_value(facts, python::last_part(s.qualname))) continue;
    return fmt::format("{}: {} is handed to other code as a value, and the project reads source text or code objects "
                       "(inspect.getsource, __code__, ...)",
                       path, s.qualname);
  }
  return std::nullopt;
}

} // namespace impact
