#include "python/namespace_stores.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace impact::python {

namespace {

constexpr std::string_view k_namespace = "doctest_namespace";

struct Store {
  TSNode value;      // the right-hand side
  std::string chain; // its text, as the references spell it
  std::string_view root;
};

class Stores {
public:
  explicit Stores(std::string_view src) : m_src(src) {}

  // `doctest_namespace[key] = chain` statements in `node`, and every use of a name elsewhere.
  void collect(TSNode node) {
    if (type_of(node) == "assignment") {
      TSNode left = ts_node_child_by_field_name(node, "left", 4);
      TSNode right = ts_node_child_by_field_name(node, "right", 5);
      if (!ts_node_is_null(left) && !ts_node_is_null(right) && type_of(left) == "subscript" && plain_chain(right)) {
        TSNode target = ts_node_child_by_field_name(left, "value", 5);
        if (!ts_node_is_null(target) && node_text(target, m_src) == k_namespace) {
          m_stores.push_back({right, dotted_text(right, m_src), node_text(chain_root(right), m_src)});
        }
      }
    }
    if (type_of(node) == "identifier") m_names.push_back(node);
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) collect(ts_node_named_child(node, i));
  }

  // The stored chains whose root name appears nowhere but in such a store.
  std::vector<std::string> only_stored() const {
    std::vector<std::string_view> roots;
    for (const Store& s : m_stores) roots.push_back(s.root);
    std::erase_if(roots, [&](std::string_view root) {
      return std::any_of(m_names.begin(), m_names.end(), [&](TSNode n) { return node_text(n, m_src) == root && !stored(n); });
    });
    std::vector<std::string> out;
    for (const Store& s : m_stores) {
      if (std::find(roots.begin(), roots.end(), s.root) != roots.end()) out.push_back(s.chain);
    }
    return out;
  }

private:
  // Whether identifier `n` is the root of a stored chain (an attribute's name is no variable).
  bool stored(TSNode n) const {
    TSNode parent = ts_node_parent(n);
    if (!ts_node_is_null(parent) && type_of(parent) == "attribute" &&
        same_node(ts_node_child_by_field_name(parent, "attribute", 9), n)) {
      return true;
    }
    if (!ts_node_is_null(parent) && type_of(parent) == "keyword_argument" &&
        same_node(ts_node_child_by_field_name(parent, "name", 4), n)) {
      return true;
    }
    return std::any_of(m_stores.begin(), m_stores.end(), [&](const Store& s) { return same_node(chain_root(s.value), n); });
  }

  std::string_view m_src;
  std::vector<Store> m_stores;
  std::vector<TSNode> m_names;
};

} // namespace

void mark_namespace_values(TSNode root, std::string_view source, FileFacts& facts) {
  if (source.find(k_namespace) == std::string_view::npos) return; // almost every file
  for (Symbol& s : facts.symbols) {
    if (s.kind == SymbolKind::class_ || std::find(s.params.begin(), s.params.end(), k_namespace) == s.params.end()) continue;
    TSNode def = definition_starting_at(root, s.header_begin);
    TSNode body = ts_node_is_null(def) ? TSNode{} : ts_node_child_by_field_name(def, "body", 4);
    if (ts_node_is_null(body)) continue;
    Stores stores(source);
    stores.collect(body);
    std::vector<std::string> only = stores.only_stored();
    if (only.empty()) continue;
    auto sink = std::stable_partition(s.refs.begin(), s.refs.end(), [&](const std::string& ref) {
      return std::find(only.begin(), only.end(), ref) == only.end();
    });
    s.namespace_values = static_cast<uint32_t>(s.refs.end() - sink);
  }
}

} // namespace impact::python
