#include "python/grammar.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace impact::python {

namespace {

TSSymbol symbol(const TSLanguage* lang, const char* name, bool named = true) {
  TSSymbol s = ts_language_symbol_for_name(lang, name, static_cast<uint32_t>(std::strlen(name)), named);
  if (s == 0) throw std::logic_error(std::string("tree-sitter-python has no node type ") + name);
  return s;
}

TSFieldId field(const TSLanguage* lang, const char* name) {
  TSFieldId f = ts_language_field_id_for_name(lang, name, static_cast<uint32_t>(std::strlen(name)));
  if (f == 0) throw std::logic_error(std::string("tree-sitter-python has no field ") + name);
  return f;
}

Grammar make_grammar() {
  Grammar g;
  const TSLanguage* l = tree_sitter_python();
  g.language = l;
  g.module = symbol(l, "module");
  g.import_statement = symbol(l, "import_statement");
  g.import_from_statement = symbol(l, "import_from_statement");
  g.future_import_statement = symbol(l, "future_import_statement");
  g.aliased_import = symbol(l, "aliased_import");
  g.dotted_name = symbol(l, "dotted_name");
  g.relative_import = symbol(l, "relative_import");
  g.import_prefix = symbol(l, "import_prefix");
  g.wildcard_import = symbol(l, "wildcard_import");
  g.function_definition = symbol(l, "function_definition");
  g.class_definition = symbol(l, "class_definition");
  g.decorated_definition = symbol(l, "decorated_definition");
  g.decorator = symbol(l, "decorator");
  g.if_statement = symbol(l, "if_statement");
  g.elif_clause = symbol(l, "elif_clause");
  g.else_clause = symbol(l, "else_clause");
  g.try_statement = symbol(l, "try_statement");
  g.except_clause = symbol(l, "except_clause");
  g.except_group_clause = symbol(l, "except_group_clause");
  g.finally_clause = symbol(l, "finally_clause");
  g.with_statement = symbol(l, "with_statement");
  g.for_statement = symbol(l, "for_statement");
  g.while_statement = symbol(l, "while_statement");
  g.match_statement = symbol(l, "match_statement");
  g.case_clause = symbol(l, "case_clause");
  g.block = symbol(l, "block");
  g.expression_statement = symbol(l, "expression_statement");
  g.assignment = symbol(l, "assignment");
  g.augmented_assignment = symbol(l, "augmented_assignment");
  g.string = symbol(l, "string");
  g.string_content = symbol(l, "string_content");
  g.string_start = symbol(l, "string_start");
  g.interpolation = symbol(l, "interpolation");
  g.concatenated_string = symbol(l, "concatenated_string");
  g.call = symbol(l, "call");
  g.attribute = symbol(l, "attribute");
  g.identifier = symbol(l, "identifier");
  g.argument_list = symbol(l, "argument_list");
  g.keyword_argument = symbol(l, "keyword_argument");
  g.list = symbol(l, "list");
  g.tuple = symbol(l, "tuple");
  g.parenthesized_expression = symbol(l, "parenthesized_expression");
  g.binary_operator = symbol(l, "binary_operator");
  g.pattern_list = symbol(l, "pattern_list");
  g.expression_list = symbol(l, "expression_list");
  g.typed_parameter = symbol(l, "typed_parameter");
  g.default_parameter = symbol(l, "default_parameter");
  g.typed_default_parameter = symbol(l, "typed_default_parameter");
  g.list_splat_pattern = symbol(l, "list_splat_pattern");
  g.dictionary_splat_pattern = symbol(l, "dictionary_splat_pattern");
  g.parameters = symbol(l, "parameters");
  g.comment = symbol(l, "comment");
  g.escape_sequence = symbol(l, "escape_sequence");
  g.list_comprehension = symbol(l, "list_comprehension");
  g.generator_expression = symbol(l, "generator_expression");
  g.set_comprehension = symbol(l, "set_comprehension");
  g.set = symbol(l, "set");
  g.error = static_cast<TSSymbol>(-1); // ts_node_is_error is used instead
  g.f_name = field(l, "name");
  g.f_alias = field(l, "alias");
  g.f_module_name = field(l, "module_name");
  g.f_body = field(l, "body");
  g.f_consequence = field(l, "consequence");
  g.f_alternative = field(l, "alternative");
  g.f_condition = field(l, "condition");
  g.f_definition = field(l, "definition");
  g.f_superclasses = field(l, "superclasses");
  g.f_parameters = field(l, "parameters");
  g.f_left = field(l, "left");
  g.f_right = field(l, "right");
  g.f_function = field(l, "function");
  g.f_arguments = field(l, "arguments");
  g.f_object = field(l, "object");
  g.f_attribute = field(l, "attribute");
  g.f_value = field(l, "value");
  g.f_operator = field(l, "operator");
  return g;
}

} // namespace

const Grammar& Grammar::get() {
  static const Grammar grammar = make_grammar();
  return grammar;
}

std::string dotted_text(TSNode node, std::string_view source) {
  std::string out;
  for (char c : node_text(node, source)) {
    if (c == '\\' || std::isspace(static_cast<unsigned char>(c))) continue;
    out.push_back(c);
  }
  return out;
}

bool one_slice_chain(TSNode node, std::string_view source) {
  TSNode root = node;
  while (ts_node_symbol(root) == Grammar::get().attribute) root = ts_node_child_by_field_name(root, "object", 6);
  if (ts_node_is_null(root) || ts_node_symbol(root) != Grammar::get().identifier) return false;
  std::string_view text = node_text(node, source);
  return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' || c == '#' || c == '\f';
  });
}

TSNode definition_starting_at(TSNode root, uint32_t start) {
  const Grammar& g = Grammar::get();
  TSNode n = ts_node_descendant_for_byte_range(root, start, start);
  while (!ts_node_is_null(n)) {
    TSSymbol s = ts_node_symbol(n);
    if ((s == g.function_definition || s == g.class_definition) && ts_node_start_byte(n) == start) return n;
    n = ts_node_parent(n);
  }
  return n;
}

Parser::Parser() : m_parser(ts_parser_new()) {
  if (!ts_parser_set_language(m_parser.get(), tree_sitter_python())) {
    throw std::logic_error("libtree-sitter cannot load the tree-sitter-python grammar (ABI mismatch)");
  }
}

TSTree* Parser::parse(std::string_view source) {
  return ts_parser_parse_string(m_parser.get(), nullptr, source.data(), static_cast<uint32_t>(source.size()));
}

} // namespace impact::python
