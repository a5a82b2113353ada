// statement_starts(): which statement each line belongs to, for reading coverage line data.
#include "impact/python/text_reads.hpp"
#include "python/grammar.hpp"

#include <memory>

namespace impact {

namespace {

bool is_statement(std::string_view type) {
  return type.ends_with("_statement") || type.ends_with("_definition") || type == "decorated_definition" ||
         type == "elif_clause" || type == "else_clause" || type == "except_clause" || type == "finally_clause" ||
         type == "case_clause" || type == "decorator";
}

} // namespace

std::vector<uint32_t> statement_starts(std::string_view source) {
  uint32_t lines = 1;
  for (char c : source) lines += c == '\n' ? 1 : 0;
  std::vector<uint32_t> out(lines + 1, 0);
  python::Parser parser;
  std::unique_ptr<TSTree, python::TreeDeleter> tree(parser.parse(source));
  if (!tree) return out;
  // Pre-order: an inner statement overwrites the lines of the one around it.
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree.get()));
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_named(node) && is_statement(ts_node_type(node))) {
      uint32_t first = python::line_of(ts_node_start_point(node));
      uint32_t last = python::line_of(ts_node_end_point(node));
      // A compound statement owns its header; its block's statements take their own lines below.
      for (uint32_t l = first; l <= last && l < out.size(); ++l) out[l] = first;
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return out;
      }
    }
  }
}

bool runs_code_at_import(std::string_view source) {
  python::Parser parser;
  std::unique_ptr<TSTree, python::TreeDeleter> tree(parser.parse(source));
  if (!tree) return false;
  TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root)) return false;
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    TSNode child = ts_node_named_child(root, i);
    std::string_view type = ts_node_type(child);
    if (type == "comment" || type == "pass_statement" || type == "future_import_statement") continue;
    if (type == "expression_statement" && ts_node_named_child_count(child) == 1) {
      std::string_view inner = ts_node_type(ts_node_named_child(child, 0));
      if (inner == "string" || inner == "concatenated_string" || inner == "ellipsis") continue;
    }
    if (is_statement(type)) return true;
  }
  return false;
}

} // namespace impact
