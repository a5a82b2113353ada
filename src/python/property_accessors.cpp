// Property accessor decorators read no method (property_accessors.hpp).
#include "python/property_accessors.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace impact::python {

namespace {

constexpr std::array<std::string_view, 3> k_accessors = {"setter", "getter", "deleter"};

bool is_accessor(std::string_view accessor) {
  return std::find(k_accessors.begin(), k_accessors.end(), accessor) != k_accessors.end();
}

// `@property` (abc's abstractproperty is one too).
bool builtin_property(std::string_view d) {
  return d == "property" || d == "builtins.property" || d == "abstractproperty" || d == "abc.abstractproperty";
}

// `@size.setter` on a method named `size`: an accessor of the property the name is bound to.
bool accessor_of(std::string_view d, std::string_view name) {
  return d.size() > name.size() + 1 && d.starts_with(name) && d[name.size()] == '.' && is_accessor(d.substr(name.size() + 1));
}

// The method name `ref` reads an accessor of (`size` of `size.setter`), or "".
std::string_view accessor_owner(std::string_view ref) {
  size_t dot = ref.find('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  return is_accessor(ref.substr(dot + 1)) ? ref.substr(0, dot) : std::string_view();
}

} // namespace

void drop_property_accessor_reads(FileFacts& facts) {
  for (size_t c = 0; c < facts.symbols.size(); ++c) {
    Symbol& cls = facts.symbols[c];
    if (cls.kind != SymbolKind::class_) continue;
    // Every definition of the name in the class body makes a property (one by `@property`): whatever
    // the name is bound to where the accessor is read, it is a property object.
    auto is_property = [&](std::string_view name) {
      bool made = false;
      for (const Symbol& s : facts.symbols) {
        if (s.parent != static_cast<int32_t>(c) || s.name() != name) continue;
        if (s.kind == SymbolKind::class_) return false;
        bool property = std::any_of(s.decorators.begin(), s.decorators.end(), builtin_property);
        auto accessor = [&](const std::string& d) { return accessor_of(d, name); };
        if (!property && !std::any_of(s.decorators.begin(), s.decorators.end(), accessor)) return false;
        made = made || property;
      }
      return made;
    };
    // The tails counted by namespace_values and annotation_refs stay as they are.
    size_t tail = std::max(cls.namespace_values, cls.annotation_refs);
    if (tail >= cls.refs.size()) continue;
    auto end = cls.refs.end() - static_cast<std::ptrdiff_t>(tail);
    auto kept = std::remove_if(cls.refs.begin(), end, [&](const std::string& r) {
      std::string_view owner = accessor_owner(r);
      return !owner.empty() && is_property(owner);
    });
    cls.refs.erase(kept, end);
  }
}

} // namespace impact::python
