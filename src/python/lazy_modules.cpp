#include "python/lazy_modules.hpp"

#include "python/literals.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace impact::python {

void drop_lazy_module_names(TSNode root, std::string_view source, FileFacts& facts) {
  if (source.find("__lazy_modules__") == std::string_view::npos) return; // almost every file
  const Grammar& g = Grammar::get();
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode statement = ts_node_named_child(root, i);
    if (ts_node_symbol(statement) != g.expression_statement || ts_node_named_child_count(statement) != 1) continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (ts_node_symbol(assignment) != g.assignment) continue;
    TSNode left = ts_node_child_by_field_id(assignment, g.f_left);
    TSNode right = ts_node_child_by_field_id(assignment, g.f_right);
    if (ts_node_is_null(left) || ts_node_is_null(right) || node_text(left, source) != "__lazy_modules__") continue;
    TSSymbol kind = ts_node_symbol(right);
    if (kind != g.set && kind != g.list && kind != g.tuple) continue;
    std::vector<std::string> names; // only strings (and comments): anything else keeps every string a reference
    uint32_t elements = ts_node_named_child_count(right);
    bool literal = true;
    for (uint32_t k = 0; k < elements && literal; ++k) {
      TSNode element = ts_node_named_child(right, k);
      if (ts_node_symbol(element) == g.comment) continue;
      auto value = string_value(element, source, g);
      literal = value.has_value();
      if (literal) names.push_back(std::move(*value));
    }
    if (!literal) continue;
    uint32_t first = line_of(ts_node_start_point(right)), last = ts_node_end_point(right).row + 1;
    std::erase_if(facts.imports, [&](const ImportFact& f) {
      return f.kind == ImportKind::string_ref && f.line >= first && f.line <= last && f.names.empty() &&
             std::find(names.begin(), names.end(), f.module) != names.end();
    });
  }
}

} // namespace impact::python
