// docs/selection.md `dynamic-access`: getattr(self, <computed>) may read any member (and no
// module-level name); setattr/delattr(obj, <computed>) run only a property's setter or deleter, and
// hasattr(obj, <computed>) only a getter; `module.__dict__`, vars(module) and getmembers(module) read
// every name of the module, vars(cls) and cls.__dict__ every member of the class. The files and symbols
// that read names by computed strings (eval, globals()[...]) are candidates for every name: see
// ProjectTables::dynamic_files and ReferenceRules (relation `dynamic_access`).
#include "decision/rules/dynamic_access.hpp"

#include "decision/rules/registration.hpp"
#include "decision/symbol_walk.hpp"

#include <algorithm>

namespace impact::decision::rules {

using resolve::FileInfo;
using resolve::Read;
using resolve::Target;

std::vector<std::string_view> DynamicAccessRules::markers(const Key& key, bool member) {
  std::vector<std::string_view> out;
  if (member) {
    out.push_back(k_any_member_name);
    if (is_setter(key)) out.push_back(k_any_setter_name);
    if (is_property(key)) out.push_back(k_any_getter_name);
  }
  return out;
}

// An instance's __dict__ (`other.__dict__`, a plain name) holds its data, not the methods of its class.
bool DynamicAccessRules::reads_namespace(const Read& r, const Key& key, bool member) const {
  const Target& t = *r.target;
  if (!member) {
    return t.kind == Target::unknown ||
           (t.kind == Target::module && std::find(t.modules.begin(), t.modules.end(), key.node) != t.modules.end());
  }
  if (t.kind == Target::definition) return m_index.may_denote(t, key.node, parent_part(key.qualname));
  if (t.kind == Target::unknown) return r.class_like;
  return false;
}

bool DynamicAccessRules::is_setter(const Key& key) {
  return has_decorator(key, [](std::string_view d) { return d.ends_with(".setter") || d.ends_with(".deleter"); });
}

bool DynamicAccessRules::is_property(const Key& key) {
  // A getter, or something like one whose call a lookup runs (cached_property, abstractproperty).
  return has_decorator(key, [](std::string_view d) {
    return d.ends_with("property") || d.ends_with(".getter") || !is_transparent_decorator(d);
  });
}

bool DynamicAccessRules::has_decorator(const Key& key, const std::function<bool(std::string_view)>& wanted) {
  const FileInfo* info = m_index.get(key.node);
  if (info == nullptr || info->symbol(key.qualname) < 0) return true; // gone: it may have had one
  // A property and its setter share the qualified name: look at every definition of it.
  for (const SymbolView& s : info->facts.symbols) {
    if (s.qualname != key.qualname) continue;
    for (auto d = info->facts.begin(s.decorators); d != info->facts.end(s.decorators); ++d) {
      if (wanted(*d)) return true;
    }
  }
  return false;
}

} // namespace impact::decision::rules
