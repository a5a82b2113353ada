#pragma once
// The dynamic-access rules of the symbol walk (docs/selection.md `dynamic-access`): code that reads
// names computed at run time (getattr, setattr, hasattr with a computed name; a namespace read whole)
// may read a changed name.
#include "decision/rules/rule_family.hpp"
#include "resolve/file_index.hpp"

#include <functional>
#include <string_view>
#include <vector>

namespace impact::decision::rules {

class DynamicAccessRules : RuleFamily {
public:
  explicit DynamicAccessRules(SymbolWalk& walk) : RuleFamily(walk) {}

  // The computed-name readers (k_any_member_name, ...) that may run symbol `key`: a member may run
  // where a computed name reads any member (getattr(self, name)); a property's setter or deleter also
  // where setattr/delattr stores one, and its getter where hasattr looks one up. None for a
  // module-level name.
  std::vector<std::string_view> markers(const Key& key, bool member);
  // Whether namespace read `r` (`module.__dict__`, vars(cls), getmembers(x)) reads symbol `key`.
  bool reads_namespace(const resolve::Read& r, const Key& key, bool member) const;

private:
  bool is_property(const Key& key); // a property's getter (or a decorated member a lookup may run)
  bool is_setter(const Key& key);   // a property's setter or deleter (@x.setter, @x.deleter)
  // Whether a definition of `key` carries a decorator `wanted` accepts (true for a symbol gone).
  bool has_decorator(const Key& key, const std::function<bool(std::string_view)>& wanted);
};

} // namespace impact::decision::rules
