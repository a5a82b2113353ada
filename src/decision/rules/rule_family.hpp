#pragma once
// The names the symbol walk and its rules share: a symbol of the walk, as a pair and as one number,
// and the base of every rule family.
#include "impact/python/names.hpp"

#include <cstdint>
#include <string_view>

namespace impact {
class ImportGraph;
class ProjectFacts;
class ProjectLayout;
} // namespace impact

namespace impact::resolve {
class FileIndex;
} // namespace impact::resolve

namespace impact::decision {

class SymbolWalk;
class ProjectTables;

// A symbol of the walk: its file and its qualified name (interned: the view lives with the walk).
struct Key {
  uint32_t node;
  std::string_view qualname;
};
// The same as one number: the file in the high half, the interned qualified name in the low half.
using WalkKey = uint64_t;
inline constexpr WalkKey k_no_key = UINT64_MAX; // a seed's parent

using python::last_part; // "a.b.c" -> "c"

// "a.b.c" -> "a.b"; "c" -> "".
inline std::string_view parent_part(std::string_view qualname) {
  auto dot = qualname.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : qualname.substr(0, dot);
}

// A base of a class header as the name it resolves by: `Generic[T] ` -> `Generic`; "" for a keyword
// argument (`metaclass=Meta`), which names no base.
inline std::string_view base_expression(std::string_view base) {
  if (base.find('=') != std::string_view::npos) return {};
  base = base.substr(0, base.find('['));
  while (!base.empty() && base.back() == ' ') base.remove_suffix(1);
  return base;
}

// A special method's name: `__eq__`, `__init__`.
inline bool is_dunder(std::string_view name) {
  return name.size() > 4 && name.starts_with("__") && name.ends_with("__");
}

namespace rules {

// What every rule family reads, and the walk it reports to (reach, file_level, whole_file).
class RuleFamily {
protected:
  explicit RuleFamily(SymbolWalk& walk);

  SymbolWalk& m_walk;
  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  const ProjectLayout& m_layout;
  resolve::FileIndex& m_index;
  ProjectTables& m_tables;
};

} // namespace rules
} // namespace impact::decision
