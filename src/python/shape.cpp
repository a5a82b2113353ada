// shape_of(): structural hashes of a file's symbols for the semantic diff. Each hash covers node types
// and leaf texts in tree order, so whitespace and line breaks never matter; comments are left out of
// every hash but `with_comments`.
#include "impact/python/facts.hpp"
#include "impact/python/shape.hpp"
#include "python/compile_check.hpp"
#include "python/grammar.hpp"
#include "python/main_guard.hpp"
#include "impact/python/source_view.hpp"

#include <algorithm>
#include <memory>

namespace impact {

namespace {

using python::Grammar;
using python::node_text;

constexpr uint64_t k_seed = 0xcbf29ce484222325ULL;

struct Hasher {
  uint64_t h = k_seed;
  void mix(uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0x100000001b3ULL;
  }
  void mix(std::string_view s) {
    for (char c : s) mix(static_cast<uint64_t>(static_cast<unsigned char>(c)));
    mix(uint64_t{0xff});
  }
};

class ShapeBuilder {
public:
  ShapeBuilder(std::string_view source, FileShape& shape)
      : m_g(Grammar::get()), m_src(source), m_shape(shape),
        m_line_continuation(ts_language_symbol_for_name(m_g.language, "line_continuation", 17, true)) {}

  // Hash of a subtree in tree order; comments only when `comments` is set.
  void hash(TSNode node, Hasher& h, bool comments) const {
    if (ts_node_is_null(node)) return;
    TSSymbol s = ts_node_symbol(node);
    if (s == m_g.comment && !comments) return;
    if (s == m_line_continuation) return; // a backslash line break is layout
    h.mix(static_cast<uint64_t>(s) << 1 | 1);
    uint32_t count = ts_node_child_count(node);
    // A string's text is its meaning (an f-string's format spec lives in no leaf of its own).
    if (count == 0 || s == m_g.string) {
      h.mix(node_text(node, m_src));
      return;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        hash(ts_tree_cursor_current_node(&cursor), h, comments);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    h.mix(uint64_t{2});
  }

  uint64_t hash_of(TSNode node, bool comments = false) const {
    Hasher h;
    if (!ts_node_is_null(node)) hash(node, h, comments);
    return h.h;
  }

  bool is_docstring(TSNode statement) const {
    if (ts_node_symbol(statement) != m_g.expression_statement || ts_node_named_child_count(statement) != 1) return false;
    TSSymbol s = ts_node_symbol(ts_node_named_child(statement, 0));
    return s == m_g.string || s == m_g.concatenated_string;
  }

  // The first non-comment named statement of a block, if it is a docstring.
  TSNode docstring_of(TSNode block) const {
    uint32_t count = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode child = ts_node_named_child(block, i);
      if (ts_node_symbol(child) == m_g.comment) continue;
      return is_docstring(child) ? child : TSNode{};
    }
    return TSNode{};
  }

  void module(TSNode root) {
    Hasher imports, code, main, type_checking;
    TSNode doc = docstring_of(root);
    m_shape.docstring = hash_of(doc);
    m_main = &main;
    m_type_checking = &type_checking;
    module_statements(root, imports, code, doc);
    m_main = nullptr;
    m_type_checking = nullptr;
    m_shape.imports = imports.h;
    m_shape.module_code = code.h;
    m_shape.main_block = main.h;
    m_shape.type_checking = type_checking.h;
    m_shape.with_comments = hash_of(root, true);
    m_shape.tokens = hash_of(root, false);
    m_shape.parse_error = ts_node_has_error(root);
    m_shape.layout_error = !layout_is_cpythons(root);
  }

  // Whether every byte outside the tokens (and outside strings and comments) is layout to CPython:
  // spaces, tabs, form feeds, line ends and backslash continuations, and a UTF-8 BOM at the start.
  bool layout_is_cpythons(TSNode root) const {
    size_t at = m_src.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    bool ok = true;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    for (bool more = true; ok && more;) {
      TSNode node = ts_tree_cursor_current_node(&cursor);
      // A string is one token: its contents are no layout (an f-string's fields are left unchecked).
      bool leaf = ts_node_child_count(node) == 0 || ts_node_symbol(node) == m_g.string;
      if (leaf && ts_node_end_byte(node) > ts_node_start_byte(node)) {
        ok = layout_only(at, ts_node_start_byte(node));
        at = std::max<size_t>(at, ts_node_end_byte(node));
      }
      if (!leaf && ts_tree_cursor_goto_first_child(&cursor)) continue;
      while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
        if (!ts_tree_cursor_goto_parent(&cursor)) {
          more = false;
          break;
        }
      }
    }
    ts_tree_cursor_delete(&cursor);
    return ok && layout_only(at, m_src.size());
  }

  bool layout_only(size_t begin, size_t end) const {
    for (size_t i = begin; i < end && i < m_src.size(); ++i) {
      char c = m_src[i];
      if (c == ' ' || c == '\t' || c == '\f' || c == '\n') continue;
      if (c == '\\' && i + 1 < end && m_src[i + 1] == '\n') {
        ++i;
        continue;
      }
      return false;
    }
    return true;
  }

private:
  bool is_definition(TSSymbol s) const {
    return s == m_g.function_definition || s == m_g.class_definition || s == m_g.decorated_definition;
  }

  // Module-level statements, descending into module-level compound statements (if/try/with/for) so
  // that definitions inside them are still symbols and imports inside them still imports. The body
  // of a main guard directly in the module is hashed whole into main_block instead.
  void module_statements(TSNode node, Hasher& imports, Hasher& code, TSNode doc) {
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode child = ts_node_named_child(node, i);
      TSSymbol s = ts_node_symbol(child);
      if (s == m_g.comment || ts_node_eq(child, doc)) continue;
      // A main guard's body; its test and elif/else branches (which run on import) stay module code.
      // Likewise the body of an `if TYPE_CHECKING:`, which never runs.
      TSNode guarded{};
      Hasher* guard = nullptr;
      if (m_main != nullptr && s == m_g.if_statement && ts_node_symbol(node) == m_g.module) {
        TSNode condition = ts_node_child_by_field_id(child, m_g.f_condition);
        if (python::is_main_test(condition, m_src)) guard = m_main;
        else if (python::is_type_checking_test(condition, m_src)) guard = m_type_checking;
        if (guard != nullptr) guarded = ts_node_child_by_field_id(child, m_g.f_consequence);
      }
      if (s == m_g.import_statement || s == m_g.import_from_statement || s == m_g.future_import_statement) {
        hash(child, imports, false);
      } else if (is_definition(s)) {
        define(child, "", false);
      } else if (s == m_g.if_statement || s == m_g.try_statement || s == m_g.with_statement ||
                 s == m_g.for_statement || s == m_g.while_statement || s == m_g.block ||
                 s == m_g.elif_clause || s == m_g.else_clause || s == m_g.except_clause ||
                 s == m_g.finally_clause || s == m_g.match_statement || s == m_g.case_clause ||
                 s == m_g.except_group_clause) {
        // The statement's own parts (conditions, headers) are module code; its blocks recurse.
        code.mix(static_cast<uint64_t>(s));
        uint32_t parts = ts_node_named_child_count(child);
        for (uint32_t k = 0; k < parts; ++k) {
          TSNode part = ts_node_named_child(child, k);
          TSSymbol ps = ts_node_symbol(part);
          if (!ts_node_is_null(guarded) && ts_node_eq(part, guarded)) {
            guard->mix(uint64_t{3});
            hash(part, *guard, false);
          } else if (ps == m_g.block || ps == m_g.elif_clause || ps == m_g.else_clause || ps == m_g.except_clause ||
                     ps == m_g.finally_clause || ps == m_g.case_clause || ps == m_g.except_group_clause) {
            Hasher nested_code;
            module_statements(part, imports, nested_code, TSNode{});
            code.mix(nested_code.h);
          } else if (ps != m_g.comment) {
            hash(part, code, false);
          }
        }
      } else {
        hash(child, code, false);
      }
    }
  }

  // A def or class (possibly decorated) with qualified-name prefix `prefix`.
  void define(TSNode outer, const std::string& prefix, bool in_class) {
    TSNode def = outer;
    Hasher at_definition;
    if (ts_node_symbol(outer) == m_g.decorated_definition) {
      def = ts_node_child_by_field_id(outer, m_g.f_definition);
      uint32_t count = ts_node_named_child_count(outer);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode d = ts_node_named_child(outer, i);
        if (ts_node_symbol(d) == m_g.decorator) hash(d, at_definition, false);
      }
    }
    if (ts_node_is_null(def)) return;
    TSNode name = ts_node_child_by_field_id(def, m_g.f_name);
    if (ts_node_is_null(name)) return;
    bool is_class = ts_node_symbol(def) == m_g.class_definition;
    SymbolShape sym;
    sym.qualname = prefix.empty() ? std::string(node_text(name, m_src)) : prefix + "." + std::string(node_text(name, m_src));
    sym.kind = is_class ? SymbolKind::class_ : (in_class ? SymbolKind::method : SymbolKind::function);
    sym.lines = LineSpan{python::line_of(ts_node_start_point(outer)), python::line_of(ts_node_end_point(outer))};
    sym.with_comments = hash_of(outer, true);
    TSNode body = ts_node_child_by_field_id(def, m_g.f_body);
    TSNode doc = ts_node_is_null(body) ? TSNode{} : docstring_of(body);
    sym.docstring = hash_of(doc);
    size_t index = m_shape.symbols.size();
    m_shape.symbols.push_back(sym);
    if (is_class) {
      hash(ts_node_child_by_field_id(def, m_g.f_superclasses), at_definition, false);
      hash(ts_node_child_by_field_id(def, m_g.f_name), at_definition, false);
      // The class body runs when the class statement runs; its methods are symbols of their own.
      if (!ts_node_is_null(body)) class_body(body, sym.qualname, at_definition, doc);
    } else {
      function_header(def, at_definition, m_shape.symbols[index]);
      Hasher b;
      if (!ts_node_is_null(body)) {
        uint32_t count = ts_node_named_child_count(body);
        for (uint32_t i = 0; i < count; ++i) {
          TSNode stmt = ts_node_named_child(body, i);
          if (ts_node_eq(stmt, doc)) continue;
          hash(stmt, b, false);
          // Nested definitions are part of the body and also symbols of their own.
          nested_definitions(stmt, sym.qualname);
        }
      }
      m_shape.symbols[index].body = b.h;
    }
    m_shape.symbols[index].at_definition = at_definition.h;
  }

  void class_body(TSNode body, const std::string& qualname, Hasher& at_definition, TSNode doc) {
    uint32_t count = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode stmt = ts_node_named_child(body, i);
      TSSymbol s = ts_node_symbol(stmt);
      if (s == m_g.comment || ts_node_eq(stmt, doc)) continue;
      if (is_definition(s)) {
        // Methods are symbols of their own; their decorators and defaults are in their own shape.
        define(stmt, qualname, true);
      } else {
        hash(stmt, at_definition, false);
      }
    }
  }

  // Definitions anywhere inside a function body (inside if/for/with too): symbols of their own.
  void nested_definitions(TSNode node, const std::string& prefix) {
    TSSymbol s = ts_node_symbol(node);
    if (is_definition(s)) {
      define(node, prefix, false);
      return;
    }
    if (s != m_g.block && s != m_g.if_statement && s != m_g.try_statement && s != m_g.with_statement &&
        s != m_g.for_statement && s != m_g.while_statement && s != m_g.elif_clause && s != m_g.else_clause &&
        s != m_g.except_clause && s != m_g.finally_clause && s != m_g.match_statement && s != m_g.case_clause) {
      return;
    }
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) nested_definitions(ts_node_named_child(node, i), prefix);
  }

  // Parameters split in two: names and kinds (the signature), and what runs at definition time
  // (default values and annotations).
  void function_header(TSNode def, Hasher& at_definition, SymbolShape& sym) {
    Hasher signature;
    TSNode params = ts_node_child_by_field_id(def, m_g.f_parameters);
    if (!ts_node_is_null(params)) {
      uint32_t count = ts_node_named_child_count(params);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode p = ts_node_named_child(params, i);
        TSSymbol s = ts_node_symbol(p);
        signature.mix(static_cast<uint64_t>(s));
        TSNode name = ts_node_child_by_field_id(p, m_g.f_name);
        TSNode value = ts_node_child_by_field_id(p, m_g.f_value);
        TSNode type = ts_node_child_by_field_id(p, ts_language_field_id_for_name(m_g.language, "type", 4));
        if (!ts_node_is_null(name)) hash(name, signature, false);
        else if (ts_node_is_null(value) && ts_node_is_null(type)) hash(p, signature, false);
        else if (s == m_g.typed_parameter && ts_node_named_child_count(p) > 0) hash(ts_node_named_child(p, 0), signature, false);
        if (!ts_node_is_null(value)) hash(value, at_definition, false);
        if (!ts_node_is_null(type)) hash(type, at_definition, false);
      }
    }
    TSNode returns = ts_node_child_by_field_id(def, ts_language_field_id_for_name(m_g.language, "return_type", 11));
    if (!ts_node_is_null(returns)) hash(returns, at_definition, false);
    // async changes how the function is called.
    if (ts_node_child_count(def) > 0) signature.mix(node_text(ts_node_child(def, 0), m_src));
    sym.signature = signature.h;
  }

  const Grammar& m_g;
  std::string_view m_src;
  FileShape& m_shape;
  TSSymbol m_line_continuation;
  Hasher* m_main = nullptr; // while the module's statements are read: where a main guard's body goes
  Hasher* m_type_checking = nullptr; // ... and an `if TYPE_CHECKING:` body
};

} // namespace

FileShape shape_of(std::string_view raw) {
  FileShape shape;
  std::string buffer;
  std::string_view source = python::cpython_source(raw, buffer);
  python::Parser parser;
  std::unique_ptr<TSTree, python::TreeDeleter> tree(parser.parse(source));
  if (!tree) {
    shape.parse_error = true;
    shape.compile = python::check_compiles(source, TSNode{});
    return shape;
  }
  ShapeBuilder(source, shape).module(ts_tree_root_node(tree.get()));
  shape.compile = python::check_compiles(source, ts_tree_root_node(tree.get()));
  return shape;
}

} // namespace impact
