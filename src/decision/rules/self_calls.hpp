#pragma once
// The self-call rule of the symbol walk (docs/selection.md `self-calls`): `self.m(...)` in a method of
// class B runs a changed member C.m of another class only for an object whose class has C among its
// bases (a subclass of C, or a class deriving from both B and C). The tests that run it are among those
// that reach C (which make or hold such an object) and among those that reach the method of B: the
// intersection of two nested walks, as `dynamic-access` computes it for a computed getattr.
#include "decision/lazy.hpp"
#include "decision/rules/dynamic_access.hpp"
#include "decision/rules/rule_family.hpp"
#include "impact/resolve/file_index.hpp"

#include <cstdint>

namespace impact::decision::rules {

class SelfCallRules : RuleFamily {
public:
  explicit SelfCallRules(SymbolWalk& walk) : RuleFamily(walk) {}

  // Changed member `key` is read by symbol `reader` of file `h` as `self.<name>` and in no other way:
  // selects the tests that reach both the member's class and the reader and returns true; false when
  // the rule does not apply (the caller then reaches the reader as any other reference).
  bool bounded(const Key& key, uint32_t h, const resolve::FileInfo& info, int32_t reader, WalkKey self);
  // Changed member `key` is read by function `reader` of source file `h` as `value.<name>` (an
  // attribute of a parameter, a local or a call's result, whose class is not known) and in no other
  // way: the object is an instance of the member's class or of a subclass (or the class itself), so
  // the same intersection as bounded(), with relation `value_call`. False when the rule does not apply.
  bool bounded_value(const Key& key, uint32_t h, const resolve::FileInfo& info, int32_t reader, WalkKey self);

private:
  // Whether `reader` is a plain method of a class (not a static or class method, whose `self` is no
  // instance), defined in a source file (a test class's method is left to `test-node-ids`).
  bool plain_method(uint32_t h, const resolve::FileInfo& info, int32_t reader) const;
  // Whether `reader`'s `self` may be an object of a class outside its own class's MRO: the method is
  // read through its class somewhere (`cls.update = Mixin.update`, `alias = Other.m` in another
  // class's body, `Other.m(obj)`), or its class forwards lookups (`__getattr__`, `__getattribute__`).
  bool foreign_self(uint32_t h, const resolve::FileInfo& info, int32_t reader);
  bool scan_foreign_self(uint32_t h, const resolve::FileInfo& info, int32_t reader);
  // Whether code that names both classes also calls type() or types.new_class: a class made at run
  // time may derive from both.
  bool made_together(std::string_view a, std::string_view b);
  bool scan_made_together(std::string_view a, uint32_t ia, std::string_view b, uint32_t ib);
  // The member's class (an index of the owner's symbols), or -1 when the rules cannot walk it: not a
  // class, or a test class pytest collects (made by pytest, not by code that names it).
  int32_t walkable_class(const Key& key) const;
  // Selects the tests that reach both the member's class `cls` (a walk from it, `relation`) and the
  // reading method; false past the intersection limit.
  bool intersect(const Key& key, int32_t cls, uint32_t h, const resolve::FileInfo& info, int32_t reader,
                 WalkKey self, Relation relation);

  LazyMap<WalkKey, DynamicAccessRules::Covered> m_class_users; // per class: a walk from the class
  LazyMap<uint64_t, bool> m_made_together; // made_together(), by the two names' interned ids
  LazyMap<uint64_t, bool> m_foreign_self;   // foreign_self(), by file and symbol
};

} // namespace impact::decision::rules
