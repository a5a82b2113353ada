#pragma once
// getattr(obj, TABLE[key]) where TABLE is a function's own dict literal whose values are all plain
// string literals (docs/selection.md `dynamic-access`, name tables): the computed name is one of
// those strings, so the call reads those members and no other. semver's cmd_bump maps "major" to
// "bump_major" and so on, then calls getattr(version, maptable[part]).
#include "python/grammar.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace impact::python {

// The names the second argument of one getattr call can be, and where that argument starts.
struct NameChoices {
  uint32_t begin = 0; // start byte of the argument (`maptable[...]`)
  std::vector<std::string> names;
  bool operator<(const NameChoices& o) const { return begin < o.begin; }
};

// Every such getattr call of the file, ascending by `begin`. The table must be bound once in the
// function (not a parameter, not global or nonlocal) and be read nowhere but as such an argument:
// a table that is stored, passed on, updated or read otherwise may hold other names.
std::vector<NameChoices> find_name_choices(TSNode root, std::string_view source);

} // namespace impact::python
