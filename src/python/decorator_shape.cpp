#include "python/decorator_shape.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace impact::python {

namespace {

std::string_view last_name(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

// The first parameter's name when it is a plain one: `func`, `func: F`, `func=None`, `func: F = None`.
std::string_view first_param(TSNode def, std::string_view src) {
  TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
  if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0) return {};
  TSNode p = ts_node_named_child(params, 0);
  std::string_view t = type_of(p);
  if (t == "identifier") return node_text(p, src);
  if (t == "typed_parameter" && ts_node_named_child_count(p) > 0 && type_of(ts_node_named_child(p, 0)) == "identifier") {
    return node_text(ts_node_named_child(p, 0), src);
  }
  if (t == "default_parameter" || t == "typed_default_parameter") {
    TSNode name = ts_node_child_by_field_name(p, "name", 4);
    if (!ts_node_is_null(name) && type_of(name) == "identifier") return node_text(name, src);
  }
  return {};
}

// Calls that only look at a function: they keep no reference to it and do not call it.
bool predicate(std::string_view callee) {
  static constexpr std::array<std::string_view, 8> k_names = {
      "callable",    "isinstance",  "iscoroutinefunction", "isfunction", "ismethod", "isclass",
      "isgeneratorfunction", "isasyncgenfunction"};
  return std::find(k_names.begin(), k_names.end(), last_name(callee)) != k_names.end();
}

// Attributes of the decorated function that its decorator may read while decorating: names and text,
// no code.
bool descriptive_attribute(std::string_view name) {
  return name == "__name__" || name == "__qualname__" || name == "__module__" || name == "__doc__";
}

struct Nested {
  std::string_view name;
  bool decorator = false; // itself a wrapping decorator (a factory returns it)
};

// One candidate function F(p, ...): its direct body is depth 0, the bodies of the functions defined in
// it depth 1, anything deeper (and every lambda and class body) depth 2, where p may not appear.
class Shape {
public:
  Shape(std::string_view src, std::string_view name, std::string_view param, std::vector<Nested> nested)
      : m_src(src), m_name(name), m_param(param), m_nested(std::move(nested)) {}

  // `direct`: some return is the parameter or a wrapper of it (not only a factory's decorators).
  bool wraps(TSNode body, bool& direct) {
    bool any_return = false;
    direct = false;
    if (!returns(body, direct, any_return) || !any_return) return false;
    // A factory only: its parameters are its own business; what it returns was checked on its own.
    if (!direct) return true;
    visit(body, 0);
    return m_ok;
  }

private:
  const Nested* nested(std::string_view name) const {
    auto it = std::find_if(m_nested.begin(), m_nested.end(), [&](const Nested& n) { return n.name == name; });
    return it == m_nested.end() ? nullptr : &*it;
  }

  std::string_view text(TSNode n) const { return node_text(n, m_src); }

  // Every return of the direct body: p (or a wrapper of it: `direct`), a nested wrapping decorator, or
  // partial(F, ...). A yield makes F a generator: not a decorator of that shape.
  bool returns(TSNode node, bool& direct, bool& any) const {
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(node, i);
      std::string_view t = type_of(c);
      if (t == "function_definition" || t == "class_definition" || t == "lambda") continue;
      if (t == "yield") return false;
      if (t == "return_statement") {
        any = true;
        if (ts_node_named_child_count(c) != 1) return false;
        TSNode value = ts_node_named_child(c, 0);
        std::string_view v = text(value);
        if (type_of(value) == "identifier") {
          if (v == m_param) {
            direct = true;
          } else if (const Nested* n = nested(v)) {
            direct = direct || !n->decorator;
          } else {
            return false;
          }
        } else if (!self_partial(value)) {
          return false;
        }
        continue;
      }
      if (!returns(c, direct, any)) return false;
    }
    return true;
  }

  // partial(F, ...) or functools.partial(F, ...): F again, with arguments bound.
  bool self_partial(TSNode value) const {
    if (type_of(value) != "call") return false;
    TSNode fn = ts_node_child_by_field_name(value, "function", 8);
    TSNode args = ts_node_child_by_field_name(value, "arguments", 9);
    if (ts_node_is_null(fn) || ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return false;
    std::string callee = dotted_text(fn, m_src);
    if (callee != "partial" && callee != "functools.partial") return false;
    TSNode first = ts_node_named_child(args, 0);
    return type_of(first) == "identifier" && text(first) == m_name;
  }

  void visit(TSNode node, int depth) {
    if (!m_ok) return;
    std::string_view t = type_of(node);
    if (t == "identifier") return identifier(node, depth);
    if (t == "function_definition") {
      // Parameters' defaults and annotations are read where the def runs; the body when it is called.
      uint32_t count = ts_node_named_child_count(node);
      TSNode body = ts_node_child_by_field_name(node, "body", 4);
      TSNode name = ts_node_child_by_field_name(node, "name", 4);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(node, i);
        if (same_node(c, name)) continue;
        visit(c, same_node(c, body) ? std::min(depth + 1, 2) : depth);
      }
      return;
    }
    if (t == "class_definition" || t == "lambda") depth = 2;
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) visit(ts_node_named_child(node, i), depth);
  }

  void identifier(TSNode node, int depth) {
    TSNode parent = ts_node_parent(node);
    if (ts_node_is_null(parent)) return;
    std::string_view pt = type_of(parent);
    // `x.p` and `f(p=...)` name an attribute and a keyword, not the variable.
    if (pt == "attribute" && same_node(ts_node_child_by_field_name(parent, "attribute", 9), node)) return;
    if (pt == "keyword_argument" && same_node(ts_node_child_by_field_name(parent, "name", 4), node)) return;
    std::string_view name = text(node);
    if (name == m_param) {
      m_ok = param_use(node, depth);
    } else if (const Nested* n = nested(name); n != nullptr && !n->decorator && depth == 0) {
      m_ok = wrapper_use(node);
    }
  }

  // Where p may appear: as what the wrapper calls or reads attributes of, handed to functools.wraps,
  // update_wrapper, typing.cast or a predicate, compared, returned, or given attributes.
  bool param_use(TSNode node, int depth) const {
    if (depth >= 2) return false;
    TSNode parent = ts_node_parent(node);
    std::string_view pt = type_of(parent);
    if (pt == "argument_list") {
      TSNode call = ts_node_parent(parent);
      TSNode fn = ts_node_child_by_field_name(call, "function", 8);
      if (ts_node_is_null(fn)) return false;
      std::string callee = dotted_text(fn, m_src);
      uint32_t index = position(parent, node);
      if (last_name(callee) == "wraps" && index == 0) return true;
      if (last_name(callee) == "update_wrapper" && index == 1) return true;
      if (last_name(callee) == "cast" && index == 1) return param_use(call, depth);
      return predicate(callee);
    }
    if (pt == "comparison_operator" || pt == "not_operator") return true;
    if (pt == "attribute") {
      if (depth == 1) return true;
      TSNode attribute = ts_node_child_by_field_name(parent, "attribute", 9);
      return stored(parent) || descriptive_attribute(text(attribute));
    }
    if (depth == 1) return pt == "call" && same_node(ts_node_child_by_field_name(parent, "function", 8), node);
    if (pt == "return_statement") return true;
    if ((pt == "if_statement" || pt == "elif_clause") &&
        same_node(ts_node_child_by_field_name(parent, "condition", 9), node)) {
      return true;
    }
    // wrapper.__wrapped__ = func
    if (pt == "assignment" && same_node(ts_node_child_by_field_name(parent, "right", 5), node)) {
      TSNode left = ts_node_child_by_field_name(parent, "left", 4);
      if (ts_node_is_null(left) || type_of(left) != "attribute") return false;
      TSNode object = ts_node_child_by_field_name(left, "object", 6);
      const Nested* n = ts_node_is_null(object) ? nullptr : nested(text(object));
      return n != nullptr && !n->decorator;
    }
    return false;
  }

  // Where the wrapper may appear in F's own body: returned, given attributes, or update_wrapper's target.
  bool wrapper_use(TSNode node) const {
    TSNode parent = ts_node_parent(node);
    std::string_view pt = type_of(parent);
    if (pt == "return_statement" || pt == "attribute") return true;
    if (pt != "argument_list") return false;
    TSNode fn = ts_node_child_by_field_name(ts_node_parent(parent), "function", 8);
    return !ts_node_is_null(fn) && last_name(dotted_text(fn, m_src)) == "update_wrapper" && position(parent, node) == 0;
  }

  // `x.attr = value` (or `+=`): the attribute is written, not read.
  static bool stored(TSNode attribute) {
    TSNode parent = ts_node_parent(attribute);
    std::string_view pt = type_of(parent);
    return (pt == "assignment" || pt == "augmented_assignment") &&
           same_node(ts_node_child_by_field_name(parent, "left", 4), attribute);
  }

  static uint32_t position(TSNode list, TSNode child) {
    uint32_t count = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < count; ++i) {
      if (same_node(ts_node_named_child(list, i), child)) return i;
    }
    return count;
  }

  std::string_view m_src, m_name, m_param;
  std::vector<Nested> m_nested;
  bool m_ok = true;
};

} // namespace

void mark_wrapping_decorators(TSNode root, std::string_view source, FileFacts& facts) {
  auto& symbols = facts.symbols;
  // Nested definitions come after their parent: the inner decorator of a factory is known first.
  for (size_t i = symbols.size(); i-- > 0;) {
    Symbol& f = symbols[i];
    if (f.kind != SymbolKind::function || f.is_async || !f.decorators.empty()) continue;
    // Its nested definitions follow it, before the first symbol that is not inside it.
    std::vector<Nested> nested;
    for (size_t k = i + 1; k < symbols.size() && symbols[k].parent >= static_cast<int32_t>(i); ++k) {
      if (symbols[k].parent == static_cast<int32_t>(i) && symbols[k].kind == SymbolKind::function) {
        nested.push_back({symbols[k].name(), symbols[k].wraps_only});
      }
    }
    // Cheap test first: a decorator returns its parameter or a function of its own.
    std::string_view body_text = source.substr(f.body_begin, f.body_end - f.body_begin);
    if (nested.empty() && (f.params.empty() || body_text.find("return " + f.params.front()) == std::string_view::npos)) continue;
    TSNode def = definition_starting_at(root, f.header_begin);
    if (ts_node_is_null(def)) continue;
    // A factory's parameters are its own (`def signature(*arguments)`, `def deco()`); a function it
    // wraps must be a plain first parameter.
    std::string_view param = first_param(def, source);
    TSNode body = ts_node_child_by_field_name(def, "body", 4);
    if (ts_node_is_null(body)) continue;
    bool direct = false;
    bool wraps = Shape(source, f.name(), param, std::move(nested)).wraps(body, direct);
    if (param.empty() && direct) wraps = false; // it returns a function of its own, wrapping nothing given
    f.wraps_only = wraps;
    f.wraps_direct = wraps && direct;
  }
}

} // namespace impact::python
