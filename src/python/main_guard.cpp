// Main guards: python/main_guard.hpp.
#include "python/main_guard.hpp"


namespace impact::python {

bool is_main_test(TSNode condition, std::string_view source) {
  if (ts_node_is_null(condition) || type_of(condition) != "comparison_operator" ||
      ts_node_named_child_count(condition) != 2 || ts_node_child_count(condition) != 3) {
    return false;
  }
  if (node_text(ts_node_child(condition, 1), source) != "==") return false;
  auto name = [&](TSNode n) { return type_of(n) == "identifier" && node_text(n, source) == "__name__"; };
  auto main = [&](TSNode n) {
    std::string_view t = node_text(n, source);
    return type_of(n) == "string" && (t == "\"__main__\"" || t == "'__main__'");
  };
  TSNode a = ts_node_named_child(condition, 0), b = ts_node_named_child(condition, 1);
  return (name(a) && main(b)) || (main(a) && name(b));
}

std::vector<std::pair<uint32_t, uint32_t>> main_guard_bodies(TSNode root, std::string_view source) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(root, i);
    if (type_of(child) != "if_statement") continue;
    if (!is_main_test(ts_node_child_by_field_name(child, "condition", 9), source)) continue;
    TSNode body = ts_node_child_by_field_name(child, "consequence", 11);
    if (!ts_node_is_null(body)) out.emplace_back(ts_node_start_byte(body), ts_node_end_byte(body));
  }
  return out;
}

} // namespace impact::python
