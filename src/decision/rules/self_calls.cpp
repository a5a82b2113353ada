// docs/selection.md `self-calls`: `self.m(...)` in a method of class B, for a changed member C.m of
// another class C (an override in a subclass, a mixin's method), selects the tests that reach both C
// and the method of B, instead of whatever reaches the method of B. The read finds C.m only on an
// object whose class has C in its MRO; such an object was made by code that names C or a subclass of
// it (the argument of `special-methods` and of `dynamic-access`'s `dynamic_member`).
#include "decision/rules/self_calls.hpp"

#include "decision/symbol_walk.hpp"

#include <set>

namespace impact::decision::rules {

using resolve::FileInfo;

bool SelfCallRules::plain_method(uint32_t h, const FileInfo& info, int32_t reader) const {
  if (m_graph.nodes[h].test) return false;
  const SymbolView& s = info.at(reader);
  if (s.kind != SymbolKind::method || s.parent == -1 || info.at(s.parent).kind != SymbolKind::class_) return false;
  for (auto d = info.facts.begin(s.decorators); d != info.facts.end(s.decorators); ++d) {
    std::string_view name = last_part(*d);
    if (name == "staticmethod" || name == "classmethod") return false;
  }
  return true;
}

int32_t SelfCallRules::walkable_class(const Key& key) const {
  std::string_view owner = parent_part(key.qualname);
  const FileInfo* owner_info = m_index.get(key.node);
  int32_t cls = owner_info == nullptr ? -1 : owner_info->symbol(owner);
  if (cls < 0 || owner_info->at(cls).kind != SymbolKind::class_) return -1;
  // A test class of a test module is made by pytest, which collects it, not by code that names it:
  // the class's side cannot be walked, and the read stays a plain reference.
  if (m_graph.nodes[key.node].test && m_layout.may_collect_class(owner_info->facts.symbols, cls)) return -1;
  return cls;
}

bool SelfCallRules::bounded(const Key& key, uint32_t h, const FileInfo& info, int32_t reader, WalkKey self) {
  if (m_walk.mode() == Mode::safe || !plain_method(h, info, reader)) return false;
  std::string_view owner = parent_part(key.qualname);
  const FileInfo* owner_info = m_index.get(key.node);
  int32_t owner_symbol = owner_info == nullptr ? -1 : owner_info->symbol(owner);
  if (owner_symbol < 0 || owner_info->at(owner_symbol).kind != SymbolKind::class_) return false;
  // `self.m` in C's own methods (or a subclass's) is the usual call of one's own method: left as it is.
  const SymbolView& method = info.at(reader);
  if (h == key.node && info.at(method.parent).qualname == owner) return false;
  // No object's class derives from both B and C: `self.m` in B never finds C.m, at any depth of the walk.
  // This holds for a test class too (pytest makes it, but as an object of its own class, whose MRO
  // is known as any other's): `getattr(self, name)` in a library class never runs a test method.
  std::string_view reader_class = info.at(method.parent).qualname;
  if (foreign_self(h, info, reader)) return false;
  if (!m_walk.classes().may_share_mro(h, reader_class, key.node, owner) &&
      !made_together(last_part(reader_class), last_part(owner))) {
    return true;
  }
  int32_t cls = walkable_class(key);
  if (cls < 0) return false;
  return intersect(key, cls, h, info, reader, self, Relation::self_call);
}

bool SelfCallRules::bounded_value(const Key& key, uint32_t h, const FileInfo& info, int32_t reader, WalkKey self) {
  if (m_walk.mode() == Mode::safe || m_graph.nodes[h].test) return false;
  const SymbolView& s = info.at(reader);
  if (s.kind == SymbolKind::class_) return false;
  int32_t cls = walkable_class(key);
  if (cls < 0) return false;
  // In a method of the member's own class the object is most likely one of its own (`other.m` in
  // `__eq__`): whoever reaches the method reaches the class; the intersection would change nothing.
  if (h == key.node && s.parent >= 0 && info.at(s.parent).qualname == parent_part(key.qualname)) return false;
  return intersect(key, cls, h, info, reader, self, Relation::value_call);
}

bool SelfCallRules::intersect(const Key& key, int32_t cls, uint32_t h, const FileInfo& info, int32_t reader,
                              WalkKey self, Relation relation) {
  DynamicAccessRules& intersection = m_walk.dynamic_access();
  if (!intersection.intersects()) return false;
  std::string_view owner = parent_part(key.qualname);
  uint32_t line = m_index.get(key.node)->at(cls).def_line;
  // The same walk from the class as `dynamic_member`'s, when that rule made it already (its chains
  // then say `dynamic_member`), and one walk per class for both kinds of read.
  WalkKey class_key = m_walk.key_of(key.node, owner);
  const DynamicAccessRules::Covered* shared = intersection.class_users(class_key);
  const DynamicAccessRules::Covered& users = shared != nullptr ? *shared : m_class_users.get(class_key, [&] {
    return intersection.covered(m_walk.subwalk({SymbolSeed{key.node, std::string(owner), relation, line}}));
  });
  const SymbolView& method = info.at(reader);
  DynamicAccessRules::Covered readers =
      intersection.covered(m_walk.subwalk({SymbolSeed{h, std::string(method.qualname), Relation::references, method.def_line}}));
  intersection.select_both(users, readers, self);
  return true;
}

bool SelfCallRules::foreign_self(uint32_t h, const FileInfo& info, int32_t reader) {
  uint64_t id = (uint64_t{h} << 32) | static_cast<uint32_t>(reader);
  return m_foreign_self.get(id, [&] { return scan_foreign_self(h, info, reader); });
}

bool SelfCallRules::scan_foreign_self(uint32_t h, const FileInfo& info, int32_t reader) {
  const SymbolView& method = info.at(reader);
  // A class that forwards lookups (`__getattr__`, `__getattribute__`) in the reader's file, the files
  // it imports (where its bases are), or a file that names the reader's class or one of its bases
  // found so (a subclass names its base), by name.
  std::vector<std::string_view> classes{info.at(method.parent).name()};
  for (size_t i = 0; i < classes.size() && i < 64; ++i) {
    std::vector<uint32_t> files = m_facts.files_mentioning(classes[i]);
    if (i == 0) {
      files.push_back(h);
      for (const Edge& e : m_graph.out[h]) files.push_back(e.target);
    }
    for (uint32_t g : files) {
      const FileInfo* other = m_index.get(g);
      if (other == nullptr) return true;
      for (const SymbolView& s : other->facts.symbols) {
        bool in_class = s.parent >= 0 && other->at(s.parent).kind == SymbolKind::class_;
        if (in_class && (s.name() == "__getattr__" || s.name() == "__getattribute__")) return true;
        if (s.kind != SymbolKind::class_ || s.name() != classes[i] || i >= 16) continue;
        for (auto b = other->facts.begin(s.bases); b != other->facts.end(s.bases); ++b) {
          std::string_view base = last_part(*b);
          if (std::find(classes.begin(), classes.end(), base) == classes.end()) classes.push_back(base);
        }
      }
    }
  }
  std::string_view name = method.name();
  uint32_t id = m_index.intern(name);
  for (uint32_t g : m_facts.files_mentioning(name)) {
    for (const auto& r : m_index.reads(g, id, name)) {
      if (r.target->kind == resolve::Target::definition && m_index.may_denote(*r.target, h, method.qualname)) return true;
    }
  }
  return false;
}

bool SelfCallRules::made_together(std::string_view a, std::string_view b) {
  uint32_t ia = m_index.intern(a), ib = m_index.intern(b);
  // Asked again for every `self.m` read of the same two classes along a walk: scanned once per pair.
  return m_made_together.get((uint64_t{ia} << 32) | ib, [&] { return scan_made_together(a, ia, b, ib); });
}

bool SelfCallRules::scan_made_together(std::string_view a, uint32_t ia, std::string_view b, uint32_t ib) {
  for (uint32_t h : m_facts.files_mentioning(a)) {
    if (!m_facts.mentions(h, b)) continue;
    std::set<int32_t> both; // the symbols (-1: module level) that read both names
    for (const auto& ra : m_index.reads(h, ia, a)) {
      for (const auto& rb : m_index.reads(h, ib, b)) {
        if (ra.symbol == rb.symbol) both.insert(ra.symbol);
      }
    }
    for (std::string_view maker : {std::string_view("type"), std::string_view("new_class")}) {
      if (both.empty() || !m_facts.mentions(h, maker)) continue;
      for (const auto& r : m_index.reads(h, m_index.intern(maker), maker)) {
        if (both.contains(r.symbol)) return true;
      }
    }
  }
  return false;
}

} // namespace impact::decision::rules
