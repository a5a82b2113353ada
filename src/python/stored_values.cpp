#include "python/stored_values.hpp"

#include <algorithm>
#include <string>

namespace impact::python {

namespace {

// Whether `module` (name empty: `import module`, unaliased) or `from module import name` (under its own
// name) binds a name of the file, and the file binds it no other way.
bool imported(const FileFacts& facts, std::string_view module, std::string_view name) {
  std::string_view bound = name.empty() ? module : name;
  bool own = std::any_of(facts.symbols.begin(), facts.symbols.end(), [&](const Symbol& s) { return s.qualname == bound; }) ||
             std::find(facts.module_names.begin(), facts.module_names.end(), bound) != facts.module_names.end();
  if (own) return false;
  for (const auto& imp : facts.imports) {
    if (imp.module != module) continue;
    if (name.empty() && imp.kind == ImportKind::plain && !imp.aliases.empty() && imp.aliases[0].empty()) return true;
    if (name.empty() || imp.kind != ImportKind::from || imp.level != 0) continue;
    for (size_t k = 0; k < imp.names.size() && k < imp.aliases.size(); ++k) {
      if (imp.names[k] == name && imp.aliases[k] == name) return true;
    }
  }
  return false;
}

class Finder {
public:
  Finder(std::string_view src, const FileFacts& facts) : m_src(src) {
    // functools.partial and pytest's marks by the spellings `import functools` / `from functools import
    // partial` give, unless the module binds the name itself.
    m_functools = imported(facts, "functools", "");
    m_partial = imported(facts, "functools", "partial");
    m_pytest = imported(facts, "pytest", "");
    m_mark = imported(facts, "pytest", "mark");
    m_param = imported(facts, "pytest", "param");
  }

  // `@pytest.mark.parametrize(names, [f, (g, 1), pytest.param(h)])` on the module-level function
  // `stmt` defines: pytest hands the argvalues to that function as arguments (or to its fixtures, with
  // `indirect`) and calls none of them; the ids it makes of a function or class read `__name__`. The
  // argument names, `ids=`, `indirect=` and a `pytest.param`'s keywords (`marks=`, `id=`) stay
  // module-level code: they run at import or at collection.
  void parametrized(TSNode stmt, FileFacts& facts) {
    if (!m_pytest && !m_mark) return;
    if (type_of(stmt) != "decorated_definition") return;
    TSNode def = ts_node_child_by_field_name(stmt, "definition", 10);
    if (ts_node_is_null(def) || type_of(def) != "function_definition") return;
    TSNode name = ts_node_child_by_field_name(def, "name", 4);
    if (ts_node_is_null(name)) return;
    uint32_t count = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode d = ts_node_named_child(stmt, i);
      if (type_of(d) != "decorator" || ts_node_named_child_count(d) == 0) continue;
      TSNode call = ts_node_named_child(d, 0);
      if (type_of(call) != "call") continue;
      TSNode fn = ts_node_child_by_field_name(call, "function", 8);
      TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
      if (ts_node_is_null(fn) || ts_node_is_null(args) || type_of(args) != "argument_list") continue;
      std::string_view callee = node_text(fn, m_src);
      if (!((callee == "pytest.mark.parametrize" && m_pytest) || (callee == "mark.parametrize" && m_mark))) continue;
      TSNode values = argvalues(args);
      if (ts_node_is_null(values)) continue;
      StoredValue value;
      value.name = std::string(node_text(name, m_src));
      value.line = line_of(ts_node_start_point(d));
      value.parametrize = true;
      m_value = &value;
      stored(values, {});
      m_value = nullptr;
      if (!value.refs.empty()) facts.stored_values.push_back(std::move(value));
    }
  }

  void statement(TSNode stmt, FileFacts& facts) {
    if (type_of(stmt) != "expression_statement" || ts_node_named_child_count(stmt) != 1) return;
    TSNode assign = ts_node_named_child(stmt, 0);
    if (type_of(assign) != "assignment") return;
    TSNode left = ts_node_child_by_field_name(assign, "left", 4);
    TSNode right = ts_node_child_by_field_name(assign, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || type_of(left) != "identifier") return;
    StoredValue value;
    value.name = std::string(node_text(left, m_src));
    value.line = line_of(ts_node_start_point(stmt));
    m_value = &value;
    m_held.clear();
    stored(right, {});
    m_value = nullptr;
    if (value.refs.empty()) return;
    held_string_lines(stmt);
    facts.stored_values.push_back(std::move(value));
    m_ranges.bound.emplace_back(ts_node_start_byte(left), ts_node_end_byte(left));
  }

  // `alias = method` statements directly in the body of class `c` (an index of facts.symbols).
  void class_aliases(TSNode root, size_t c, FileFacts& facts) {
    const Symbol& cls = facts.symbols[c];
    TSNode def = definition_starting_at(root, cls.header_begin);
    TSNode body = ts_node_is_null(def) ? def : ts_node_child_by_field_name(def, "body", 4);
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode stmt = ts_node_named_child(body, i);
      if (type_of(stmt) != "expression_statement" || ts_node_named_child_count(stmt) != 1) continue;
      TSNode assign = ts_node_named_child(stmt, 0);
      if (type_of(assign) != "assignment") continue;
      TSNode left = ts_node_child_by_field_name(assign, "left", 4);
      TSNode right = ts_node_child_by_field_name(assign, "right", 5);
      if (ts_node_is_null(left) || ts_node_is_null(right) || type_of(left) != "identifier" || type_of(right) != "identifier") {
        continue;
      }
      std::string qualname = cls.qualname + "." + std::string(node_text(right, m_src));
      uint32_t line = line_of(ts_node_start_point(stmt));
      for (Symbol& m : facts.symbols) {
        if (m.qualname != qualname || m.parent != static_cast<int32_t>(c) || m.kind == SymbolKind::class_ || m.def_line >= line) {
          continue;
        }
        m.aliases.emplace_back(node_text(left, m_src));
        m_ranges.bound.emplace_back(ts_node_start_byte(right), ts_node_end_byte(right));
        m_ranges.bound.emplace_back(ts_node_start_byte(left), ts_node_end_byte(left));
        break;
      }
    }
  }

  StoredRanges take_ranges() {
    for (auto* v : {&m_ranges.chains, &m_ranges.bound}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    auto& lines = m_ranges.string_lines;
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return std::move(m_ranges);
  }

private:
  // `n` is in a stored position (under `wrapper`'s first argument when not empty): a chain is kept;
  // a container's elements and partial's arguments are stored positions too. Anything else is code
  // that runs at import, left to the reference pass as module-level reads.
  void stored(TSNode n, std::string_view wrapper) {
    std::string_view t = type_of(n);
    if (t == "identifier" || t == "attribute") {
      if (!one_slice_chain(n, m_src)) return;
      m_value->refs.emplace_back(node_text(n, m_src));
      m_value->wrappers.emplace_back(wrapper);
      m_ranges.chains.emplace_back(ts_node_start_byte(n), ts_node_end_byte(n));
      return;
    }
    if (t == "parenthesized_expression" || t == "list" || t == "tuple" || t == "set" || t == "expression_list") {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (type_of(c) != "comment") stored(c, wrapper);
      }
      return;
    }
    if (t == "dictionary") {
      // Keys are hashed at import (a project __hash__ may run): only the values are stored.
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode pair = ts_node_named_child(n, i);
        if (type_of(pair) != "pair") continue;
        TSNode v = ts_node_child_by_field_name(pair, "value", 5);
        if (!ts_node_is_null(v)) stored(v, wrapper);
      }
      return;
    }
    if (t == "call" && wrapper.empty()) {
      if (m_value->parametrize && pytest_param(n)) {
        param_values(n);
      } else {
        call(n);
      }
    }
  }

  // The second positional argument of parametrize's call, or its `argvalues=`.
  TSNode argvalues(TSNode args) const {
    uint32_t count = ts_node_named_child_count(args);
    uint32_t positional = 0;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      std::string_view at = type_of(a);
      if (at == "comment") continue;
      if (at == "keyword_argument") {
        TSNode key = ts_node_child_by_field_name(a, "name", 4);
        if (!ts_node_is_null(key) && node_text(key, m_src) == "argvalues") return ts_node_child_by_field_name(a, "value", 5);
        continue;
      }
      if (at == "list_splat" || at == "dictionary_splat") return TSNode{};
      if (positional++ == 1) return a;
    }
    return TSNode{};
  }

  bool pytest_param(TSNode call) const {
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(fn)) return false;
    std::string_view callee = node_text(fn, m_src);
    return (callee == "pytest.param" && m_pytest) || (callee == "param" && m_param);
  }

  // pytest.param(f, g, marks=..., id=...): the positional values are handed to the test as the others.
  void param_values(TSNode call) {
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    if (ts_node_is_null(args) || type_of(args) != "argument_list") return;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      std::string_view at = type_of(a);
      if (at == "comment" || at == "keyword_argument" || at == "list_splat" || at == "dictionary_splat") continue;
      stored(a, {});
    }
  }

  void call(TSNode n) {
    TSNode fn = ts_node_child_by_field_name(n, "function", 8);
    TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
    if (ts_node_is_null(fn) || ts_node_is_null(args) || type_of(args) != "argument_list" || !one_slice_chain(fn, m_src)) {
      return;
    }
    std::string_view callee = node_text(fn, m_src);
    bool partial = (callee == "partial" && m_partial) || (callee == "functools.partial" && m_functools);
    uint32_t count = ts_node_named_child_count(args);
    bool first = true, wrapped = false;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      std::string_view at = type_of(a);
      if (at == "comment") continue;
      if (partial) {
        // partial(f, x, key=g) calls nothing: it keeps f and its arguments for a later call.
        TSNode v = at == "keyword_argument" ? ts_node_child_by_field_name(a, "value", 5) : a;
        if (!ts_node_is_null(v)) {
          stored(v, "");
          hold_string(v);
        }
        continue;
      }
      // Any other callee: its first positional argument is what a wrapping decorator of the project
      // would wrap (the decision checks the callee); the rest run at import as they are, and a string
      // among them is handed to the wrapper, which holds it.
      if (first && at != "keyword_argument" && at != "list_splat" && at != "dictionary_splat") {
        if (type_of(a) == "identifier" || type_of(a) == "attribute") stored(a, callee);
        wrapped = !m_value->refs.empty();
      } else if (wrapped) {
        hold_string(at == "keyword_argument" ? ts_node_child_by_field_name(a, "value", 5) : a);
      }
      first = false;
    }
  }

  // A plain string literal (no f-string part, no concatenation) among a call's arguments.
  void hold_string(TSNode n) {
    if (ts_node_is_null(n) || type_of(n) != "string") return;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      if (type_of(ts_node_named_child(n, i)) == "interpolation") return;
    }
    m_held.push_back(ts_node_start_byte(n));
  }

  // The lines of the held strings of statement `stmt` where no other string of the statement starts
  // and no other statement is: a string reference is known by its line only.
  void held_string_lines(TSNode stmt) {
    if (m_held.empty()) return;
    TSNode prev = ts_node_prev_sibling(stmt), next = ts_node_next_sibling(stmt);
    uint32_t first = ts_node_start_point(stmt).row, last = ts_node_end_point(stmt).row;
    if ((!ts_node_is_null(prev) && ts_node_end_point(prev).row >= first) ||
        (!ts_node_is_null(next) && ts_node_start_point(next).row <= last)) {
      return;
    }
    std::vector<uint32_t> held, other;
    strings_in(stmt, held, other);
    for (uint32_t row : held) {
      if (std::find(other.begin(), other.end(), row) == other.end()) m_ranges.string_lines.push_back(row + 1);
    }
  }

  void strings_in(TSNode n, std::vector<uint32_t>& held, std::vector<uint32_t>& other) const {
    if (type_of(n) == "string") {
      bool is_held = std::find(m_held.begin(), m_held.end(), ts_node_start_byte(n)) != m_held.end();
      (is_held ? held : other).push_back(ts_node_start_point(n).row);
    }
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; ++i) strings_in(ts_node_child(n, i), held, other);
  }

  std::string_view m_src;
  bool m_partial = false, m_functools = false;
  bool m_pytest = false, m_mark = false, m_param = false;
  StoredValue* m_value = nullptr;
  std::vector<uint32_t> m_held; // start bytes of the strings the statement's value holds
  StoredRanges m_ranges;
};

} // namespace

StoredRanges find_stored_values(TSNode root, std::string_view source, FileFacts& facts) {
  Finder finder(source, facts);
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    finder.statement(ts_node_named_child(root, i), facts);
    finder.parametrized(ts_node_named_child(root, i), facts);
  }
  for (size_t c = 0; c < facts.symbols.size(); ++c) {
    if (facts.symbols[c].kind == SymbolKind::class_) finder.class_aliases(root, c, facts);
  }
  return finder.take_ranges();
}

void mark_held_strings(const std::vector<uint32_t>& lines, FileFacts& facts) {
  if (lines.empty()) return;
  for (auto& imp : facts.imports) {
    if (imp.kind == ImportKind::string_ref && std::binary_search(lines.begin(), lines.end(), imp.line)) {
      imp.flags |= k_import_held;
    }
  }
}

} // namespace impact::python
