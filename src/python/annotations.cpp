#include "python/annotations.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>

namespace impact::python {

namespace {

class Finder {
public:
  Finder(std::string_view src, std::vector<AnnotationChain>& out) : m_src(src), m_out(out) {}

  void annotation(TSNode type, int32_t symbol) {
    if (ts_node_is_null(type)) return;
    m_chains.clear();
    m_call = false;
    collect(type);
    if (m_call) return; // a call in an annotation runs at import with whatever it is given
    for (auto [b, e] : m_chains) m_out.push_back(AnnotationChain{b, e, symbol});
  }

private:
  // Only positions known to name without running anything are collected; any other construct
  // (`A | B`, a comparison, a grammar node not listed) stays import-time code, its calls noted.
  void collect(TSNode n) {
    std::string_view t = type_of(n);
    if (t == "call" || t == "lambda" || t == "await" || t == "named_expression") {
      m_call = true;
      return;
    }
    if ((t == "identifier" || t == "attribute") && one_slice_chain(n, m_src)) {
      m_chains.emplace_back(ts_node_start_byte(n), ts_node_end_byte(n));
      return;
    }
    // `Box[int]` (a subscript, or a generic_type in a type position): the subscripted value stays
    // import-time code; what is in the brackets is named.
    TSNode value = t == "subscript" ? ts_node_child_by_field_name(n, "value", 5)
                   : t == "generic_type" && ts_node_named_child_count(n) > 0 ? ts_node_named_child(n, 0)
                                                                               : TSNode{};
    bool container = t == "subscript" || t == "generic_type" || t == "type" || t == "type_parameter" || t == "tuple" ||
                     t == "list" || t == "parenthesized_expression" || t == "expression_list" || t == "string" ||
                     t == "concatenated_string" || t == "ellipsis" || t == "none" || t == "integer" || t == "true" ||
                     t == "false";
    if (!container) return scan_calls(n);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (same_node(c, value)) scan_calls(c);
      else collect(c);
    }
  }

  void scan_calls(TSNode n) {
    std::string_view t = type_of(n);
    if (t == "call" || t == "lambda" || t == "await" || t == "named_expression") m_call = true;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && !m_call; ++i) scan_calls(ts_node_named_child(n, i));
  }

  std::string_view m_src;
  std::vector<AnnotationChain>& m_out;
  std::vector<std::pair<uint32_t, uint32_t>> m_chains;
  bool m_call = false;
};

// The dotted names a string annotation's text spells, keywords and `None` left out.
void spelled_chains(std::string_view text, std::vector<std::string>& out) {
  auto start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto part = [&](char c) { return start(c) || std::isdigit(static_cast<unsigned char>(c)); };
  for (size_t i = 0; i < text.size();) {
    if (!start(text[i]) || (i > 0 && (part(text[i - 1]) || text[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (part(text[j]) || (text[j] == '.' && j + 1 < text.size() && start(text[j + 1])))) ++j;
    std::string chain(text.substr(i, j - i));
    static constexpr std::string_view k_skip[] = {"None", "True", "False", "and", "or", "not", "in", "is", "if", "else", "lambda"};
    if (std::find(std::begin(k_skip), std::end(k_skip), chain) == std::end(k_skip)) out.push_back(std::move(chain));
    i = j;
  }
}

} // namespace

void quoted_chains(TSNode n, std::string_view src, std::vector<std::string>& out) {
  std::string_view t = type_of(n);
  if (t == "string") {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (type_of(c) == "string_content") spelled_chains(node_text(c, src), out);
    }
    return;
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) quoted_chains(ts_node_named_child(n, i), src, out);
}

namespace {


// Names bound to a string literal by a module-level or class-body assignment (`COND = "pkg.flags.skip()"`):
// a marker's condition given by name is that string.
using StringNames = std::vector<std::pair<std::string_view, TSNode>>;

void string_assignments(TSNode block, std::string_view source, StringNames& out) {
  uint32_t count = ts_node_named_child_count(block);
  for (uint32_t k = 0; k < count; ++k) {
    TSNode statement = ts_node_named_child(block, k);
    if (type_of(statement) == "class_definition") {
      TSNode body = ts_node_child_by_field_name(statement, "body", 4);
      if (!ts_node_is_null(body)) string_assignments(body, source, out);
      continue;
    }
    if (type_of(statement) != "expression_statement") continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (ts_node_is_null(assignment) || type_of(assignment) != "assignment") continue;
    TSNode left = ts_node_child_by_field_name(assignment, "left", 4);
    TSNode right = ts_node_child_by_field_name(assignment, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || type_of(left) != "identifier" || type_of(right) != "string") continue;
    out.emplace_back(node_text(left, source), right);
  }
}

// The names spelled by `call` when it is a skipif / xfail marker with string conditions: its positional
// string arguments and `condition=` (`reason=` is prose), also given by a name bound to a string.
void marker_condition(TSNode call, std::string_view source, const StringNames& strings, std::vector<std::string>& out) {
  if (ts_node_is_null(call) || type_of(call) != "call") return;
  std::string_view callee = node_text(ts_node_child_by_field_name(call, "function", 8), source);
  if (!callee.ends_with("skipif") && !callee.ends_with("xfail")) return;
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  auto by_name = [&](TSNode arg) {
    if (type_of(arg) != "identifier") return;
    std::string_view name = node_text(arg, source);
    for (const auto& [bound, value] : strings) {
      if (bound == name) quoted_chains(value, source, out);
    }
  };
  for (uint32_t a = 0; a < n; ++a) {
    TSNode arg = ts_node_named_child(args, a);
    if (type_of(arg) == "string") quoted_chains(arg, source, out);
    by_name(arg);
    if (type_of(arg) == "keyword_argument" && node_text(ts_node_child_by_field_name(arg, "name", 4), source) == "condition") {
      quoted_chains(ts_node_child_by_field_name(arg, "value", 5), source, out);
      by_name(ts_node_child_by_field_name(arg, "value", 5));
    }
  }
}

// The same for every call inside `n` (a module-level `pytestmark = [pytest.mark.skipif("..."), ...]`).
void marker_conditions_in(TSNode n, std::string_view source, const StringNames& strings, std::vector<std::string>& out) {
  if (type_of(n) == "call") marker_condition(n, source, strings, out);
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) marker_conditions_in(ts_node_named_child(n, i), source, strings, out);
}

// The markers' conditions in the values the statements of `block` assign (`pytestmark = ...`).
void assigned_markers(TSNode block, std::string_view source, const StringNames& strings, std::vector<std::string>& out) {
  uint32_t count = ts_node_named_child_count(block);
  for (uint32_t k = 0; k < count; ++k) {
    TSNode statement = ts_node_named_child(block, k);
    if (type_of(statement) != "expression_statement") continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (ts_node_is_null(assignment) || type_of(assignment) != "assignment") continue;
    TSNode value = ts_node_child_by_field_name(assignment, "right", 5);
    if (!ts_node_is_null(value)) marker_conditions_in(value, source, strings, out);
  }
}

} // namespace

void add_quoted_annotations(const std::vector<QuotedName>& quoted, FileFacts& facts) {
  for (const auto& [symbol, chain] : quoted) {
    if (symbol < 0) {
      auto& refs = facts.module_refs;
      if (std::find(refs.begin(), refs.end(), chain) != refs.end()) continue;
      size_t tail = std::min<size_t>(refs.size(), size_t{facts.module_stored} + facts.module_program);
      refs.insert(refs.end() - static_cast<std::ptrdiff_t>(tail), chain);
      continue;
    }
    Symbol& s = facts.symbols[static_cast<size_t>(symbol)];
    if (std::find(s.refs.begin(), s.refs.end(), chain) != s.refs.end()) continue;
    size_t tail = std::min<size_t>(s.refs.size(), size_t{s.namespace_values} + s.annotation_refs);
    s.refs.insert(s.refs.end() - static_cast<std::ptrdiff_t>(tail), chain);
  }
}

void find_marker_conditions(TSNode root, std::string_view source, const FileFacts& facts, std::vector<QuotedName>& quoted) {
  // Most files name neither marker: no walk over their module-level values (a large data literal).
  if (source.find("skipif") == std::string_view::npos && source.find("xfail") == std::string_view::npos) return;
  StringNames strings;
  string_assignments(root, source, strings);
  std::vector<std::string> spelled;
  // Decorators: a skipif / xfail marker, or one inside another decorator's arguments
  // (`parametrize(..., [pytest.param(1, marks=pytest.mark.skipif("..."))])`).
  for (size_t i = 0; i < facts.symbols.size(); ++i) {
    const Symbol& s = facts.symbols[i];
    if (s.decorators.empty()) continue;
    TSNode def = definition_starting_at(root, s.header_begin);
    TSNode decorated = ts_node_is_null(def) ? def : ts_node_parent(def);
    if (ts_node_is_null(decorated) || type_of(decorated) != "decorated_definition") continue;
    spelled.clear();
    uint32_t count = ts_node_named_child_count(decorated);
    for (uint32_t k = 0; k < count; ++k) {
      TSNode decorator = ts_node_named_child(decorated, k);
      if (type_of(decorator) == "decorator") marker_conditions_in(decorator, source, strings, spelled);
    }
    for (auto& chain : spelled) quoted.push_back(QuotedName{static_cast<int32_t>(i), std::move(chain)});
  }
  // Class-body assignments (`pytestmark = pytest.mark.xfail("...")` in `class TestX:`, a list of
  // markers, a marker bound to a name and applied to methods below): reads of the class, as its
  // decorators' are.
  for (size_t i = 0; i < facts.symbols.size(); ++i) {
    const Symbol& s = facts.symbols[i];
    if (s.kind != SymbolKind::class_) continue;
    TSNode def = definition_starting_at(root, s.header_begin);
    TSNode body = ts_node_is_null(def) ? def : ts_node_child_by_field_name(def, "body", 4);
    if (ts_node_is_null(body)) continue;
    spelled.clear();
    assigned_markers(body, source, strings, spelled);
    for (auto& chain : spelled) quoted.push_back(QuotedName{static_cast<int32_t>(i), std::move(chain)});
  }
  // Module-level assignments (`pytestmark = pytest.mark.skipif("...")`, a marker bound to a name and
  // applied below): module-level reads.
  spelled.clear();
  assigned_markers(root, source, strings, spelled);
  for (auto& chain : spelled) quoted.push_back(QuotedName{-1, std::move(chain)});
}

std::vector<AnnotationChain> find_annotation_chains(TSNode root, std::string_view source, const FileFacts& facts,
                                                    std::vector<QuotedName>& quoted) {
  std::vector<AnnotationChain> out;
  Finder finder(source, out);
  std::vector<std::string> spelled;
  for (size_t i = 0; i < facts.symbols.size(); ++i) {
    const Symbol& s = facts.symbols[i];
    if (s.kind == SymbolKind::class_) continue;
    TSNode def = definition_starting_at(root, s.header_begin);
    if (ts_node_is_null(def) || type_of(def) != "function_definition") continue;
    auto symbol = static_cast<int32_t>(i);
    auto annotation = [&](TSNode type) {
      if (ts_node_is_null(type)) return;
      finder.annotation(type, symbol);
      spelled.clear();
      quoted_chains(type, source, spelled);
      for (auto& chain : spelled) quoted.push_back(QuotedName{symbol, std::move(chain)});
    };
    TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
    uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t k = 0; k < count; ++k) {
      TSNode p = ts_node_named_child(params, k);
      std::string_view t = type_of(p);
      if (t == "typed_parameter" || t == "typed_default_parameter") annotation(ts_node_child_by_field_name(p, "type", 4));
    }
    annotation(ts_node_child_by_field_name(def, "return_type", 11));
  }
  find_marker_conditions(root, source, facts, quoted);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace impact::python
