// An object's own module as an import's argument (object_modules.hpp).
#include "python/object_modules.hpp"

#include "python/literals.hpp"

#include <array>
#include <cstring>

namespace impact::python {

namespace {

// `x.__module__`, `type(self).__module__`, or `getattr(x, "__module__"[, default])`.
bool module_of_object(TSNode node, std::string_view source, const Grammar& g) {
  TSSymbol s = ts_node_symbol(node);
  if (s == g.attribute) {
    TSNode attr = ts_node_child_by_field_id(node, g.f_attribute);
    return !ts_node_is_null(attr) && node_text(attr, source) == "__module__";
  }
  if (s != g.call) return false;
  TSNode fn = ts_node_child_by_field_id(node, g.f_function);
  TSNode args = ts_node_child_by_field_id(node, g.f_arguments);
  if (ts_node_is_null(fn) || ts_node_is_null(args) || node_text(fn, source) != "getattr") return false;
  if (ts_node_named_child_count(args) < 2 || ts_node_named_child_count(args) > 3) return false;
  auto name = string_value(ts_node_named_child(args, 1), source, g);
  return name && *name == "__module__";
}

// The parents under which an identifier reads a name, never binds it.
constexpr std::array<const char*, 22> k_reading = {
    "attribute",        "call",          "argument_list",   "comparison_operator", "boolean_operator", "not_operator",
    "binary_operator",  "unary_operator", "subscript",      "return_statement",    "conditional_expression",
    "parenthesized_expression", "keyword_argument", "tuple", "list", "set", "pair", "interpolation",
    "if_statement",     "elif_clause",   "while_statement", "assert_statement"};

bool reads_only(TSNode parent) {
  const char* type = ts_node_type(parent);
  for (const char* r : k_reading) {
    if (std::strcmp(type, r) == 0) return true;
  }
  return false;
}

// Whether every binding of `name` under a node (nested definitions included) is an assignment of an
// object's module; `assigned`: there is one.
struct Bindings {
  std::string_view name;
  std::string_view source;
  const Grammar& g;
  bool assigned = false;

  bool check(TSNode node) {
    // Nested definitions are looked at too: `nonlocal name` there rebinds it.
    if (ts_node_symbol(node) == g.identifier && node_text(node, source) == name) {
      TSNode parent = ts_node_parent(node);
      if (ts_node_symbol(parent) == g.assignment) {
        TSNode left = ts_node_child_by_field_id(parent, g.f_left);
        if (ts_node_eq(left, node)) {
          TSNode right = ts_node_child_by_field_id(parent, g.f_right);
          if (ts_node_is_null(right) || !module_of_object(right, source, g)) return false;
          assigned = true;
          return true;
        }
      }
      return reads_only(parent);
    }
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      if (!check(ts_node_named_child(node, i))) return false;
    }
    return true;
  }
};

} // namespace

bool names_objects_module(TSNode argument, std::string_view source) {
  const Grammar& g = Grammar::get();
  if (module_of_object(argument, source, g)) return true;
  if (ts_node_symbol(argument) != g.identifier) return false;
  TSNode function = ts_node_parent(argument);
  while (!ts_node_is_null(function) && ts_node_symbol(function) != g.function_definition) {
    if (ts_node_symbol(function) == g.class_definition) return false;
    function = ts_node_parent(function);
  }
  if (ts_node_is_null(function)) return false;
  TSNode params = ts_node_child_by_field_id(function, g.f_parameters);
  TSNode body = ts_node_child_by_field_id(function, g.f_body);
  if (ts_node_is_null(body)) return false;
  Bindings bindings{node_text(argument, source), source, g};
  // A parameter of that name is bound by every caller.
  if (!ts_node_is_null(params) && !Bindings{bindings.name, source, g}.check(params)) return false;
  return bindings.check(body) && bindings.assigned;
}

} // namespace impact::python
