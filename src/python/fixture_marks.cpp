#include "python/fixture_marks.hpp"

#include "python/literals.hpp"

namespace impact::python {

bool is_fixture_decorator(std::string_view callee) {
  return callee == "fixture" || callee.ends_with(".fixture") || callee == "yield_fixture" || callee.ends_with(".yield_fixture");
}

void read_fixture(Symbol& sym, TSNode call, std::string_view src, const Grammar& g) {
  sym.fixture = std::string(sym.name());
  if (ts_node_is_null(call)) return;
  TSNode args = ts_node_child_by_field_id(call, g.f_arguments);
  uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode arg = ts_node_named_child(args, i);
    if (ts_node_symbol(arg) != g.keyword_argument) continue;
    TSNode key = ts_node_child_by_field_id(arg, g.f_name);
    TSNode value = ts_node_child_by_field_id(arg, g.f_value);
    if (ts_node_is_null(key) || ts_node_is_null(value)) continue;
    std::string_view k = node_text(key, src);
    if (k == "name") {
      // A literal, or a name the module binds to one (`name=CLIENT_FIXTURE`); anything else may be
      // any name (k_unknown_fixture).
      auto literal = string_value(value, src, g);
      if (!literal && ts_node_symbol(value) == g.identifier) literal = module_string(src, node_text(value, src));
      sym.fixture = literal ? *literal : std::string(k_unknown_fixture);
    } else if (k == "autouse") {
      sym.autouse = node_text(value, src) != "False"; // anything but a literal False may be true
    }
  }
}

void read_usefixtures(TSNode call, std::string_view src, const Grammar& g, std::vector<std::string>& names, bool& dynamic) {
  TSNode args = ts_node_child_by_field_id(call, g.f_arguments);
  uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode arg = ts_node_named_child(args, i);
    if (ts_node_symbol(arg) == g.comment) continue;
    if (auto literal = string_value(arg, src, g)) names.push_back(*literal);
    else dynamic = true;
  }
}

void read_pytestmark(TSNode value, std::string_view src, const Grammar& g, std::vector<std::string>& names, bool& dynamic) {
  TSSymbol s = ts_node_symbol(value);
  if (s == g.call) {
    TSNode fn = ts_node_child_by_field_id(value, g.f_function);
    if (!ts_node_is_null(fn) && dotted_text(fn, src).ends_with("usefixtures")) read_usefixtures(value, src, g, names, dynamic);
    return;
  }
  if (s == g.list || s == g.tuple || s == g.parenthesized_expression) {
    uint32_t count = ts_node_named_child_count(value);
    for (uint32_t i = 0; i < count; ++i) read_pytestmark(ts_node_named_child(value, i), src, g, names, dynamic);
    return;
  }
  if (node_text(value, src).find("usefixtures") != std::string_view::npos) dynamic = true;
  // A name bound elsewhere may hold usefixtures marks too.
  if (s == g.identifier || s == g.attribute || s == g.binary_operator) dynamic = true;
}

} // namespace impact::python
