// Module-level names whose value no code of the file changes (python/constant_names.hpp).
#include "python/constant_names.hpp"

#include <tsl/robin_map.h>

#include <algorithm>
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

// Whether `n` is written to where it stands: the target of an assignment, a `for`, a `with ... as`,
// a walrus or a `del`, through any nesting of target lists.
bool store_position(TSNode n) {
  for (;;) {
    TSNode up = ts_node_parent(n);
    if (ts_node_is_null(up)) return false;
    std::string_view t = type_of(up);
    if (one_of(t, {"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "parenthesized_expression",
                   "expression_list", "tuple", "list"})) {
      n = up;
      continue;
    }
    if (t == "assignment" || t == "augmented_assignment" || t == "for_statement" || t == "for_in_clause") {
      return same_node(field(up, "left"), n);
    }
    if (t == "named_expression") return same_node(field(up, "name"), n);
    return t == "delete_statement" || t == "as_pattern_target";
  }
}

// Whether `n` is outside every function, class body, lambda and comprehension: in the module's own scope.
bool module_scope(TSNode n) {
  for (TSNode up = ts_node_parent(n); !ts_node_is_null(up); up = ts_node_parent(up)) {
    if (one_of(type_of(up), {"function_definition", "class_definition", "lambda", "list_comprehension", "set_comprehension",
                             "dictionary_comprehension", "generator_expression"})) {
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
    auto bind = [&](std::string_view name) { ++m_bindings[std::string(name)]; };
    for (const Symbol& s : facts.symbols) {
      if (s.parent == -1) bind(s.name());
    }
    for (const auto& name : facts.module_names) bind(name);
    for (const ImportFact& i : facts.imports) {
      for (size_t k = 0; k < i.aliases.size(); ++k) {
        std::string_view bound = i.aliases[k];
        if (i.kind != ImportKind::from && bound.empty()) {
          bound = std::string_view(i.module).substr(0, i.module.find('.'));
          if (i.level == 0 && (i.module == "re" || i.module == "logging")) m_stdlib.emplace_back(i.module);
        }
        bind(bound);
      }
    }
    // `import re` binds the standard module only when nothing else binds the name.
    std::erase_if(m_stdlib, [&](const std::string& m) { return m_bindings[m] != 1; });
    for (const auto& name : facts.module_names) m_names.emplace(name, Name{});
  }

  void occurrence(TSNode root, const Token& token) {
    std::string_view text = m_src.substr(token.begin, token.end - token.begin);
    auto it = m_names.find(text);
    if (it == m_names.end()) return;
    // Each lookup descends the tree from its root: a file naming its module-level values this often
    // (a generated table module) is not read, and keeps every name a possible cache.
    if (++m_lookups > k_max_lookups) return;
    TSNode id = ts_node_named_descendant_for_byte_range(root, token.begin, token.end);
    if (ts_node_is_null(id) || type_of(id) != "identifier" || ts_node_start_byte(id) != token.begin ||
        ts_node_end_byte(id) != token.end) {
      return;
    }
    TSNode parent = ts_node_parent(id);
    Name& name = it.value();
    if (type_of(parent) == "assignment" && same_node(field(parent, "left"), id) && module_scope(id) &&
        type_of(ts_node_parent(parent)) == "expression_statement") {
      TSNode value = field(parent, "right");
      ++name.definitions;
      if (name.definitions == 1 && !ts_node_is_null(value) && type_of(value) != "assignment") {
        name.kind = kind_of(value, {}, false);
        name.definition = id;
        return;
      }
    }
    name.uses.push_back(id);
  }

  // Whether the use `n` (a name, or `module.NAME`) may change the value or let it out.
  bool changes(TSNode n) const { return use_of(n, Kind::container) != Use::read; }

  void finish(FileFacts& facts) {
    facts.constant_names.clear();
    if (m_lookups > k_max_lookups) return;
    for (const auto& name : facts.module_names) {
      const Name& n = m_names.find(name)->second;
      if (n.definitions != 1 || n.kind == Kind::none) continue;
      bool constant = std::all_of(n.uses.begin(), n.uses.end(), [&](TSNode use) {
        Use u = use_of(use, n.kind);
        return u == Use::read || (u == Use::escape && n.kind == Kind::immutable);
      });
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
    std::vector<TSNode> uses;
  };

  std::string_view text(TSNode n) const { return node_text(n, m_src); }
  bool stdlib(std::string_view module) const { return std::find(m_stdlib.begin(), m_stdlib.end(), module) != m_stdlib.end(); }
  bool builtin(std::string_view name) const { return !m_foreign && m_bindings.find(std::string(name)) == m_bindings.end(); }

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

  // What the use `id` of a name of kind `kind` does to its value.
  Use use_of(TSNode id, Kind kind) const {
    TSNode n = id;
    TSNode p = ts_node_parent(n);
    while (type_of(p) == "parenthesized_expression") {
      n = p;
      p = ts_node_parent(p);
    }
    std::string_view t = type_of(p);
    if (t == "attribute") {
      if (same_node(field(p, "attribute"), n)) return Use::read; // `x.NAME` is another name
      TSNode up = ts_node_parent(p);
      if (type_of(up) == "call" && same_node(field(up, "function"), p)) return method_use(kind, text(field(p, "attribute")));
      return store_position(p) ? Use::write : Use::escape;
    }
    if (t == "subscript" && same_node(field(p, "value"), n)) {
      if (store_position(p)) return Use::write;
      return kind == Kind::logger ? Use::escape : Use::read; // the items are immutable
    }
    if (t == "keyword_argument") {
      if (same_node(field(p, "name"), n)) return Use::read; // `f(NAME=1)` is a parameter
      return argument_use(ts_node_parent(p));
    }
    if (t == "argument_list") return argument_use(p);
    if (t == "global_statement" || t == "nonlocal_statement" || t == "delete_statement") return Use::write;
    if (store_position(n) || ((t == "function_definition" || t == "class_definition") && same_node(field(p, "name"), n)) ||
        one_of(t, {"parameters", "lambda_parameters", "default_parameter", "typed_parameter", "typed_default_parameter",
                   "list_splat_pattern", "dictionary_splat_pattern", "aliased_import", "dotted_name"})) {
      // Bound again: in the module's scope a second value; elsewhere a local of that name (whose own
      // stores and uses are counted as this name's: over-counted, never missed).
      return module_scope(n) ? Use::write : Use::read;
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

  // The value given to a call: read when the callee is a builtin that makes something new of it, a
  // str method of a literal (`"|".join(NAME)`), or one of re's functions.
  Use argument_use(TSNode args) const {
    TSNode call = ts_node_parent(args);
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
  tsl::robin_map<std::string, uint32_t> m_bindings; // module-level bindings of each name
  std::vector<std::string> m_stdlib;                // "re", "logging" where `import re` binds them alone
  tsl::robin_map<std::string_view, Name> m_names;
};

} // namespace

void find_constant_names(TSNode root, std::string_view source, const std::vector<Token>& tokens, FileFacts& facts) {
  facts.constant_names.clear();
  if (facts.module_names.empty()) return;
  Finder finder(source, facts);
  for (const Token& token : tokens) {
    if (token.kind == Tok::name) finder.occurrence(root, token);
  }
  finder.finish(facts);
}

bool may_change_name(std::string_view source, std::string_view name) {
  Parser parser;
  std::unique_ptr<TSTree, TreeDeleter> tree(parser.parse(source));
  if (!tree) return true;
  TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root)) return true;
  std::vector<Token> tokens;
  lex(source, tokens);
  Finder finder(source);
  for (const Token& token : tokens) {
    if (token.kind != Tok::name || source.substr(token.begin, token.end - token.begin) != name) continue;
    TSNode id = ts_node_named_descendant_for_byte_range(root, token.begin, token.end);
    if (ts_node_is_null(id) || type_of(id) != "identifier" || ts_node_start_byte(id) != token.begin) return true;
    TSNode parent = ts_node_parent(id);
    if (type_of(parent) == "aliased_import") return true; // `from m import NAME as other`: followed no further
    if (type_of(parent) == "dotted_name") {
      std::string_view up = type_of(ts_node_parent(parent));
      if (up == "import_from_statement" || up == "import_statement") continue; // the import's own binding
    }
    // `module.NAME` is the value; `NAME` alone is the imported name (or one of the file's own).
    TSNode use = type_of(parent) == "attribute" && same_node(field(parent, "attribute"), id) ? parent : id;
    if (finder.changes(use)) return true;
  }
  return false;
}

} // namespace impact::python
