#include "python/literals.hpp"

namespace impact::python {

namespace {

// The content of one `string` node when it has no interpolation; `prefix_only` stops at the first one.
std::optional<std::string> string_parts(TSNode node, std::string_view source, const Grammar& g, bool prefix_only) {
  std::string out;
  uint32_t count = ts_node_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_child(node, i);
    TSSymbol s = ts_node_symbol(child);
    if (s == g.string_start) {
      std::string_view start = node_text(child, source);
      for (char c : start) {
        if (c == 'b' || c == 'B') return std::nullopt; // bytes are never module names
      }
    } else if (s == g.string_content) {
      out.append(node_text(child, source));
    } else if (s == g.interpolation) {
      if (prefix_only) return out;
      return std::nullopt;
    }
  }
  return out;
}

} // namespace

std::optional<std::string> string_value(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string) return string_parts(node, source, g, false);
  if (s == g.concatenated_string) {
    std::string out;
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      auto part = string_value(ts_node_named_child(node, i), source, g);
      if (!part) return std::nullopt;
      out += *part;
    }
    return out;
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1) {
    return string_value(ts_node_named_child(node, 0), source, g);
  }
  return std::nullopt;
}

std::string string_prefix(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string) return string_parts(node, source, g, true).value_or("");
  if (s == g.concatenated_string) {
    std::string out;
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode part = ts_node_named_child(node, i);
      if (auto whole = string_value(part, source, g)) {
        out += *whole;
        continue;
      }
      return out + string_prefix(part, source, g);
    }
    return out;
  }
  if (s == g.binary_operator) {
    TSNode op = ts_node_child_by_field_id(node, g.f_operator);
    if (!ts_node_is_null(op) && node_text(op, source) == "+") {
      TSNode left = ts_node_child_by_field_id(node, g.f_left);
      if (auto whole = string_value(left, source, g)) {
        TSNode right = ts_node_child_by_field_id(node, g.f_right);
        return *whole + string_prefix(right, source, g);
      }
      return string_prefix(left, source, g);
    }
    return {};
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1) {
    return string_prefix(ts_node_named_child(node, 0), source, g);
  }
  return {};
}

std::optional<std::vector<std::string>> string_list(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (auto single = string_value(node, source, g)) return std::vector<std::string>{*single};
  if (s != g.list && s != g.tuple && s != g.parenthesized_expression && s != g.expression_list) return std::nullopt;
  std::vector<std::string> out;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (ts_node_symbol(child) == g.comment) continue;
    auto value = string_value(child, source, g);
    if (!value) return std::nullopt;
    out.push_back(std::move(*value));
  }
  return out;
}

} // namespace impact::python
