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

bool is_type_checking_test(TSNode condition, std::string_view source) {
  if (ts_node_is_null(condition)) return false;
  std::string_view type = type_of(condition);
  if (type == "identifier") return node_text(condition, source) == "TYPE_CHECKING";
  if (type != "attribute") return false;
  TSNode attribute = ts_node_child_by_field_name(condition, "attribute", 9);
  TSNode object = ts_node_child_by_field_name(condition, "object", 6);
  return !ts_node_is_null(attribute) && node_text(attribute, source) == "TYPE_CHECKING" && !ts_node_is_null(object) &&
         type_of(object) == "identifier";
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
