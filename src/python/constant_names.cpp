// Module-level names whose value no code of the file changes (python/constant_names.hpp).
#include "python/constant_names.hpp"

#include <tsl/robin_map.h>

#include <algorithm>
#include <bitset>
#include <memory>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace impact::python {

namespace {

// What a module-level value is, as far as keeping a result in it goes.
enum class Kind : uint8_t {
  none,      // anything else: it may hold or take anything
  immutable, // str, bytes, number, None, a tuple of such, a builtin type, a compiled pattern
  container, // a dict, list or set whose items are all immutable
  logger,    // logging.getLogger(...)
};

// What one use of the name does to its value.
enum class Use : uint8_t { read, write, escape };

bool one_of(std::string_view s, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

TSNode field(TSNode n, const char* name) { return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name))); }

// A node and its ancestors, the root first: libtree-sitter 0.20 finds a node's parent by descending
// from the root again, so the walk down to an occurrence keeps the way it came.
using Path = std::vector<TSNode>;

// Fills `path` with the way from `root` down to the identifier at [begin, end); false when there is none.
bool path_to(TSNode root, uint32_t begin, uint32_t end, TSTreeCursor& cursor, Path& path) {
  path.assign(1, root);
  ts_tree_cursor_reset(&cursor, root);
  for (;;) {
    TSNode n = path.back();
    if (ts_node_start_byte(n) == begin && ts_node_end_byte(n) == end && type_of(n) == "identifier") return true;
    if (ts_tree_cursor_goto_first_child_for_byte(&cursor, begin) < 0) return false;
    TSNode child = ts_tree_cursor_current_node(&cursor);
    // libtree-sitter 0.20 stops at a child that ends where the goal starts (the `(` before a name).
    while (ts_node_end_byte(child) <= begin) {
      if (!ts_tree_cursor_goto_next_sibling(&cursor)) return false;
      child = ts_tree_cursor_current_node(&cursor);
    }
    if (ts_node_start_byte(child) > begin) return false;
    path.push_back(child);
  }
}

// Whether path[i] is written to where it stands: the target of an assignment, a `for`, a `with ... as`,
// a walrus or a `del`, through any nesting of target lists.
bool store_position(const Path& path, size_t i) {
  for (; i > 0; --i) {
    TSNode n = path[i], up = path[i - 1];
    std::string_view t = type_of(up);
    if (one_of(t, {"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "parenthesized_expression",
                   "expression_list", "tuple", "list"})) {
      continue;
    }
    if (t == "assignment" || t == "augmented_assignment" || t == "for_statement" || t == "for_in_clause") {
      return same_node(field(up, "left"), n);
    }
    if (t == "named_expression") return same_node(field(up, "name"), n);
    return t == "delete_statement" || t == "as_pattern_target";
  }
  return false;
}

// Whether path[i] is outside every function, class body, lambda and comprehension: in the module's scope.
bool module_scope(const Path& path, size_t i) {
  for (size_t k = 0; k < i; ++k) {
    if (one_of(type_of(path[k]), {"function_definition", "class_definition", "lambda", "list_comprehension",
                                  "set_comprehension", "dictionary_comprehension", "generator_expression"})) {
      return false;
    }
  }
  return true;
}

class Finder {
public:
  // For another file than the one that binds the names: nothing of it is known, so no name is taken
  // for a builtin or the standard module (every call it gives a value to may keep it).
  explicit Finder(std::string_view src) : m_src(src), m_foreign(true) {}

  Finder(std::string_view src, const FileFacts& facts) : m_src(src) {
    auto bind = [&](std::string_view name) { ++m_bindings[name]; };
    for (const Symbol& s : facts.symbols) {
      if (s.parent == -1) bind(s.name());
    }
    for (const auto& name : facts.module_names) bind(name);
    for (const ImportFact& i : facts.imports) {
      for (size_t k = 0; k < i.aliases.size(); ++k) {
        std::string_view bound = i.aliases[k];
        if (i.kind != ImportKind::from && bound.empty()) {
          bound = std::string_view(i.module).substr(0, i.module.find('.'));
          if (i.level == 0 && (i.module == "re" || i.module == "logging" || i.module == "types")) {
            m_stdlib.emplace_back(i.module);
          }
        } else if (i.kind == ImportKind::from && i.level == 0 && i.module == "types" && k < i.names.size() &&
                   i.names[k] == "MappingProxyType") {
          m_proxy = bound;
        }
        bind(bound);
      }
    }
    // `import re` binds the standard module only when nothing else binds the name.
    std::erase_if(m_stdlib, [&](std::string_view m) { return m_bindings[m] != 1; });
    if (!m_proxy.empty() && m_bindings[m_proxy] != 1) m_proxy = {};
    for (const auto& name : facts.module_names) {
      m_names.emplace(name, Name{});
      if (name.size() < 64) m_lengths |= uint64_t{1} << name.size();
      m_first.set(static_cast<unsigned char>(name[0]));
    }
  }

  // A cheap test before the table's: most of a file's names are none of these.
  bool may_be_one(std::string_view text) const {
    return text.size() < 64 && (m_lengths >> text.size() & 1) != 0 && m_first.test(static_cast<unsigned char>(text[0]));
  }

  void occurrence(TSNode root, const Token& token, TSTreeCursor& cursor) {
    std::string_view text = m_src.substr(token.begin, token.end - token.begin);
    auto it = m_names.find(text);
    if (it == m_names.end()) return;
    // Each lookup descends the tree from its root: a file naming its module-level values this often
    // (a generated table module) is not read, and keeps every name a possible cache.
    if (++m_lookups > k_max_lookups) return;
    Name& name = it.value();
    if (name.settled()) return;
    if (!path_to(root, token.begin, token.end, cursor, m_path)) { // not found in the tree: not vouched for
      name.changes_immutable = name.changes_container = name.changes_logger = true;
      return;
    }
    size_t at = m_path.size() - 1;
    TSNode id = m_path[at];
    TSNode parent = at > 0 ? m_path[at - 1] : TSNode{};
    if (at >= 2 && type_of(parent) == "assignment" && same_node(field(parent, "left"), id) && module_scope(m_path, at) &&
        type_of(m_path[at - 2]) == "expression_statement") {
      TSNode value = field(parent, "right");
      ++name.definitions;
      if (name.definitions == 1 && !ts_node_is_null(value) && type_of(value) != "assignment") {
        name.kind = kind_of(value, {}, false);
        name.definition = id;
        return;
      }
    }
    // The value's kind may be known only later (a function above the assignment reads it): the use is
    // judged for each kind.
    name.changes_immutable = name.changes_immutable || use_of(m_path, at, Kind::immutable) == Use::write;
    name.changes_container = name.changes_container || use_of(m_path, at, Kind::container) != Use::read;
    name.changes_logger = name.changes_logger || use_of(m_path, at, Kind::logger) != Use::read;
  }

  // Whether path[at] (a name, or `module.NAME`) may change the value or let it out.
  bool changes(const Path& path, size_t at) const { return use_of(path, at, Kind::container) != Use::read; }

  void finish(FileFacts& facts) {
    facts.constant_names.clear();
    if (m_lookups > k_max_lookups) return;
    for (const auto& name : facts.module_names) {
      const Name& n = m_names.find(name)->second;
      if (n.definitions != 1 || n.kind == Kind::none) continue;
      bool constant = n.kind == Kind::immutable ? !n.changes_immutable
                      : n.kind == Kind::container ? !n.changes_container
                                                  : !n.changes_logger;
      if (constant && std::find(facts.constant_names.begin(), facts.constant_names.end(), name) == facts.constant_names.end()) {
        facts.constant_names.push_back(name);
      }
    }
  }

private:
  struct Name {
    uint32_t definitions = 0;
    Kind kind = Kind::none;
    TSNode definition{};
    bool changes_immutable = false, changes_container = false, changes_logger = false;

    // Whether no further occurrence can make it constant.
    bool settled() const {
      if (definitions > 1 || (changes_immutable && changes_container && changes_logger)) return true;
      if (definitions == 0) return false;
      switch (kind) {
        case Kind::immutable: return changes_immutable;
        case Kind::container: return changes_container;
        case Kind::logger: return changes_logger;
        case Kind::none: return true;
      }
      return false;
    }
  };

  std::string_view text(TSNode n) const { return node_text(n, m_src); }
  bool stdlib(std::string_view module) const { return std::find(m_stdlib.begin(), m_stdlib.end(), module) != m_stdlib.end(); }
  bool builtin(std::string_view name) const { return !m_foreign && m_bindings.find(name) == m_bindings.end(); }

  // The kind of the value `n` makes. `loop` are comprehension variables over immutable items;
  // `items`: `n` only gives items (an argument of `set(...)`, a comprehension's iterable), so a
  // container name of the module stands for its immutable items rather than for itself.
  Kind kind_of(TSNode n, const std::vector<std::string_view>& loop, bool items) const {
    std::string_view t = type_of(n);
    if (one_of(t, {"string", "concatenated_string", "integer", "float", "true", "false", "none", "ellipsis"})) {
      return Kind::immutable;
    }
    if (t == "parenthesized_expression") {
      return ts_node_named_child_count(n) == 1 ? kind_of(ts_node_named_child(n, 0), loop, items) : Kind::none;
    }
    if (t == "unary_operator") return kind_of(field(n, "argument"), loop, false) == Kind::immutable ? Kind::immutable : Kind::none;
    if (t == "binary_operator") {
      TSNode left = field(n, "left");
      Kind l = kind_of(left, loop, items), r = kind_of(field(n, "right"), loop, items);
      if (l == Kind::immutable && r == Kind::immutable) return Kind::immutable;
      std::string_view op = text(field(n, "operator"));
      // Flags of another module (`DIR_FLAGS = ct.SEL_DIR_LTR | ct.SEL_DIR_RTL`): a new value, an int
      // or a set or dict union at worst, which only this file's uses could change.
      if (one_of(op, {"|", "&", "^"}) && flag_operand(left, l) && flag_operand(field(n, "right"), r)) return Kind::container;
      if (op == "%" && (type_of(left) == "string" || type_of(left) == "concatenated_string")) return Kind::immutable;
      return l == Kind::container && r == Kind::container ? Kind::container : Kind::none;
    }
    if (t == "tuple" || t == "expression_list") return all_items(n, loop) ? Kind::immutable : Kind::none;
    if (t == "list" || t == "set") return all_items(n, loop) ? Kind::container : Kind::none;
    if (t == "dictionary") {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode pair = ts_node_named_child(n, i);
        if (type_of(pair) == "comment") continue;
        if (type_of(pair) != "pair" || kind_of(field(pair, "key"), loop, false) != Kind::immutable ||
            kind_of(field(pair, "value"), loop, false) != Kind::immutable) {
          return Kind::none;
        }
      }
      return Kind::container;
    }
    if (one_of(t, {"list_comprehension", "set_comprehension", "dictionary_comprehension"})) {
      return comprehension(n, loop) ? Kind::container : Kind::none;
    }
    if (t == "call") return call_kind(n, loop);
    if (t == "identifier") {
      std::string_view name = text(n);
      if (std::find(loop.begin(), loop.end(), name) != loop.end()) return Kind::immutable;
      auto it = m_names.find(name);
      if (it != m_names.end() && it->second.definitions == 1 && !ts_node_is_null(it->second.definition)) {
        // An immutable value is the same object wherever it is bound; a container bound to a second
        // name is one object with two names, so only its items count.
        if (it->second.kind == Kind::immutable) return Kind::immutable;
        if (it->second.kind == Kind::container && items) return Kind::container;
        return Kind::none;
      }
      if (builtin(name) && one_of(name, {"str", "bytes", "int", "float", "bool", "complex", "tuple", "list", "dict", "set",
                                         "frozenset", "type", "object", "bytearray", "range"})) {
        return Kind::immutable;
      }
      return Kind::none;
    }
    if (t == "attribute") { // re.IGNORECASE, string.ascii_letters
      TSNode object = field(n, "object");
      if (type_of(object) == "identifier" && (text(object) == "re" || text(object) == "string") && stdlib(text(object))) {
        return Kind::immutable;
      }
    }
    return Kind::none;
  }

  // An operand of a flag expression: a value known to be immutable, an UPPER_CASE name of another
  // module (`ct.SEL_DIR_LTR`, an imported `SEL_DIR_RTL`), or such an expression itself.
  bool flag_operand(TSNode n, Kind kind) const {
    if (kind == Kind::immutable) return true;
    std::string_view t = type_of(n);
    if (t == "binary_operator") {
      return one_of(text(field(n, "operator")), {"|", "&", "^"}) && flag_operand(field(n, "left"), Kind::none) &&
             flag_operand(field(n, "right"), Kind::none);
    }
    if (t == "parenthesized_expression" && ts_node_named_child_count(n) == 1) return flag_operand(ts_node_named_child(n, 0), Kind::none);
    std::string_view name;
    if (t == "attribute") name = text(field(n, "attribute"));
    else if (t == "identifier" && m_names.find(text(n)) == m_names.end()) name = text(n);
    if (name.empty() || std::none_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) return false;
    return std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
  }

  bool all_items(TSNode n, const std::vector<std::string_view>& loop) const {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode item = ts_node_named_child(n, i);
      if (type_of(item) != "comment" && kind_of(item, loop, false) != Kind::immutable) return false;
    }
    return true;
  }

  // A comprehension whose iterables give immutable items and whose body makes immutable values.
  bool comprehension(TSNode n, std::vector<std::string_view> loop) const {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 1; i < count; ++i) {
      TSNode clause = ts_node_named_child(n, i);
      if (type_of(clause) != "for_in_clause") continue;
      Kind source = kind_of(field(clause, "right"), loop, true);
      if (source != Kind::immutable && source != Kind::container) return false;
      TSNode left = field(clause, "left");
      if (type_of(left) == "identifier") {
        loop.push_back(text(left));
      } else if (type_of(left) == "pattern_list" || type_of(left) == "tuple_pattern") {
        uint32_t names = ts_node_named_child_count(left);
        for (uint32_t k = 0; k < names; ++k) {
          TSNode name = ts_node_named_child(left, k);
          if (type_of(name) != "identifier") return false;
          loop.push_back(text(name));
        }
      } else {
        return false;
      }
    }
    TSNode body = count ? ts_node_named_child(n, 0) : TSNode{};
    if (ts_node_is_null(body)) return false;
    if (type_of(body) == "pair") {
      return kind_of(field(body, "key"), loop, false) == Kind::immutable &&
             kind_of(field(body, "value"), loop, false) == Kind::immutable;
    }
    return kind_of(body, loop, false) == Kind::immutable;
  }

  Kind call_kind(TSNode n, const std::vector<std::string_view>& loop) const {
    TSNode fn = field(n, "function");
    TSNode args = field(n, "arguments");
    if (ts_node_is_null(fn) || ts_node_is_null(args)) return Kind::none;
    if (type_of(fn) == "attribute") {
      TSNode object = field(fn, "object");
      std::string_view method = text(field(fn, "attribute"));
      if (type_of(object) == "identifier" && stdlib(text(object))) {
        if (text(object) == "re" && one_of(method, {"compile", "escape"})) return Kind::immutable;
        if (text(object) == "types" && method == "MappingProxyType") return proxy_kind(args, loop);
        if (text(object) == "logging" && method == "getLogger") return Kind::logger;
        return Kind::none;
      }
      // A str method makes a new str (or a list of them) whatever its arguments hold.
      if (kind_of(object, loop, false) != Kind::immutable) return Kind::none;
      if (one_of(method, {"join", "format", "upper", "lower", "strip", "lstrip", "rstrip", "replace", "title", "casefold",
                          "encode", "decode", "zfill", "center", "ljust", "rjust"})) {
        return Kind::immutable;
      }
      return one_of(method, {"split", "rsplit", "splitlines"}) ? Kind::container : Kind::none;
    }
    if (type_of(fn) == "identifier" && !m_proxy.empty() && text(fn) == m_proxy) return proxy_kind(args, loop);
    if (type_of(fn) != "identifier" || !builtin(text(fn))) return Kind::none;
    // The items the arguments give must be immutable.
    if (type_of(args) == "generator_expression") {
      if (!comprehension(args, loop)) return Kind::none;
    } else {
      uint32_t count = ts_node_named_child_count(args);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode arg = ts_node_named_child(args, i);
        if (type_of(arg) == "keyword_argument") arg = field(arg, "value");
        if (type_of(arg) == "generator_expression" ? !comprehension(arg, loop) : kind_of(arg, loop, true) == Kind::none) {
          return Kind::none;
        }
      }
    }
    std::string_view name = text(fn);
    if (one_of(name, {"frozenset", "tuple", "str", "int", "float", "bytes", "bool", "complex", "len", "chr", "ord", "repr",
                      "range"})) {
      return Kind::immutable;
    }
    return one_of(name, {"set", "list", "dict", "sorted"}) ? Kind::container : Kind::none;
  }

  // A read-only view of a mapping made for it alone (a literal dict of immutable items): no code can
  // change it, as no other name holds the mapping under it.
  Kind proxy_kind(TSNode args, const std::vector<std::string_view>& loop) const {
    if (ts_node_named_child_count(args) != 1) return Kind::none;
    TSNode arg = ts_node_named_child(args, 0);
    if (type_of(arg) != "dictionary" && type_of(arg) != "dictionary_comprehension") return Kind::none;
    return kind_of(arg, loop, false) == Kind::container ? Kind::immutable : Kind::none;
  }

  // What the use path[at] of a name of kind `kind` does to its value. An immutable value is only
  // changed by binding the name again.
  Use use_of(const Path& path, size_t at, Kind kind) const {
    Use use = use_as(path, at, kind);
    return kind == Kind::immutable && use == Use::escape ? Use::read : use;
  }

  Use use_as(const Path& path, size_t at, Kind kind) const {
    while (at > 0 && type_of(path[at - 1]) == "parenthesized_expression") --at;
    if (at == 0) return Use::escape;
    TSNode n = path[at], p = path[at - 1];
    TSNode up = at >= 2 ? path[at - 2] : TSNode{};
    std::string_view t = type_of(p);
    if (t == "attribute") {
      if (same_node(field(p, "attribute"), n)) return Use::read; // `x.NAME` is another name
      if (!ts_node_is_null(up) && type_of(up) == "call" && same_node(field(up, "function"), p)) {
        return method_use(kind, text(field(p, "attribute")));
      }
      return store_position(path, at - 1) ? Use::write : Use::escape;
    }
    if (t == "subscript" && same_node(field(p, "value"), n)) {
      if (store_position(path, at - 1)) return Use::write;
      return kind == Kind::logger ? Use::escape : Use::read; // the items are immutable
    }
    if (t == "keyword_argument") {
      if (same_node(field(p, "name"), n)) return Use::read; // `f(NAME=1)` is a parameter
      return at >= 2 ? argument_use(path, at - 2) : Use::escape;
    }
    if (t == "argument_list") return argument_use(path, at - 1);
    if (t == "global_statement" || t == "nonlocal_statement" || t == "delete_statement") return Use::write;
    if (store_position(path, at) || ((t == "function_definition" || t == "class_definition") && same_node(field(p, "name"), n)) ||
        one_of(t, {"parameters", "lambda_parameters", "default_parameter", "typed_parameter", "typed_default_parameter",
                   "list_splat_pattern", "dictionary_splat_pattern", "aliased_import", "dotted_name"})) {
      // Bound again: in the module's scope a second value; elsewhere a local of that name (whose own
      // stores and uses are counted as this name's: over-counted, never missed).
      return module_scope(path, at) ? Use::write : Use::read;
    }
    if (one_of(t, {"comparison_operator", "binary_operator", "unary_operator", "not_operator", "interpolation",
                   "expression_statement", "type", "format_expression"})) {
      return Use::read;
    }
    if ((t == "for_statement" || t == "for_in_clause") && same_node(field(p, "right"), n)) return Use::read;
    return Use::escape;
  }

  static Use method_use(Kind kind, std::string_view method) {
    switch (kind) {
      case Kind::immutable: return Use::read;
      case Kind::logger:
        return one_of(method, {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "isEnabledFor",
                               "getEffectiveLevel"})
                   ? Use::read
                   : Use::escape;
      case Kind::container:
        return one_of(method, {"get", "keys", "values", "items", "copy", "count", "index", "issubset", "issuperset",
                               "isdisjoint", "union", "intersection", "difference", "symmetric_difference",
                               "__contains__", "__getitem__", "__len__", "__iter__"})
                   ? Use::read
                   : Use::write;
      case Kind::none: break;
    }
    return Use::escape;
  }

  // The value given to a call (path[args] is its argument list): read when the callee is a builtin
  // that makes something new of it, a str method of a literal (`"|".join(NAME)`), or one of re's functions.
  Use argument_use(const Path& path, size_t args) const {
    if (args == 0) return Use::escape;
    TSNode call = path[args - 1];
    if (type_of(call) != "call") return Use::escape;
    TSNode fn = field(call, "function");
    if (type_of(fn) == "identifier") {
      return builtin(text(fn)) && one_of(text(fn), {"len", "sorted", "list", "tuple", "set", "frozenset", "dict", "iter",
                                                    "enumerate", "any", "all", "min", "max", "sum", "str", "repr",
                                                    "isinstance", "issubclass", "zip", "reversed", "bool", "hash",
                                                    "format", "map", "filter", "print", "int", "float"})
                 ? Use::read
                 : Use::escape;
    }
    if (type_of(fn) != "attribute") return Use::escape;
    TSNode object = field(fn, "object");
    std::string_view method = text(field(fn, "attribute"));
    if ((type_of(object) == "string" || type_of(object) == "concatenated_string") && (method == "join" || method == "format")) {
      return Use::read;
    }
    if (type_of(object) == "identifier" && text(object) == "re" && stdlib("re")) {
      return one_of(method, {"compile", "match", "search", "fullmatch", "sub", "subn", "split", "findall", "finditer",
                             "escape"})
                 ? Use::read
                 : Use::escape;
    }
    return Use::escape;
  }

  static constexpr uint32_t k_max_lookups = 4096;

  std::string_view m_src;
  bool m_foreign = false;
  uint32_t m_lookups = 0;
  tsl::robin_map<std::string_view, uint32_t> m_bindings; // module-level bindings of each name
  std::vector<std::string_view> m_stdlib;                // "re", "logging", "types" where `import re` binds them alone
  std::string_view m_proxy;                              // the name `from types import MappingProxyType` binds alone
  uint64_t m_lengths = 0;                                // the lengths of the module's names (below 64)
  std::bitset<256> m_first;                              // and their first bytes
  tsl::robin_map<std::string_view, Name> m_names;
  Path m_path; // scratch of occurrence()
};

struct Cursor {
  explicit Cursor(TSNode root) : cursor(ts_tree_cursor_new(root)) {}
  ~Cursor() { ts_tree_cursor_delete(&cursor); }
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  TSTreeCursor cursor;
};

} // namespace

void find_constant_names(TSNode root, std::string_view source, const std::vector<Token>& tokens, FileFacts& facts) {
  facts.constant_names.clear();
  if (facts.module_names.empty()) return;
  Finder finder(source, facts);
  Cursor cursor(root);
  const Token* previous = nullptr;
  for (const Token& token : tokens) {
    // `x.NAME` is another name than the module's.
    if (token.kind == Tok::name && (previous == nullptr || previous->kind != Tok::dot) &&
        finder.may_be_one(source.substr(token.begin, token.end - token.begin))) {
      finder.occurrence(root, token, cursor.cursor);
    }
    previous = &token;
  }
  finder.finish(facts);
}

std::vector<std::string_view> names_it_may_change(std::string_view source, const std::vector<std::string_view>& names) {
  Parser parser;
  std::unique_ptr<TSTree, TreeDeleter> tree(parser.parse(source));
  if (!tree || ts_node_has_error(ts_tree_root_node(tree.get()))) return names;
  TSNode root = ts_tree_root_node(tree.get());
  std::vector<Token> tokens;
  lex(source, tokens);
  Finder finder(source);
  Cursor cursor(root);
  Path path;
  std::vector<bool> changed(names.size(), false);
  auto changes = [&](const Token& token) {
    if (!path_to(root, token.begin, token.end, cursor.cursor, path) || path.size() < 2) return true;
    size_t at = path.size() - 1;
    TSNode id = path[at], parent = path[at - 1];
    if (type_of(parent) == "aliased_import") return true; // `from m import NAME as other`: followed no further
    if (type_of(parent) == "dotted_name" && at >= 2) {
      std::string_view up = type_of(path[at - 2]);
      if (up == "import_from_statement" || up == "import_statement") return false; // the import's own binding
    }
    // `module.NAME` is the value; `NAME` alone is the imported name (or one of the file's own).
    if (type_of(parent) == "attribute" && same_node(field(parent, "attribute"), id)) --at;
    return finder.changes(path, at);
  };
  for (const Token& token : tokens) {
    if (token.kind != Tok::name) continue;
    std::string_view word = source.substr(token.begin, token.end - token.begin);
    for (size_t i = 0; i < names.size(); ++i) {
      if (!changed[i] && names[i] == word) changed[i] = changes(token);
    }
  }
  std::vector<std::string_view> out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (changed[i]) out.push_back(names[i]);
  }
  return out;
}

} // namespace impact::python
