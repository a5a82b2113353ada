// The compile check's rules of single nodes: targets, parameter and argument lists, starred
// expressions, __future__ imports, global/nonlocal, decorators, except and case clauses, reserved
// names. Each refuses what CPython refuses (Grammar/python.gram's invalid_* rules, Python/symtable.c,
// Python/compile.c) where tree-sitter's grammar is more lenient.
#include "python/compile_tree.hpp"

#include <algorithm>
#include <array>

namespace impact::python {

namespace {

bool reserved(std::string_view name) { return name == "async" || name == "await" || name == "__debug__"; }

} // namespace

void TreeChecker::node_rules(TSNode n, TSSymbol s, const Ctx& ctx) {
  const Kinds& k = m_k;
  Frame& f = *ctx.frame;
  if (s == k.break_statement || s == k.continue_statement) {
    if (!ctx.loop) problem(SyntaxIssue::outside_loop, n);
    else if (ctx.star_break) problem(SyntaxIssue::invalid_clause, n); // it would leave an except* block
    else if (s == k.continue_statement && ctx.finally) needs(8, n);
  } else if (s == k.return_statement) {
    if (f.kind != Frame::function) problem(SyntaxIssue::outside_function, n);
    else if (ctx.star_return) problem(SyntaxIssue::invalid_clause, n); // in an except* block
    else if (ts_node_named_child_count(n) > 0 && f.return_line == 0) f.return_line = line_of(ts_node_start_point(n));
    starred_value(n);
  } else if (s == k.yield) {
    if (f.kind != Frame::function && f.kind != Frame::lambda) problem(SyntaxIssue::outside_function, n);
    // 'yield from' inside async function: CPython refuses it; tree-sitter parses it cleanly.
    else if (f.kind == Frame::function && f.async && has_token(n, "from")) problem(SyntaxIssue::outside_function, n);
    f.generator = true;
    starred_value(n);
  } else if (s == k.await) {
    if (!f.async) problem(f.kind == Frame::comprehension && f.genexp ? SyntaxIssue::unsure_construct : SyntaxIssue::outside_async, n);
  } else if (s == k.comparison_operator) {
    if (has_token(n, "<>")) problem(SyntaxIssue::diamond_operator, n);
  } else if (s == k.concatenated_string) {
    concatenated(n);
  } else if (s == k.assignment) {
    assignment(n);
  } else if (s == k.augmented_assignment) {
    TSNode left = ts_node_child_by_field_id(n, k.f_left);
    if (!ts_node_is_null(left) && !single_target(left)) problem(SyntaxIssue::invalid_target, n);
  } else if (s == k.named_expression) {
    named_expression(n, *ctx.frame);
  } else if (s == k.delete_statement) {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode t = ts_node_named_child(n, i);
      if (!skipped(t) && !target(t, false, true)) problem(SyntaxIssue::invalid_target, n);
    }
  } else if (s == k.argument_list) {
    arguments(n);
  } else if (s == k.parameters || s == k.lambda_parameters) {
    parameters(n);
  } else if (s == k.list_splat || s == k.parenthesized_list_splat || s == k.dictionary_splat) {
    starred(n, s);
  } else if (s == k.as_pattern) {
    as_expression(n);
  } else if (s == k.list_splat_pattern) {
    TSSymbol p = ts_node_symbol(ts_node_parent(n));
    if (p == k.assignment || p == k.for_statement || p == k.for_in_clause || p == k.augmented_assignment) {
      problem(SyntaxIssue::invalid_starred, n);
    }
  } else if (s == k.constrained_type) {
    // `T: int` bounds a type parameter (`def f[T: int]()`) and is nothing anywhere else: tree-sitter reads
    // `x: y: int` and `def f(a: b: int)` so.
    TSNode up = ts_node_parent(n);
    if (ts_node_symbol(up) != k.type_ || ts_node_symbol(ts_node_parent(up)) != k.type_parameter) {
      problem(SyntaxIssue::syntax_error, n);
    }
  } else if (s == k.splat_type) {
    // `*Ts` unpacks in a subscript or annotates `*args`; an annotated assignment's type cannot be one.
    if (ts_node_symbol(ts_node_parent(ts_node_parent(n))) == k.assignment) problem(SyntaxIssue::syntax_error, n);
  } else if (s == k.future_import_statement) {
    if (f.kind != Frame::module || ts_node_symbol(ts_node_parent(n)) != k.module) problem(SyntaxIssue::misplaced_future, n);
    future_names(n);
  } else if (s == k.import_from_statement || s == k.import_statement) {
    if (s == k.import_from_statement && f.kind != Frame::module && has_child(n, k.wildcard_import)) problem(SyntaxIssue::invalid_scope, n);
    // `from os.path import join, split,`: a trailing comma needs the parentheses (tree-sitter takes it).
    if (!has_token(n, "(") && stray_comma(n, true)) problem(SyntaxIssue::syntax_error, n);
    // `import os as __debug__` binds the one name no code may bind.
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (ts_node_symbol(c) != k.aliased_import) continue;
      TSNode alias = ts_node_child_by_field_id(c, k.f_alias);
      if (!ts_node_is_null(alias) && text(alias) == "__debug__") problem(SyntaxIssue::reserved_name, c);
    }
  } else if (s == k.global_statement || s == k.nonlocal_statement) {
    scope_statement(n, s, f);
  } else if (s == k.decorator) {
    decorator(n);
  } else if (s == k.match_statement) {
    needs(10, n);
    cases(n);
  } else if (s == k.case_clause) {
    case_clause(n);
  } else if (s == k.except_group_clause) {
    needs(11, n);
    except_clause(n);
  } else if (s == k.type_alias_statement) {
    // PEP 695 (3.12); tree-sitter may read `type(x).y = z` as one too, which only widens.
    std::string_view t = text(n);
    if (t.size() > 4 && (t[4] == ' ' || t[4] == '\t' || t[4] == '\\')) needs(12, n);
  } else if (s == k.expression_list) {
    expression_list(n);
  } else if (s == k.except_clause) {
    except_clause(n);
  } else if (s == k.raise_statement) {
    if (has_child(n, k.expression_list)) problem(SyntaxIssue::syntax_error, n); // raise E, "message"
    // `raise from e`: a cause needs an exception before it.
    TSNode second = ts_node_child(n, 1);
    if (!ts_node_is_null(second) && !ts_node_is_named(second) && std::string_view(ts_node_type(second)) == "from") {
      problem(SyntaxIssue::syntax_error, n);
    }
  }
}

// `async` and `await` are keywords since 3.7; tree-sitter still reads them as names, and in error
// recovery it reads any keyword as a name (a stray `else`).
void TreeChecker::identifier(TSNode n) {
  static constexpr std::array<std::string_view, 33> k_keywords = {
      "False", "None",   "True",    "and",      "as",   "assert", "async", "await",  "break",
      "class", "continue", "def",   "del",      "elif", "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",  "while"};
  std::string_view name = text(n);
  if (name == "with" || name == "yield" ||
      std::find(k_keywords.begin(), k_keywords.end(), name) != k_keywords.end()) {
    problem(name == "async" || name == "await" ? SyntaxIssue::reserved_name : SyntaxIssue::syntax_error, n);
  }
}

// from __future__ imports come first: after the docstring and comments only.
void TreeChecker::futures(TSNode root) {
  bool top = true, docstring_seen = false;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(root, i);
    TSSymbol s = ts_node_symbol(c);
    if (s == m_k.comment) continue;
    if (s == m_k.future_import_statement) {
      if (!top) problem(SyntaxIssue::misplaced_future, c);
      continue;
    }
    bool docstring = s == m_k.expression_statement && ts_node_named_child_count(c) == 1 &&
                     (ts_node_symbol(ts_node_named_child(c, 0)) == m_k.string ||
                      ts_node_symbol(ts_node_named_child(c, 0)) == m_k.concatenated_string);
    if (docstring && !docstring_seen) {
      docstring_seen = true;
      continue;
    }
    top = false;
  }
}

void TreeChecker::future_names(TSNode n) {
  static constexpr std::array<std::string_view, 10> k_features = {
      "nested_scopes", "generators",       "division",        "absolute_import", "with_statement",
      "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop",  "annotations"};
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_symbol(c) == m_k.aliased_import) c = ts_node_child_by_field_id(c, m_k.f_name);
    if (ts_node_is_null(c) || ts_node_symbol(c) != m_k.dotted_name) continue;
    if (std::find(k_features.begin(), k_features.end(), text(c)) == k_features.end()) {
      problem(SyntaxIssue::misplaced_future, c);
    }
  }
}

// "a" b"b": bytes and str literals do not concatenate.
void TreeChecker::concatenated(TSNode n) {
  bool bytes = false, str = false;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_symbol(c) != m_k.string || ts_node_child_count(c) == 0) continue;
    std::string_view open = text(ts_node_child(c, 0));
    bool b = open.substr(0, open.find_first_of("'\"")).find_first_of("bB") != std::string_view::npos;
    (b ? bytes : str) = true;
  }
  if (bytes && str) problem(SyntaxIssue::invalid_string, n);
}

void TreeChecker::assignment(TSNode n) {
  TSNode left = ts_node_child_by_field_id(n, m_k.f_left);
  TSNode right = ts_node_child_by_field_id(n, m_k.f_right);
  TSNode type = ts_node_child_by_field_id(n, m_k.f_type);
  if (!ts_node_is_null(left)) {
    bool ok = ts_node_is_null(type) ? target(left, true, false) : single_target(left);
    if (!ok) problem(SyntaxIssue::invalid_target, n);
  }
  if (!ts_node_is_null(right) && ts_node_symbol(right) == m_k.list_splat) problem(SyntaxIssue::invalid_starred, right);
  // `a = b: int`: a chained assignment's later targets carry no annotation (the grammar nests them).
  if (!ts_node_is_null(right) && ts_node_symbol(right) == m_k.assignment &&
      !ts_node_is_null(ts_node_child_by_field_id(right, m_k.f_type))) {
    problem(SyntaxIssue::syntax_error, right);
  }
}

// (x := 1): 3.8; a name only; never a bare statement; unparenthesized in a subscript or set: 3.10.
void TreeChecker::named_expression(TSNode n, const Frame& f) {
  needs(8, n);
  TSNode name = ts_node_child_by_field_id(n, m_k.f_name);
  if (!ts_node_is_null(name) && reserved(text(name))) problem(SyntaxIssue::reserved_name, n);
  TSSymbol parent = ts_node_symbol(ts_node_parent(n));
  if (parent == m_k.expression_statement) problem(SyntaxIssue::syntax_error, n);
  if (parent == m_k.subscript || parent == m_k.set) needs(10, n);
  // In comprehensions: "cannot rebind comprehension iteration variable" (any enclosing comprehension's,
  // up to a lambda or def), "cannot be used in a class body" (comprehensions directly in one).
  std::string_view target = ts_node_is_null(name) ? std::string_view{} : text(name);
  const Frame* up = &f;
  for (; up != nullptr && up->kind == Frame::comprehension; up = up->parent) {
    if (std::find(up->params.begin(), up->params.end(), target) != up->params.end()) problem(SyntaxIssue::invalid_target, n);
  }
  if (up != &f && up != nullptr && up->kind == Frame::class_) problem(SyntaxIssue::invalid_target, n);
  // "cannot be used in a comprehension iterable expression", even inside a lambda or comprehension there.
  for (TSNode child = n, a = ts_node_parent(n); !ts_node_is_null(a); child = a, a = ts_node_parent(a)) {
    TSSymbol s = ts_node_symbol(a);
    if (s == m_k.block || s == m_k.module) break;
    if (s == m_k.for_in_clause && ts_node_eq(child, ts_node_child_by_field_id(a, m_k.f_right))) {
      problem(SyntaxIssue::invalid_target, n);
      break;
    }
  }
}

// Whether `n` can be assigned to (or deleted): a name, an attribute, a subscript, or a tuple or list
// of targets with at most one starred one.
bool TreeChecker::target(TSNode n, bool star_allowed, bool del) {
  TSSymbol s = ts_node_symbol(n);
  const Kinds& k = m_k;
  if (s == k.identifier) return !reserved(text(n));
  if (s == k.attribute) return del || !debug_attribute(n); // `o.__debug__ = 1`: no code may bind it (`del o.__debug__` compiles)
  if (s == k.subscript) return true;
  if (s == k.parenthesized_expression) {
    return ts_node_named_child_count(n) == 1 && target(ts_node_named_child(n, 0), false, del);
  }
  if (s == k.pattern_list || s == k.tuple_pattern || s == k.list_pattern || s == k.tuple || s == k.list ||
      s == k.expression_list) {
    int stars = 0;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      TSSymbol cs = ts_node_symbol(c);
      if (cs == k.comment || cs == k.line_continuation) continue;
      if (cs == k.list_splat_pattern || cs == k.list_splat) {
        if (del || ++stars > 1 || ts_node_named_child_count(c) != 1) return false;
        if (!target(ts_node_named_child(c, 0), false, del)) return false;
        continue;
      }
      if (!target(c, true, del)) return false;
    }
    return true;
  }
  if (s == k.list_splat_pattern || s == k.list_splat) {
    return star_allowed && !del && ts_node_named_child_count(n) == 1 && target(ts_node_named_child(n, 0), false, del);
  }
  return false;
}

// The target of an augmented or annotated assignment: one name, attribute or subscript.
bool TreeChecker::single_target(TSNode n) {
  TSSymbol s = ts_node_symbol(n);
  // (x): int reads as a one-element tuple_pattern to tree-sitter.
  if ((s == m_k.tuple_pattern || s == m_k.tuple) && ts_node_named_child_count(n) == 1 && !has_token(n, ",")) {
    return single_target(ts_node_named_child(n, 0));
  }
  if (s == m_k.parenthesized_expression) return ts_node_named_child_count(n) == 1 && single_target(ts_node_named_child(n, 0));
  if (s == m_k.identifier) return !reserved(text(n));
  return s == m_k.attribute || s == m_k.subscript;
}

// Positional after keyword or **; * after **; a keyword twice; a generator not alone unparenthesized.
void TreeChecker::arguments(TSNode n) {
  const Kinds& k = m_k;
  if (stray_comma(n, false)) problem(SyntaxIssue::invalid_arguments, n); // print(,), f(a,,b)
  bool keyword = false, dstar = false;
  std::vector<std::string_view> names;
  uint32_t count = ts_node_named_child_count(n), args = 0;
  for (uint32_t i = 0; i < count; ++i) args += skipped(ts_node_named_child(n, i)) ? 0 : 1;
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    TSSymbol s = ts_node_symbol(c);
    if (s == k.comment || s == k.line_continuation) continue;
    if (s == k.keyword_argument) {
      keyword = true;
      TSNode name = ts_node_child_by_field_id(c, k.f_name);
      if (ts_node_is_null(name)) continue;
      std::string_view key = text(name);
      if (std::find(names.begin(), names.end(), key) != names.end() || reserved(key)) problem(SyntaxIssue::invalid_arguments, c);
      names.push_back(key);
    } else if (s == k.dictionary_splat) {
      dstar = true;
    } else if (s == k.list_splat) {
      if (dstar) problem(SyntaxIssue::invalid_arguments, c);
    } else {
      if (keyword || dstar) problem(SyntaxIssue::invalid_arguments, c);
      if (s == k.generator_expression && args > 1 && !text(c).starts_with("(")) problem(SyntaxIssue::invalid_arguments, c);
    }
  }
}

// Parameter names once each; no parameter without a default after one with (before *); a bare * needs a
// named parameter after it; ** last; / (3.8) once, not first, before *.
void TreeChecker::parameters(TSNode n) {
  const Kinds& k = m_k;
  std::vector<std::string_view> names;
  bool seen_default = false, star = false, dstar = false, bare_pending = false, slash = false;
  size_t params = 0;
  auto name_of = [&](TSNode p) {
    TSSymbol s = ts_node_symbol(p);
    TSNode name = p;
    if (s == k.default_parameter || s == k.typed_default_parameter) name = ts_node_child_by_field_id(p, k.f_name);
    else if (s == k.typed_parameter && ts_node_named_child_count(p) > 0) name = ts_node_named_child(p, 0);
    if (!ts_node_is_null(name) && (ts_node_symbol(name) == k.list_splat_pattern || ts_node_symbol(name) == k.dictionary_splat_pattern)) {
      name = ts_node_named_child_count(name) > 0 ? ts_node_named_child(name, 0) : TSNode{};
    }
    return name;
  };
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(n, i);
    TSSymbol s = ts_node_symbol(p);
    if (s == k.comment || s == k.line_continuation) continue;
    if (s == k.positional_separator) {
      needs(8, p);
      if (params == 0 || star || slash || dstar) problem(SyntaxIssue::invalid_parameters, p);
      slash = true;
      continue;
    }
    if (s == k.keyword_separator) {
      if (star || dstar) problem(SyntaxIssue::invalid_parameters, p);
      star = bare_pending = true;
      continue;
    }
    TSNode inner = s == k.typed_parameter && ts_node_named_child_count(p) > 0 ? ts_node_named_child(p, 0) : p;
    TSSymbol is = ts_node_symbol(inner);
    if (dstar) problem(SyntaxIssue::invalid_parameters, p); // anything after **kwargs
    if (is == k.list_splat_pattern) {
      if (star) problem(SyntaxIssue::invalid_parameters, p);
      star = true;
    } else if (is == k.dictionary_splat_pattern) {
      if (bare_pending) problem(SyntaxIssue::invalid_parameters, p);
      dstar = true;
    } else if (s == k.default_parameter || s == k.typed_default_parameter) {
      if (!star) seen_default = true;
      bare_pending = false;
    } else if (s == k.identifier || s == k.typed_parameter) {
      if (seen_default && !star) problem(SyntaxIssue::invalid_parameters, p);
      bare_pending = false;
    } else {
      problem(SyntaxIssue::invalid_parameters, p); // def f((a, b)): Python 2
      continue;
    }
    ++params;
    TSNode name = name_of(p);
    if (ts_node_is_null(name) || ts_node_symbol(name) != k.identifier) continue;
    std::string_view id = text(name);
    if (std::find(names.begin(), names.end(), id) != names.end()) problem(SyntaxIssue::invalid_parameters, p);
    if (reserved(id)) problem(SyntaxIssue::reserved_name, p);
    names.push_back(id);
  }
  if (bare_pending) problem(SyntaxIssue::invalid_parameters, n);
}

// *a in a list, tuple, set, call or (3.11) subscript; **a in a call or dict; (*a) nowhere.
void TreeChecker::starred(TSNode n, TSSymbol s) {
  const Kinds& k = m_k;
  if (s == k.parenthesized_list_splat) return problem(SyntaxIssue::invalid_starred, n);
  // *a := 1 and **a := 1: an assignment expression after a star needs parentheses.
  if (ts_node_named_child_count(n) > 0 && ts_node_symbol(ts_node_named_child(n, 0)) == k.named_expression) {
    return problem(SyntaxIssue::syntax_error, n);
  }
  // tree-sitter reads *a.b() as (*a.b)(): the star applies to the whole postfix expression.
  TSNode top = n;
  for (TSNode up = ts_node_parent(top); !ts_node_is_null(up); up = ts_node_parent(top)) {
    TSSymbol us = ts_node_symbol(up);
    if ((us != k.call && us != k.attribute && us != k.subscript) || !ts_node_eq(ts_node_named_child(up, 0), top)) break;
    top = up;
  }
  TSSymbol p = ts_node_symbol(ts_node_parent(top));
  if (s == k.dictionary_splat) {
    if (p != k.argument_list && p != k.dictionary) problem(SyntaxIssue::invalid_starred, n);
    return;
  }
  if (p == k.subscript) return needs(11, n);
  if (p != k.list && p != k.tuple && p != k.set && p != k.expression_list && p != k.argument_list) {
    problem(SyntaxIssue::invalid_starred, n);
  }
}

// return *a, b / yield *a, b (unparenthesized): 3.8.
void TreeChecker::starred_value(TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_symbol(c) == m_k.expression_list && has_child(c, m_k.list_splat)) needs(8, n);
  }
}

// for x in *a, b: 3.9.
void TreeChecker::expression_list(TSNode n) {
  TSNode parent = ts_node_parent(n);
  if (ts_node_symbol(parent) == m_k.for_statement && has_child(n, m_k.list_splat)) needs(9, n);
}

// nonlocal needs an enclosing function; a parameter cannot be declared global or nonlocal.
void TreeChecker::scope_statement(TSNode n, TSSymbol s, const Frame& f) {
  if (s == m_k.nonlocal_statement) {
    bool enclosing = false;
    for (const Frame* up = f.kind == Frame::module ? nullptr : f.parent; up != nullptr; up = up->parent) {
      enclosing = enclosing || up->kind == Frame::function || up->kind == Frame::lambda;
    }
    if (!enclosing) return problem(SyntaxIssue::invalid_scope, n);
    // The name must be bound in an enclosing function: a parameter, or a plain assignment, def, class
    // or for target there. impact models no more of the symbol table: otherwise it widens.
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (ts_node_symbol(c) != m_k.identifier) continue;
      std::string_view name = text(c);
      bool bound = false;
      for (const Frame* up = f.parent; up != nullptr && !bound; up = up->parent) {
        if (up->kind != Frame::function) continue;
        bound = std::find(up->params.begin(), up->params.end(), name) != up->params.end() ||
                (!ts_node_is_null(up->body) && binds(up->body, name, 0));
      }
      if (!bound) problem(SyntaxIssue::unsure_construct, n);
    }
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (ts_node_symbol(c) != m_k.identifier) continue;
    if (std::find(f.params.begin(), f.params.end(), text(c)) != f.params.end()) problem(SyntaxIssue::invalid_scope, n);
    // "annotated name 'g' can't be global" (or nonlocal), wherever the annotation is in the function
    // or class body (at module level `global g` is allowed beside `g: int`).
    if ((f.kind == Frame::function || f.kind == Frame::class_) && !ts_node_is_null(f.body) && annotates(f.body, text(c), 0)) {
      problem(SyntaxIssue::invalid_scope, n);
    }
    // "name 'x' is used prior to global declaration": impact does not model every scope, so it widens.
    if ((f.kind == Frame::function || f.kind == Frame::module) && !ts_node_is_null(f.body) &&
        named_before(f.body, text(c), ts_node_start_byte(n), 0))
      problem(SyntaxIssue::unsure_construct, n);
  }
}

// Whether `name` appears as a name (not an attribute or keyword) in `n` before byte `before`, outside
// nested definitions.
bool TreeChecker::named_before(TSNode n, std::string_view name, uint32_t before, unsigned depth) const {
  if (depth > 200 || ts_node_start_byte(n) >= before) return false;
  TSSymbol s = ts_node_symbol(n);
  if (s == m_k.identifier) return text(n) == name;
  if (s == m_k.global_statement || s == m_k.nonlocal_statement) return false;
  if (depth > 0 && (s == m_k.function_definition || s == m_k.class_definition || s == m_k.lambda)) {
    TSNode def_name = ts_node_child_by_field_id(n, m_k.f_name);
    return !ts_node_is_null(def_name) && text(def_name) == name;
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (s == m_k.attribute && i > 0) continue;        // obj.name: an attribute, not a name
    if (s == m_k.keyword_argument && i == 0) continue; // f(name=...)
    if (named_before(c, name, before, depth + 1)) return true;
  }
  return false;
}

// Whether `name` is bound in `n` by a simple form (NAME = ..., NAME: T = ..., NAME += ..., def NAME,
// class NAME, for NAME in, NAME := ...) in its own scope: not inside a nested def, class or lambda.
bool TreeChecker::binds(TSNode n, std::string_view name, unsigned depth) const {
  if (depth > 200) return false;
  TSSymbol s = ts_node_symbol(n);
  TSNode left{};
  if (s == m_k.assignment || s == m_k.augmented_assignment || s == m_k.for_statement) left = ts_node_child_by_field_id(n, m_k.f_left);
  else if (s == m_k.function_definition || s == m_k.class_definition || s == m_k.named_expression) left = ts_node_child_by_field_id(n, m_k.f_name);
  if (!ts_node_is_null(left) && ts_node_symbol(left) == m_k.identifier && text(left) == name) return true;
  if (depth > 0 && (s == m_k.function_definition || s == m_k.class_definition || s == m_k.lambda)) return false;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    if (binds(ts_node_named_child(n, i), name, depth + 1)) return true;
  }
  return false;
}

bool TreeChecker::annotates(TSNode n, std::string_view name, unsigned depth) const {
  if (depth > 200) return false;
  TSSymbol s = ts_node_symbol(n);
  if (s == m_k.assignment && !ts_node_is_null(ts_node_child_by_field_id(n, m_k.f_type))) {
    TSNode left = ts_node_child_by_field_id(n, m_k.f_left);
    if (!ts_node_is_null(left) && ts_node_symbol(left) == m_k.identifier && text(left) == name) return true;
  }
  if (depth > 0 && (s == m_k.function_definition || s == m_k.class_definition || s == m_k.lambda)) return false;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    if (annotates(ts_node_named_child(n, i), name, depth + 1)) return true;
  }
  return false;
}

// `x as y` outside a pattern: a with item (parenthesized when it is the statement's only item), an
// except clause. tree-sitter reads it anywhere an expression goes (`f(a as b)`, `x = a as b`).
void TreeChecker::as_expression(TSNode n) {
  // tree-sitter binds `as` to the last operand of an operator (`with a if c else b as out:` reads as
  // `a if c else (b as out)`); Python binds it to the whole expression. Up through such operators.
  TSNode up = ts_node_parent(n);
  for (TSNode at = n; !ts_node_is_null(up); at = up, up = ts_node_parent(up)) {
    TSSymbol s = ts_node_symbol(up);
    bool op = s == m_k.conditional_expression || s == m_k.boolean_operator || s == m_k.not_operator ||
              s == m_k.binary_operator || s == m_k.unary_operator || s == m_k.comparison_operator;
    uint32_t count = ts_node_named_child_count(up);
    if (!op || count == 0 || !ts_node_eq(ts_node_named_child(up, count - 1), at)) break;
  }
  TSSymbol p = ts_node_symbol(up);
  if (p == m_k.case_pattern || p == m_k.with_item || p == m_k.except_clause || p == m_k.except_group_clause) return;
  if (p == m_k.parenthesized_expression || p == m_k.tuple) {
    TSNode item = ts_node_parent(up);
    if (ts_node_symbol(item) == m_k.with_item && ts_node_named_child_count(ts_node_parent(item)) == 1) return;
  }
  problem(SyntaxIssue::syntax_error, n);
}

// Before 3.9 a decorator is a dotted name, optionally called.
void TreeChecker::decorator(TSNode n) {
  if (ts_node_named_child_count(n) == 0) return;
  TSNode e = ts_node_named_child(n, 0);
  if (ts_node_symbol(e) == m_k.call) e = ts_node_child_by_field_id(e, m_k.f_function);
  while (!ts_node_is_null(e) && ts_node_symbol(e) == m_k.attribute) e = ts_node_named_child(e, 0);
  if (ts_node_is_null(e) || ts_node_symbol(e) != m_k.identifier) needs(9, n);
}

// A case that matches anything (a capture, _, a group or `as` around one; no guard) must be the last one.
void TreeChecker::cases(TSNode n) {
  TSNode body = ts_node_child_by_field_id(n, m_k.f_body);
  if (ts_node_is_null(body)) return;
  uint32_t count = ts_node_named_child_count(body);
  for (uint32_t i = 0; i + 1 < count; ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (ts_node_symbol(c) != m_k.case_clause) continue;
    if (!ts_node_is_null(ts_node_child_by_field_id(c, m_k.f_guard)) || ts_node_named_child_count(c) < 2) continue;
    if (irrefutable_case(c) && has_later_case(body, i)) problem(SyntaxIssue::invalid_clause, c);
  }
}

bool TreeChecker::has_later_case(TSNode body, uint32_t i) const {
  uint32_t count = ts_node_named_child_count(body);
  for (uint32_t j = i + 1; j < count; ++j) {
    if (ts_node_symbol(ts_node_named_child(body, j)) == m_k.case_clause) return true;
  }
  return false;
}

// except A, B: reads as a tuple from 3.14 (before, a syntax error); `as` binds a name only.
void TreeChecker::except_clause(TSNode n) {
  TSNode alias = ts_node_child_by_field_id(n, m_k.f_alias);
  if (has_token(n, ",")) {
    if (has_token(n, "as")) problem(SyntaxIssue::syntax_error, n);
    else needs(14, n);
  } else if (!ts_node_is_null(alias) && (ts_node_symbol(alias) != m_k.identifier || reserved(text(alias)))) {
    problem(SyntaxIssue::invalid_target, n);
  }
  if (ts_node_symbol(n) == m_k.except_group_clause && ts_node_named_child_count(n) < 2) problem(SyntaxIssue::invalid_clause, n);
}

// A bare except: last; except and except* not mixed; else needs an except; something after try.
void TreeChecker::try_clauses(TSNode n) {
  bool except = false, group = false, bare_seen = false, handlers = false, finally = false;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    TSSymbol s = ts_node_symbol(c);
    if (s == m_k.except_clause || s == m_k.except_group_clause) {
      if (bare_seen) problem(SyntaxIssue::invalid_clause, c);
      (s == m_k.except_clause ? except : group) = true;
      handlers = true;
      bare_seen = s == m_k.except_clause && ts_node_is_null(ts_node_child_by_field_id(c, m_k.f_value));
    } else if (s == m_k.else_clause && !handlers) {
      problem(SyntaxIssue::invalid_clause, c);
    } else if (s == m_k.finally_clause) {
      finally = true;
    }
  }
  if (except && group) problem(SyntaxIssue::invalid_clause, n);
  if (!handlers && !finally) problem(SyntaxIssue::syntax_error, n);
}

} // namespace impact::python
