#include "python/name_tables.hpp"

#include <algorithm>

namespace impact::python {

namespace {

// The text of a plain string literal (no prefix that changes it, no escape, no interpolation).
bool plain_string(TSNode n, std::string_view src, std::string& out) {
  if (type_of(n) != "string") return false;
  std::string_view text = node_text(n, src);
  if (text.empty() || (text.front() != '"' && text.front() != '\'') || text.find('\\') != std::string_view::npos) return false;
  size_t quotes = text.starts_with("\"\"\"") || text.starts_with("'''") ? 3 : 1;
  if (text.size() < 2 * quotes + 1) return false;
  out.assign(text.substr(quotes, text.size() - 2 * quotes));
  return true;
}

// The value names of `dict` when every entry is `key: "plain string"`.
bool string_values(TSNode dict, std::string_view src, std::vector<std::string>& out) {
  uint32_t count = ts_node_named_child_count(dict);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode pair = ts_node_named_child(dict, i);
    if (type_of(pair) == "comment") continue;
    if (type_of(pair) != "pair") return false;
    std::string value;
    if (!plain_string(ts_node_child_by_field_name(pair, "value", 5), src, value)) return false;
    if (std::find(out.begin(), out.end(), value) == out.end()) out.push_back(std::move(value));
  }
  return !out.empty();
}

void identifiers_named(TSNode n, std::string_view name, std::string_view src, std::vector<TSNode>& out) {
  if (type_of(n) == "identifier" && node_text(n, src) == name) out.push_back(n);
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) identifiers_named(ts_node_child(n, i), name, src, out);
}

class Finder {
public:
  explicit Finder(std::string_view src) : m_src(src) {}

  void walk(TSNode n) {
    if (type_of(n) == "call") call(n);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) walk(ts_node_named_child(n, i));
  }

  std::vector<NameChoices> take() {
    std::sort(m_out.begin(), m_out.end());
    return std::move(m_out);
  }

private:
  // The name argument of getattr(obj, TABLE[key]), or a null node.
  TSNode table_argument(TSNode call) const {
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    if (ts_node_is_null(fn) || ts_node_is_null(args) || node_text(fn, m_src) != "getattr") return TSNode{};
    std::vector<TSNode> list;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      if (type_of(a) != "comment") list.push_back(a);
    }
    if (list.size() != 2 || type_of(list[1]) != "subscript") return TSNode{};
    TSNode value = ts_node_child_by_field_name(list[1], "value", 5);
    return !ts_node_is_null(value) && type_of(value) == "identifier" ? list[1] : TSNode{};
  }

  void call(TSNode n) {
    TSNode arg = table_argument(n);
    if (ts_node_is_null(arg)) return;
    TSNode function = ts_node_parent(n);
    while (!ts_node_is_null(function) && type_of(function) != "function_definition") function = ts_node_parent(function);
    if (ts_node_is_null(function)) return; // a module-level table may be changed from anywhere
    std::string_view table = node_text(ts_node_child_by_field_name(arg, "value", 5), m_src);
    std::vector<TSNode> uses;
    identifiers_named(function, table, m_src, uses);
    std::vector<std::string> names;
    int bound = 0;
    for (TSNode use : uses) {
      TSNode parent = ts_node_parent(use);
      if (type_of(parent) == "assignment" && same_node(ts_node_child_by_field_name(parent, "left", 4), use)) {
        TSNode right = ts_node_child_by_field_name(parent, "right", 5);
        if (ts_node_is_null(right) || type_of(right) != "dictionary" || !string_values(right, m_src, names)) return;
        ++bound;
        continue;
      }
      // Else only as the table of such a getattr call.
      if (type_of(parent) != "subscript" || !same_node(ts_node_child_by_field_name(parent, "value", 5), use)) return;
      TSNode args = ts_node_parent(parent);
      TSNode call = ts_node_is_null(args) ? args : ts_node_parent(args);
      if (ts_node_is_null(call) || type_of(call) != "call" || !same_node(table_argument(call), parent)) return;
    }
    if (bound != 1) return;
    m_out.push_back(NameChoices{ts_node_start_byte(arg), std::move(names)});
  }

  std::string_view m_src;
  std::vector<NameChoices> m_out;
};

} // namespace

std::vector<NameChoices> find_name_choices(TSNode root, std::string_view source) {
  if (source.find("getattr") == std::string_view::npos) return {};
  Finder finder(source);
  finder.walk(root);
  return finder.take();
}

} // namespace impact::python
