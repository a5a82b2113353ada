#pragma once
// What a caller's lines may keep across calls (keeping_callers.hpp): the text rules that tell a store
// into something outliving the call from one into a fresh local, read line by line.
#include "impact/python/project_facts.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// A character of a Python name.
bool name_char(char c);

// What in lines `first`..`last` of `lines` may keep a value across calls: an item stored into a
// container that outlives the call (an attribute's, `self.data[key] = value`, `vars(self)[k] = v`; a
// module-level name's, a parameter's, a closure's, an alias's: anything but a fresh local), a
// mutating call on one (`update`, `setdefault`, `__setitem__`; `append`, `add`, `extend`, `insert`
// too, but not on an attribute of `self`, an instance's own accumulator, `self.errors.append`, unless
// the instance may be shared: `shared_self`), a defaultdict made with a factory that leads to the
// change, or `setattr` (`bypassed`: a later read finds the attribute without running the caller at all, as a
// memoized call does).
std::optional<std::string> keeps_items(const std::vector<std::string_view>& lines, uint32_t first, uint32_t last,
                                       const std::set<std::string_view>& leading, bool shared_self,
                                       const std::set<std::string_view>& module_level, bool module_made,
                                       bool shares_instances, bool& bypassed);

// Whether decorator `decorator` (its text) is a function of this file whose code keeps nothing: no
// store into an item or an attribute, no `global`/`nonlocal`, `setattr`, `setdefault`, `update`, no
// cache-like name (pyflakes' `in_annotation` only enters a context around the call). A project's
// decorator is otherwise taken to cache (memoized.hpp).
bool only_wraps(const FactsView& view, const std::vector<std::string_view>& lines, std::string_view decorator);

} // namespace impact
