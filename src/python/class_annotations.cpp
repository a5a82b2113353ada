// Class-body references read only in annotations (python/class_annotations.hpp).
#include "python/class_annotations.hpp"
#include "python/annotations.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace impact::python {

namespace {

// `from __future__ import annotations`: no annotation is evaluated where it is written. (The facts
// keep no __future__ import: the tree has it.)
bool postponed(TSNode root, std::string_view source) {
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode n = ts_node_named_child(root, i);
    if (type_of(n) != "future_import_statement") continue;
    uint32_t names = ts_node_named_child_count(n);
    for (uint32_t k = 0; k < names; ++k) {
      TSNode name = ts_node_named_child(n, k);
      if (type_of(name) == "aliased_import") name = ts_node_child_by_field_name(name, "name", 4);
      if (!ts_node_is_null(name) && node_text(name, source) == "annotations") return true;
    }
  }
  return false;
}

// The names of a class body and where they are read.
class BodyNames {
public:
  BodyNames(std::string_view src, bool postponed, const FileFacts& facts)
      : m_src(src), m_postponed(postponed), m_facts(facts) {}

  // The statements of the class body `block` (none read when no statement is annotated).
  void collect(TSNode block) {
    uint32_t count = ts_node_named_child_count(block);
    bool annotated = false;
    for (uint32_t i = 0; i < count && !annotated; ++i) annotated = !ts_node_is_null(annotation_of(ts_node_named_child(block, i)));
    if (!annotated) return;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode stmt = ts_node_named_child(block, i);
      TSNode type = annotation_of(stmt);
      if (ts_node_is_null(type)) {
        elsewhere(stmt);
        continue;
      }
      annotation(type);
      TSNode assign = ts_node_parent(type);
      elsewhere(ts_node_child_by_field_name(assign, "left", 4));
      elsewhere(ts_node_child_by_field_name(assign, "right", 5));
    }
  }

  // The chains read only in annotations: their root names are read nowhere else in the body.
  std::vector<std::string> only_annotated() const {
    std::vector<std::string> out;
    for (const auto& [chain, root] : m_annotated) {
      if (std::find(m_other.begin(), m_other.end(), root) != m_other.end()) continue;
      if (std::find(out.begin(), out.end(), chain) == out.end()) out.push_back(chain);
    }
    return out;
  }
  // The dotted names the annotations' strings spell (`clock: "Clock"`).
  const std::vector<std::string>& quoted() const { return m_quoted; }

private:
  // The annotation of statement `stmt` when it is an annotated assignment (`name: T` or `name: T = v`).
  static TSNode annotation_of(TSNode stmt) {
    if (type_of(stmt) != "expression_statement" || ts_node_named_child_count(stmt) != 1) return TSNode{};
    TSNode assign = ts_node_named_child(stmt, 0);
    return type_of(assign) == "assignment" ? ts_node_child_by_field_name(assign, "type", 4) : TSNode{};
  }

  // An annotation: its plain chains, where evaluating them runs no code of theirs. Without the
  // postponed evaluation a call (`Annotated[int, check()]`), a subscripted name (`Box[int]` runs
  // `Box.__class_getitem__`) or an operand (`A | None` may run a metaclass's `__or__`) runs code:
  // the whole annotation stays the body's own read then.
  void annotation(TSNode type) {
    quoted_chains(type, m_src, m_quoted); // forward references: looked up only by what reads the annotation
    if (!m_postponed && !inert(type)) {
      elsewhere(type);
      return;
    }
    chains(type);
  }

  // Whether evaluating `n` only looks names up: names, attributes, and subscripts of typing's own
  // forms over such (`Final[X]`, `Optional[X]`, `list[X]`), strings and None.
  bool inert(TSNode n) const {
    std::string_view t = type_of(n);
    if (t == "type") return ts_node_named_child_count(n) == 1 && inert(ts_node_named_child(n, 0));
    if (t == "identifier" || t == "string" || t == "none" || t == "concatenated_string") return true;
    if (t == "attribute") return inert(ts_node_child_by_field_name(n, "object", 6));
    if (t == "generic_type" || t == "subscript") {
      TSNode head = t == "subscript" ? ts_node_child_by_field_name(n, "value", 5) : ts_node_named_child(n, 0);
      if (ts_node_is_null(head) || !typing_form(node_text(head, m_src), m_facts)) return false;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 1; i < count; ++i) {
        if (!inert(ts_node_named_child(n, i))) return false;
      }
      return true;
    }
    if (t == "type_parameter" || t == "expression_list" || t == "tuple" || t == "list") {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        if (!inert(ts_node_named_child(n, i))) return false;
      }
      return true;
    }
    return false;
  }

  // Whether `head` is one of typing's forms (or a builtin container) as the file binds it: imported
  // from typing, typing_extensions or collections.abc (`from typing import Final`, `typing.Final`,
  // `import typing as t`), or a builtin the module does not rebind. A project class of that name
  // (`List[int]` with a `__class_getitem__` of its own) runs code.
  static bool typing_form(std::string_view head, const FileFacts& facts) {
    size_t dot = head.rfind('.');
    std::string_view last = dot == std::string_view::npos ? head : head.substr(dot + 1);
    static constexpr std::string_view k_forms[] = {
        "Final", "ClassVar", "Optional", "Union", "List", "Dict", "Set", "FrozenSet", "Tuple", "Type",
        "Sequence", "Mapping", "MutableMapping", "MutableSequence", "Iterable", "Iterator", "Callable",
        "Literal", "list", "dict", "set", "frozenset", "tuple", "type", "InitVar"};
    if (std::find(std::begin(k_forms), std::end(k_forms), last) == std::end(k_forms)) return false;
    auto typing_module = [](std::string_view m) {
      return m == "typing" || m == "typing_extensions" || m == "collections.abc" || m == "dataclasses";
    };
    std::string_view root = dot == std::string_view::npos ? head : head.substr(0, head.find('.'));
    bool defined = std::any_of(facts.symbols.begin(), facts.symbols.end(), [&](const Symbol& s) { return s.parent == -1 && s.name() == root; }) ||
                   std::find(facts.module_names.begin(), facts.module_names.end(), root) != facts.module_names.end();
    if (defined) return false;
    bool from_typing = false, other = false;
    for (const ImportFact& i : facts.imports) {
      for (size_t k = 0; k < i.aliases.size(); ++k) {
        std::string_view bound = i.aliases[k];
        if (i.kind != ImportKind::from && bound.empty()) bound = std::string_view(i.module).substr(0, i.module.find('.'));
        if (bound != root) continue;
        bool typing = i.level == 0 && (i.kind == ImportKind::from ? typing_module(i.module) && i.names[k] == last
                                                                   : typing_module(i.module));
        (typing ? from_typing : other) = true;
      }
    }
    if (other) return false;
    if (dot != std::string_view::npos) return from_typing && head.find('.') == dot; // `typing.Final`
    return from_typing || (last.front() >= 'a' && last.front() <= 'z'); // an import, or a builtin
  }

  // Every chain of a names-only annotation, as the references spell it.
  void chains(TSNode n) {
    std::string_view t = type_of(n);
    if (t == "identifier" || (t == "attribute" && plain_chain(n))) {
      m_annotated.emplace_back(dotted_text(n, m_src), std::string(node_text(chain_root(n), m_src)));
      return;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) chains(ts_node_named_child(n, i));
  }

  // Every name read anywhere else in the body. A method's body and annotations are its own reads
  // (docs/selection.md `annotations`); its defaults and decorators run in the class body. A nested
  // class's body is its own; its bases run here.
  void elsewhere(TSNode n) {
    if (ts_node_is_null(n)) return;
    std::string_view t = type_of(n);
    if (t == "function_definition") {
      defaults(ts_node_child_by_field_name(n, "parameters", 10));
      return;
    }
    if (t == "class_definition") {
      elsewhere(ts_node_child_by_field_name(n, "superclasses", 12));
      return;
    }
    if (t == "identifier") {
      m_other.emplace_back(node_text(n, m_src));
      return;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) elsewhere(ts_node_named_child(n, i));
  }

  void defaults(TSNode parameters) {
    if (ts_node_is_null(parameters)) return;
    uint32_t count = ts_node_named_child_count(parameters);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(parameters, i);
      if (type_of(p) == "default_parameter" || type_of(p) == "typed_default_parameter") {
        elsewhere(ts_node_child_by_field_name(p, "value", 5));
      }
    }
  }

  std::string_view m_src;
  bool m_postponed;
  const FileFacts& m_facts;
  std::vector<std::pair<std::string, std::string>> m_annotated; // (chain, its root name)
  std::vector<std::string_view> m_other;
  std::vector<std::string> m_quoted;
};

} // namespace

void mark_class_annotations(TSNode root, std::string_view source, FileFacts& facts) {
  bool any = std::any_of(facts.symbols.begin(), facts.symbols.end(), [](const Symbol& s) { return s.kind == SymbolKind::class_; });
  if (!any) return;
  bool later = postponed(root, source);
  for (Symbol& s : facts.symbols) {
    if (s.kind != SymbolKind::class_) continue;
    TSNode def = definition_starting_at(root, s.header_begin);
    TSNode body = ts_node_is_null(def) ? TSNode{} : ts_node_child_by_field_name(def, "body", 4);
    if (ts_node_is_null(body)) continue;
    BodyNames names(source, later, facts);
    names.collect(body);
    std::vector<std::string> only = names.only_annotated();
    // Forward references in strings: read by whatever reads the annotations, through the class.
    for (auto& chain : names.quoted()) {
      if (std::find(s.refs.begin(), s.refs.end(), chain) != s.refs.end()) continue;
      s.refs.push_back(chain);
      only.push_back(chain);
    }
    if (only.empty()) continue;
    auto sink = std::stable_partition(s.refs.begin(), s.refs.end(), [&](const std::string& ref) {
      return std::find(only.begin(), only.end(), ref) == only.end();
    });
    s.annotation_refs = static_cast<uint32_t>(s.refs.end() - sink);
  }
}

} // namespace impact::python
