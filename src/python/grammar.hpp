#pragma once
// The tree-sitter adapter: the grammar's node and field ids, looked up once, and node helpers.
// src/python/ is the only code that includes tree-sitter.
#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace impact::python {

// Grammar holds the ids of the node types and fields impact reads, so that the walk compares integers.
struct Grammar {
  const TSLanguage* language = nullptr;
  TSSymbol module = 0, import_statement = 0, import_from_statement = 0, future_import_statement = 0,
           aliased_import = 0, dotted_name = 0, relative_import = 0, import_prefix = 0, wildcard_import = 0,
           function_definition = 0, class_definition = 0, decorated_definition = 0, decorator = 0,
           if_statement = 0, elif_clause = 0, else_clause = 0, try_statement = 0, except_clause = 0,
           except_group_clause = 0, finally_clause = 0, with_statement = 0, for_statement = 0,
           while_statement = 0, match_statement = 0, case_clause = 0, block = 0, expression_statement = 0,
           assignment = 0, augmented_assignment = 0, string = 0, string_content = 0, string_start = 0,
           interpolation = 0, concatenated_string = 0, call = 0, attribute = 0, identifier = 0,
           argument_list = 0, keyword_argument = 0, list = 0, tuple = 0, parenthesized_expression = 0,
           binary_operator = 0, pattern_list = 0, expression_list = 0, typed_parameter = 0,
           default_parameter = 0, typed_default_parameter = 0, list_splat_pattern = 0,
           dictionary_splat_pattern = 0, parameters = 0, error = 0, comment = 0, escape_sequence = 0,
           list_comprehension = 0, generator_expression = 0, set_comprehension = 0, set = 0;
  TSFieldId f_name = 0, f_alias = 0, f_module_name = 0, f_body = 0, f_consequence = 0, f_alternative = 0,
            f_condition = 0, f_definition = 0, f_superclasses = 0, f_parameters = 0, f_left = 0, f_right = 0,
            f_function = 0, f_arguments = 0, f_object = 0, f_attribute = 0, f_value = 0, f_operator = 0;

  static const Grammar& get();
};

inline std::string_view node_text(TSNode node, std::string_view source) {
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (end > source.size() || start > end) return {};
  return source.substr(start, end - start);
}

// The text of a dotted name with any whitespace or line continuation removed ("a . b" -> "a.b").
std::string dotted_text(TSNode node, std::string_view source);

// Whether `node` is `name` or `a.b.c` written as one slice of the source (no spaces, comments or
// continuations): how the reference pass reads a chain, so its byte range names it there.
bool one_slice_chain(TSNode node, std::string_view source);

// True for an ERROR node (libtree-sitter 0.20 has no ts_node_is_error).
// The function or class definition that starts at byte `start` of the tree (a null node if none).
TSNode definition_starting_at(TSNode root, uint32_t start);

// The node's grammar type ("call", "attribute", ...), for passes that test rarer kinds than Grammar holds.
inline std::string_view type_of(TSNode node) { return ts_node_type(node); }

// The innermost object of an attribute chain (`a` of `a.b.c`); the node itself when no attribute.
inline TSNode chain_root(TSNode n) {
  while (type_of(n) == "attribute") n = ts_node_child_by_field_name(n, "object", 6);
  return n;
}

// Whether `n` is `name` or `a.b.c`: a chain of plain names, no call or subscript.
inline bool plain_chain(TSNode n) {
  n = chain_root(n);
  return !ts_node_is_null(n) && type_of(n) == "identifier";
}

// Whether two nodes are the same node (false when either is null).
inline bool same_node(TSNode a, TSNode b) { return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b); }

inline bool is_error(TSNode node) { return ts_node_symbol(node) == static_cast<TSSymbol>(-1); }

inline uint32_t line_of(TSPoint point) { return point.row + 1; }

// Owns a parser configured for Python, and the trees it makes.
class Parser {
public:
  Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // Parses `source`; the caller frees the tree with ts_tree_delete (see TreePtr).
  TSTree* parse(std::string_view source);

private:
  struct ParserDeleter {
    void operator()(TSParser* parser) const noexcept { ts_parser_delete(parser); }
  };
  std::unique_ptr<TSParser, ParserDeleter> m_parser;
};

struct TreeDeleter {
  void operator()(TSTree* tree) const noexcept { ts_tree_delete(tree); }
};

} // namespace impact::python
