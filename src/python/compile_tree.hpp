#pragma once
// TreeChecker: the walk of the compile check's tree half (compile_tree.cpp: the walk and its context;
// compile_rules.cpp: the rules of single nodes). Private to src/python/.
#include "python/compile_check.hpp"
#include "python/grammar.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact::python {

// The node kinds and fields the check reads, looked up once.
struct Kinds {
  TSSymbol module, print_statement, exec_statement, integer, float_, string, concatenated_string, identifier,
      function_definition, lambda, class_definition, decorated_definition, decorator, list_comprehension,
      set_comprehension, dictionary_comprehension, generator_expression, for_in_clause, for_statement,
      while_statement, try_statement, except_clause, except_group_clause, finally_clause, else_clause,
      with_statement, with_clause, with_item, as_pattern, as_pattern_target, break_statement, continue_statement,
      return_statement, yield, await, comparison_operator, assignment, augmented_assignment, named_expression,
      delete_statement, argument_list, parameters, lambda_parameters, list_splat, parenthesized_list_splat,
      dictionary_splat, list_splat_pattern, dictionary_splat_pattern, future_import_statement,
      import_from_statement, wildcard_import, global_statement, nonlocal_statement, keyword_argument,
      match_statement, case_clause, type_alias_statement, type_parameter, expression_list,
      comment, attribute, subscript, pattern_list, tuple_pattern, list_pattern, tuple, list, set,
      parenthesized_expression, typed_parameter, default_parameter, typed_default_parameter, keyword_separator,
      positional_separator, expression_statement, dotted_name, aliased_import, call, block, case_pattern,
      dictionary, pair, line_continuation, raise_statement, assert_statement, import_statement,
      pass_statement, type_, constrained_type, splat_type, union_pattern, class_pattern, dict_pattern,
      keyword_pattern, splat_pattern, complex_pattern, true_, false_, none, string_start, string_content, interpolation,
      conditional_expression, boolean_operator, not_operator, binary_operator, unary_operator;
  TSFieldId f_left, f_right, f_name, f_body, f_parameters, f_type, f_value, f_alias, f_guard, f_superclasses,
      f_definition, f_function, f_arguments, f_return_type, f_type_parameters, f_alternative, f_attribute;
  static const Kinds& get();
};

// One code object: what `return`, `yield`, `await` and `nonlocal` may do inside it.
struct Frame {
  enum Kind : uint8_t { module, class_, function, lambda, comprehension } kind = module;
  bool async = false;      // an async def, or a comprehension inside one
  bool genexp = false;     // a generator expression
  bool generator = false;  // holds a yield
  uint32_t return_line = 0; // the first `return <value>`
  const Frame* parent = nullptr;
  std::vector<std::string_view> params; // a comprehension's: every name in its `for` targets
  TSNode body{}; // a function's or class's body (the module for the module): where a nonlocal name must be bound
};

// Where the walk is inside a frame.
struct Ctx {
  Frame* frame = nullptr;
  bool loop = false;    // break / continue allowed
  bool finally = false; // inside a finally clause inside the innermost loop
  // Inside an except* block: a break or continue that would leave it, and any return, are refused.
  bool star_break = false, star_return = false;
  int blocks = 0;       // statically nested blocks (CPython allows 20)
};

class TreeChecker {
public:
  TreeChecker(std::string_view source, const std::vector<uint32_t>& line_starts, CompileCheck& out)
      : m_src(source), m_starts(line_starts), m_out(out), m_k(Kinds::get()) {}
  void module(TSNode root);

private:
  void problem(SyntaxIssue issue, TSNode at) { note_problem(m_out, issue, line_of(ts_node_start_point(at))); }
  void needs(uint8_t minor, TSNode at) { note_version(m_out, minor, line_of(ts_node_start_point(at))); }
  std::string_view text(TSNode n) const { return node_text(n, m_src); }
  bool has_child(TSNode n, TSSymbol s) const;
  bool has_token(TSNode n, std::string_view token) const;
  // Whether two of `n`'s commas meet with nothing between them, or one follows its first token
  // (`print(,)`, `f(a,,b)`), or (`trailing`) one ends it (`from os import a, b,` without parentheses).
  bool stray_comma(TSNode n, bool trailing) const;
  // Whether attribute `n` names `__debug__` (`o.__debug__`), which no assignment may bind.
  bool debug_attribute(TSNode n) const {
    TSNode attr = ts_node_child_by_field_id(n, m_k.f_attribute);
    return !ts_node_is_null(attr) && text(attr) == "__debug__";
  }
  // Comments and backslash continuations: children that are not part of a list's elements.
  bool skipped(TSNode n) const { return ts_node_symbol(n) == m_k.comment || ts_node_symbol(n) == m_k.line_continuation; }

  // compile_tree.cpp: the walk
  void children(TSNode n, const Ctx& ctx, unsigned depth);
  void visit(TSNode n, const Ctx& ctx, unsigned depth);
  void function(TSNode n, const Ctx& ctx, unsigned depth);
  void lambda(TSNode n, const Ctx& ctx, unsigned depth);
  void class_(TSNode n, const Ctx& ctx, unsigned depth);
  void comprehension(TSNode n, const Ctx& ctx, unsigned depth);
  void loop(TSNode n, const Ctx& ctx, unsigned depth);
  void try_(TSNode n, const Ctx& ctx, unsigned depth);
  void with(TSNode n, const Ctx& ctx, unsigned depth);
  void blocks(TSNode n, Ctx& inner, int added);
  void first_error(TSNode root);
  void one_logical_line(TSNode n);

  // compile_rules.cpp: single nodes
  void node_rules(TSNode n, TSSymbol s, const Ctx& ctx);
  void identifier(TSNode n);
  void futures(TSNode root);
  void future_names(TSNode n);
  void concatenated(TSNode n);
  void assignment(TSNode n);
  void named_expression(TSNode n, const Frame& f);
  void names_in(TSNode n, std::vector<std::string_view>& out, unsigned depth) const;
  bool target(TSNode n, bool star_allowed, bool del);
  bool single_target(TSNode n);
  void arguments(TSNode n);
  void parameters(TSNode n);
  void starred(TSNode n, TSSymbol s);
  void starred_value(TSNode n);
  void expression_list(TSNode n);
  void scope_statement(TSNode n, TSSymbol s, const Frame& f);
  bool binds(TSNode n, std::string_view name, unsigned depth) const;
  // Whether an annotated assignment to `name` (`name: T = ...`) is in `n`'s own scope.
  bool annotates(TSNode n, std::string_view name, unsigned depth) const;
  bool named_before(TSNode n, std::string_view name, uint32_t before, unsigned depth) const;
  void as_expression(TSNode n);
  void decorator(TSNode n);
  void cases(TSNode n);
  void except_clause(TSNode n);
  void try_clauses(TSNode n);
  bool has_later_case(TSNode body, uint32_t i) const;

  // compile_patterns.cpp: match statements' patterns
  void case_clause(TSNode n);
  bool irrefutable_case(TSNode clause);
  bool pattern(TSNode n, std::vector<std::string_view>& names, bool star_allowed);
  void sequence(const std::vector<TSNode>& elements, std::vector<std::string_view>& names, TSNode at);
  bool alternatives(TSNode n, std::vector<std::string_view>& names);
  void class_arguments(TSNode n, std::vector<std::string_view>& names);
  void mapping(TSNode n, std::vector<std::string_view>& names);
  std::optional<std::string> mapping_key(TSNode n, uint32_t from, uint32_t to);
  std::optional<std::string> literal_string(TSNode n);
  std::optional<std::string> complex(TSNode n);
  void bind(TSNode at, std::string_view name, std::vector<std::string_view>& names);

  std::string_view m_src;
  const std::vector<uint32_t>& m_starts;
  CompileCheck& m_out;
  const Kinds& m_k;
};

} // namespace impact::python
