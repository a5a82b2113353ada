// The tree half of the compile check: one walk over the whole tree that knows where it is (module,
// class body, function, lambda, comprehension; inside a loop, a finally, an async def) and flags what
// the grammar accepts and CPython's parser, compiler or symbol table refuses, and the Python version
// each construct needs. What it cannot decide it widens (SyntaxIssue::unsure_*, too_*).
#include "python/compile_tree.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace impact::python {

namespace {

constexpr unsigned k_max_depth = 400; // deeper trees: CPython's recursion limits may refuse them
// CPython's CO_MAXBLOCKS is 20; a loop, a with item, a try body and a finally count one block each and
// an except clause two (3.11, measured); two blocks of margin cover how versions count them.
constexpr int k_max_blocks = 18;

Kinds make_kinds() {
  const TSLanguage* l = tree_sitter_python();
  auto sym = [&](const char* name) {
    TSSymbol s = ts_language_symbol_for_name(l, name, static_cast<uint32_t>(std::strlen(name)), true);
    if (s == 0) throw std::logic_error(std::string("tree-sitter-python has no node type ") + name);
    return s;
  };
  auto fld = [&](const char* name) {
    TSFieldId f = ts_language_field_id_for_name(l, name, static_cast<uint32_t>(std::strlen(name)));
    if (f == 0) throw std::logic_error(std::string("tree-sitter-python has no field ") + name);
    return f;
  };
  Kinds k{};
  k.module = sym("module");
  k.print_statement = sym("print_statement");
  k.exec_statement = sym("exec_statement");
  k.integer = sym("integer");
  k.float_ = sym("float");
  k.string = sym("string");
  k.concatenated_string = sym("concatenated_string");
  k.identifier = sym("identifier");
  k.function_definition = sym("function_definition");
  k.lambda = sym("lambda");
  k.class_definition = sym("class_definition");
  k.decorated_definition = sym("decorated_definition");
  k.decorator = sym("decorator");
  k.list_comprehension = sym("list_comprehension");
  k.set_comprehension = sym("set_comprehension");
  k.dictionary_comprehension = sym("dictionary_comprehension");
  k.generator_expression = sym("generator_expression");
  k.for_in_clause = sym("for_in_clause");
  k.for_statement = sym("for_statement");
  k.while_statement = sym("while_statement");
  k.try_statement = sym("try_statement");
  k.except_clause = sym("except_clause");
  k.except_group_clause = sym("except_group_clause");
  k.finally_clause = sym("finally_clause");
  k.else_clause = sym("else_clause");
  k.with_statement = sym("with_statement");
  k.with_clause = sym("with_clause");
  k.with_item = sym("with_item");
  k.as_pattern = sym("as_pattern");
  k.as_pattern_target = sym("as_pattern_target");
  k.break_statement = sym("break_statement");
  k.continue_statement = sym("continue_statement");
  k.return_statement = sym("return_statement");
  k.yield = sym("yield");
  k.await = sym("await");
  k.comparison_operator = sym("comparison_operator");
  k.conditional_expression = sym("conditional_expression");
  k.boolean_operator = sym("boolean_operator");
  k.not_operator = sym("not_operator");
  k.binary_operator = sym("binary_operator");
  k.unary_operator = sym("unary_operator");
  k.assignment = sym("assignment");
  k.augmented_assignment = sym("augmented_assignment");
  k.named_expression = sym("named_expression");
  k.delete_statement = sym("delete_statement");
  k.argument_list = sym("argument_list");
  k.parameters = sym("parameters");
  k.lambda_parameters = sym("lambda_parameters");
  k.list_splat = sym("list_splat");
  k.parenthesized_list_splat = sym("parenthesized_list_splat");
  k.dictionary_splat = sym("dictionary_splat");
  k.list_splat_pattern = sym("list_splat_pattern");
  k.dictionary_splat_pattern = sym("dictionary_splat_pattern");
  k.future_import_statement = sym("future_import_statement");
  k.import_from_statement = sym("import_from_statement");
  k.wildcard_import = sym("wildcard_import");
  k.global_statement = sym("global_statement");
  k.nonlocal_statement = sym("nonlocal_statement");
  k.keyword_argument = sym("keyword_argument");
  k.match_statement = sym("match_statement");
  k.case_clause = sym("case_clause");
  k.type_alias_statement = sym("type_alias_statement");
  k.type_parameter = sym("type_parameter");
  k.type_ = sym("type");
  k.constrained_type = sym("constrained_type");
  k.splat_type = sym("splat_type");
  k.expression_list = sym("expression_list");
  k.comment = sym("comment");
  k.attribute = sym("attribute");
  k.subscript = sym("subscript");
  k.pattern_list = sym("pattern_list");
  k.tuple_pattern = sym("tuple_pattern");
  k.list_pattern = sym("list_pattern");
  k.tuple = sym("tuple");
  k.list = sym("list");
  k.set = sym("set");
  k.parenthesized_expression = sym("parenthesized_expression");
  k.typed_parameter = sym("typed_parameter");
  k.default_parameter = sym("default_parameter");
  k.typed_default_parameter = sym("typed_default_parameter");
  k.keyword_separator = sym("keyword_separator");
  k.positional_separator = sym("positional_separator");
  k.expression_statement = sym("expression_statement");
  k.dotted_name = sym("dotted_name");
  k.aliased_import = sym("aliased_import");
  k.call = sym("call");
  k.block = sym("block");
  k.case_pattern = sym("case_pattern");
  k.dictionary = sym("dictionary");
  k.pair = sym("pair");
  k.line_continuation = sym("line_continuation");
  k.raise_statement = sym("raise_statement");
  k.assert_statement = sym("assert_statement");
  k.import_statement = sym("import_statement");
  k.pass_statement = sym("pass_statement");
  k.union_pattern = sym("union_pattern");
  k.class_pattern = sym("class_pattern");
  k.dict_pattern = sym("dict_pattern");
  k.keyword_pattern = sym("keyword_pattern");
  k.splat_pattern = sym("splat_pattern");
  k.complex_pattern = sym("complex_pattern");
  k.true_ = sym("true");
  k.false_ = sym("false");
  k.none = sym("none");
  k.string_start = sym("string_start");
  k.string_content = sym("string_content");
  k.interpolation = sym("interpolation");
  k.f_left = fld("left");
  k.f_right = fld("right");
  k.f_name = fld("name");
  k.f_body = fld("body");
  k.f_parameters = fld("parameters");
  k.f_type = fld("type");
  k.f_value = fld("value");
  k.f_alias = fld("alias");
  k.f_attribute = fld("attribute");
  k.f_guard = fld("guard");
  k.f_superclasses = fld("superclasses");
  k.f_definition = fld("definition");
  k.f_function = fld("function");
  k.f_arguments = fld("arguments");
  k.f_return_type = fld("return_type");
  k.f_type_parameters = fld("type_parameters");
  k.f_alternative = fld("alternative");
  return k;
}

} // namespace

const Kinds& Kinds::get() {
  static const Kinds kinds = make_kinds();
  return kinds;
}

bool TreeChecker::has_child(TSNode n, TSSymbol s) const {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    if (ts_node_symbol(ts_node_named_child(n, i)) == s) return true;
  }
  return false;
}

bool TreeChecker::has_token(TSNode n, std::string_view token) const {
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c) && token == ts_node_type(c)) return true;
  }
  return false;
}

bool TreeChecker::stray_comma(TSNode n, bool trailing) const {
  std::string_view previous; // the last token before `c`; "" for a named node
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (skipped(c)) continue;
    bool comma = !ts_node_is_named(c) && std::string_view(ts_node_type(c)) == ",";
    if (comma && (previous == "," || previous == "(")) return true;
    previous = ts_node_is_named(c) ? "" : ts_node_type(c);
  }
  return trailing && previous == ",";
}

void TreeChecker::module(TSNode root) {
  Frame frame;
  frame.body = root;
  Ctx ctx{&frame};
  if (ts_node_has_error(root)) first_error(root);
  futures(root);
  children(root, ctx, 1);
}

// The first ERROR or MISSING node, hidden ones included (a MISSING newline is no visible child): the
// deepest node on the first path of nodes that hold an error.
void TreeChecker::first_error(TSNode root) {
  TSNode node = root;
  for (unsigned depth = 0; depth < k_max_depth; ++depth) {
    if (is_error(node) || ts_node_is_missing(node)) break;
    TSNode next{};
    uint32_t count = ts_node_child_count(node);
    for (uint32_t i = 0; i < count && ts_node_is_null(next); ++i) {
      TSNode c = ts_node_child(node, i);
      if (ts_node_has_error(c) || ts_node_is_missing(c) || is_error(c)) next = c;
    }
    if (ts_node_is_null(next)) break;
    node = next;
  }
  problem(SyntaxIssue::syntax_error, node);
}

void TreeChecker::children(TSNode n, const Ctx& ctx, unsigned depth) {
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) visit(ts_node_child(n, i), ctx, depth);
}

void TreeChecker::visit(TSNode n, const Ctx& ctx, unsigned depth) {
  if (depth > k_max_depth) return problem(SyntaxIssue::too_complex, n);
  if (is_error(n) || ts_node_is_missing(n)) return problem(SyntaxIssue::syntax_error, n);
  if (!ts_node_is_named(n)) return;
  TSSymbol s = ts_node_symbol(n);
  const Kinds& k = m_k;
  if (s == k.print_statement) return problem(SyntaxIssue::print_statement, n);
  if (s == k.exec_statement) return problem(SyntaxIssue::exec_statement, n);
  if (s == k.integer || s == k.float_) return check_number(text(n), line_of(ts_node_start_point(n)), m_out);
  if (s == k.string) {
    check_string(m_src, n, m_out);
    return children(n, ctx, depth + 1); // the replacement fields
  }
  if (s == k.identifier) return identifier(n);
  if (s == k.function_definition) return function(n, ctx, depth);
  if (s == k.lambda) return lambda(n, ctx, depth);
  if (s == k.class_definition) return class_(n, ctx, depth);
  if (s == k.list_comprehension || s == k.set_comprehension || s == k.dictionary_comprehension ||
      s == k.generator_expression)
    return comprehension(n, ctx, depth);
  if (s == k.for_statement || s == k.while_statement) return loop(n, ctx, depth);
  if (s == k.try_statement) return try_(n, ctx, depth);
  if (s == k.with_statement) return with(n, ctx, depth);
  if (s == k.expression_statement || s == k.return_statement || s == k.delete_statement || s == k.raise_statement ||
      s == k.assert_statement || s == k.import_statement || s == k.import_from_statement ||
      s == k.future_import_statement || s == k.global_statement || s == k.nonlocal_statement ||
      s == k.pass_statement || s == k.break_statement || s == k.continue_statement || s == k.type_alias_statement)
    one_logical_line(n);
  node_rules(n, s, ctx);
  children(n, ctx, depth + 1);
}

// A def: its decorators, defaults and annotations run in the enclosing frame; its body in its own.
void TreeChecker::function(TSNode n, const Ctx& ctx, unsigned depth) {
  Frame frame;
  frame.kind = Frame::function;
  frame.async = has_token(n, "async");
  frame.parent = ctx.frame;
  if (!ts_node_is_null(ts_node_child_by_field_id(n, m_k.f_type_parameters))) needs(12, n); // def f[T]()
  TSNode params = ts_node_child_by_field_id(n, m_k.f_parameters);
  frame.body = ts_node_child_by_field_id(n, m_k.f_body);
  Ctx inner{&frame};
  if (!ts_node_is_null(params)) {
    uint32_t pc = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < pc; ++i) {
      TSNode p = ts_node_named_child(params, i);
      TSNode name = ts_node_symbol(p) == m_k.identifier ? p : ts_node_child_by_field_id(p, m_k.f_name);
      if (ts_node_is_null(name) && ts_node_named_child_count(p) > 0) name = ts_node_named_child(p, 0);
      if (!ts_node_is_null(name)) frame.params.push_back(text(name));
    }
  }
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    bool body = ts_node_symbol(c) == m_k.block;
    visit(c, body ? inner : ctx, depth + 1);
  }
  if (frame.async && frame.generator && frame.return_line != 0) {
    note_problem(m_out, SyntaxIssue::outside_function, frame.return_line); // return <value> in an async generator
  }
}

void TreeChecker::lambda(TSNode n, const Ctx& ctx, unsigned depth) {
  Frame frame;
  frame.kind = Frame::lambda;
  frame.parent = ctx.frame;
  Ctx inner{&frame};
  TSNode body = ts_node_child_by_field_id(n, m_k.f_body);
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    visit(c, ts_node_eq(c, body) ? inner : ctx, depth + 1);
  }
}

void TreeChecker::class_(TSNode n, const Ctx& ctx, unsigned depth) {
  Frame frame;
  frame.kind = Frame::class_;
  frame.parent = ctx.frame;
  frame.body = ts_node_child_by_field_id(n, m_k.f_body);
  if (!ts_node_is_null(ts_node_child_by_field_id(n, m_k.f_type_parameters))) needs(12, n); // class C[T]
  Ctx inner{&frame};
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    visit(c, ts_node_symbol(c) == m_k.block ? inner : ctx, depth + 1);
  }
}

// A comprehension is a frame of its own (yield is refused in it); `async for` in a list, set or dict
// comprehension needs an async def around it.
void TreeChecker::comprehension(TSNode n, const Ctx& ctx, unsigned depth) {
  Frame frame;
  frame.kind = Frame::comprehension;
  frame.parent = ctx.frame;
  frame.genexp = ts_node_symbol(n) == m_k.generator_expression;
  frame.async = ctx.frame->async;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_symbol(c) != m_k.for_in_clause) continue;
    if (has_token(c, "async") && !frame.async && !frame.genexp) problem(SyntaxIssue::outside_async, c);
    if (has_token(c, ",")) problem(SyntaxIssue::syntax_error, c); // [x for x in 1, 2]
    TSNode left = ts_node_child_by_field_id(c, m_k.f_left);
    if (!ts_node_is_null(left) && !target(left, true, false)) problem(SyntaxIssue::invalid_target, c);
    if (!ts_node_is_null(left)) names_in(left, frame.params, 0);
  }
  Ctx inner{&frame};
  inner.blocks = ctx.blocks;
  children(n, inner, depth + 1);
}

// Every identifier in `n`, attributes' objects and subscripts' included (CPython's symbol table counts
// `i` in `for i.a in x` as an iteration variable too).
void TreeChecker::names_in(TSNode n, std::vector<std::string_view>& out, unsigned depth) const {
  if (depth > k_max_depth) return;
  if (ts_node_symbol(n) == m_k.identifier) {
    out.push_back(text(n));
    return;
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) names_in(ts_node_named_child(n, i), out, depth + 1);
}

void TreeChecker::blocks(TSNode n, Ctx& inner, int added) {
  inner.blocks += added;
  if (inner.blocks > k_max_blocks) problem(SyntaxIssue::too_many_blocks, n);
}

// for / while: the body is inside the loop, the else clause is not.
void TreeChecker::loop(TSNode n, const Ctx& ctx, unsigned depth) {
  bool is_for = ts_node_symbol(n) == m_k.for_statement;
  if (is_for && has_token(n, "async") && !(ctx.frame->kind == Frame::function && ctx.frame->async)) {
    problem(SyntaxIssue::outside_async, n);
  }
  if (is_for) {
    TSNode left = ts_node_child_by_field_id(n, m_k.f_left);
    if (!ts_node_is_null(left) && !target(left, true, false)) problem(SyntaxIssue::invalid_target, n);
  }
  Ctx body = ctx;
  body.loop = true;
  body.finally = false;
  body.star_break = false; // a loop inside an except* block may break out of itself
  blocks(n, body, 1);
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    TSSymbol s = ts_node_symbol(c);
    visit(c, s == m_k.block ? body : ctx, depth + 1);
  }
}

void TreeChecker::try_(TSNode n, const Ctx& ctx, unsigned depth) {
  try_clauses(n);
  bool has_finally = has_child(n, m_k.finally_clause);
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    TSSymbol s = ts_node_symbol(c);
    Ctx inner = ctx;
    if (s == m_k.block) blocks(c, inner, has_finally ? 2 : 1);
    else if (s == m_k.except_clause || s == m_k.except_group_clause) blocks(c, inner, 2);
    if (s == m_k.except_group_clause) inner.star_break = inner.star_return = true;
    else if (s == m_k.finally_clause) {
      blocks(c, inner, 1);
      inner.finally = ctx.loop;
    }
    visit(c, inner, depth + 1);
  }
}

// with a, b: each item is a block; `with (a as b, c):` needs 3.9.
void TreeChecker::with(TSNode n, const Ctx& ctx, unsigned depth) {
  if (has_token(n, "async") && !(ctx.frame->kind == Frame::function && ctx.frame->async)) {
    problem(SyntaxIssue::outside_async, n);
  }
  Ctx inner = ctx;
  int items = 0;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode clause = ts_node_named_child(n, i);
    if (ts_node_symbol(clause) != m_k.with_clause) continue;
    bool parenthesized = has_token(clause, "(");
    uint32_t ic = ts_node_named_child_count(clause);
    for (uint32_t j = 0; j < ic; ++j) {
      TSNode item = ts_node_named_child(clause, j);
      if (ts_node_symbol(item) != m_k.with_item) continue;
      ++items;
      TSNode value = ts_node_child_by_field_id(item, m_k.f_value);
      if (ts_node_is_null(value) || ts_node_symbol(value) != m_k.as_pattern) continue;
      if (parenthesized) needs(9, item);
      TSNode alias = ts_node_child_by_field_id(value, m_k.f_alias);
      if (!ts_node_is_null(alias) && ts_node_named_child_count(alias) > 0 &&
          !target(ts_node_named_child(alias, 0), true, false))
        problem(SyntaxIssue::invalid_target, item);
    }
  }
  blocks(n, inner, std::max(items, 1));
  uint32_t all = ts_node_child_count(n);
  for (uint32_t i = 0; i < all; ++i) {
    TSNode c = ts_node_child(n, i);
    visit(c, ts_node_symbol(c) == m_k.block ? inner : ctx, depth + 1);
  }
}

// A simple statement lies on one logical line: a logical line start inside it means tree-sitter read
// past a line break that ends the statement for CPython (`x.y:` annotating the next line).
void TreeChecker::one_logical_line(TSNode n) {
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  auto it = std::upper_bound(m_starts.begin(), m_starts.end(), start);
  if (it != m_starts.end() && *it < end) note_problem(m_out, SyntaxIssue::syntax_error, line_of(ts_node_start_point(n)));
}

void check_tree(std::string_view source, TSNode root, const std::vector<uint32_t>& line_starts, CompileCheck& out) {
  TreeChecker(source, line_starts, out).module(root);
}

} // namespace impact::python
