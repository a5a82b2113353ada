#pragma once
// The registration rules of the symbol walk (docs/selection.md `registration`): a function called by a
// framework rather than by its name (a pytest hook, a function behind a registering decorator) and a
// class made from a registry of subclasses make their module file-level.
#include "decision/rules/rule_family.hpp"
#include "impact/resolve/file_index.hpp"

#include <string_view>

namespace impact::decision {

// Decorators that leave a function reachable only by its name (no registration anywhere).
bool is_transparent_decorator(std::string_view callee);

// Whether decorator `callee` of file `node` is the project's own code (defined or assigned in the
// repository, or not known), rather than a builtin or something imported from outside.
bool defined_in_project(resolve::FileIndex& index, uint32_t node, std::string_view callee);

// Whether pytest calls hook `hook` (a `pytest_*` name) only for the nodes under the conftest.py that
// implements it (pytest_runtest_setup, pytest_collect_file, ...), not for the whole session.
bool path_scoped_hook(std::string_view hook);

// Whether symbol `s` is a hook pytest calls for the whole session from whichever conftest.py or plugin
// implements it: a module-level `pytest_*` function path_scoped_hook() does not name.
bool session_hook(const SymbolView& s);
// The same by name alone: `pytest_*` that path_scoped_hook() does not name, `pytest_plugins` aside
// (a hook may also be a plugin object's method or a name bound by assignment).
bool session_hook_name(std::string_view name);

// Whether decorator `callee` of file `node` is imported from a testing library and known to only wrap
// (freezegun's freeze_time, unittest.mock's patch, hypothesis's given and settings, unittest's skip):
// the name it is used under is followed through the file's imports to where it comes from.
bool library_wrapper(resolve::FileIndex& index, uint32_t node, std::string_view callee);

namespace rules {

class RegistrationRules : RuleFamily {
public:
  explicit RegistrationRules(SymbolWalk& walk) : RuleFamily(walk) {}

  // Symbol `index` of `info` (`key`) is reached: true when a rule made its file file-level, so that the
  // walk goes no further from it.
  bool reached(const Key& key, const resolve::FileInfo& info, int32_t index, WalkKey self);
  // Whether `callee(f, ...)` in file `node` only wraps `f`: a function of the repository that, called
  // with the function as its first argument, returns it or a wrapper calling it (Symbol::wraps_direct),
  // under every definition of its name (docs/selection.md `stored-values`).
  bool wrapping_call(uint32_t node, std::string_view callee) { return wrapping_decorator(node, callee, true); }

private:
  // Whether decorator `callee` of file `node` is a function of the repository that only wraps what it
  // is given (Symbol::wraps_only; with `direct`, Symbol::wraps_direct), under every definition of its name.
  bool wrapping_decorator(uint32_t node, std::string_view callee, bool direct = false);
  // Whether decorator `callee` (a plain name) is a compatibility shim that wraps under each of its
  // bindings: `from typing import override` in one branch, `def override(f): return f` in another.
  bool wrapping_shim(uint32_t node, std::string_view callee, bool direct);

  // Whether the class, or a class of the repository it derives from, defines __init_subclass__ or has
  // a metaclass: such hierarchies tend to keep a registry of their subclasses.
  bool registers_subclasses(uint32_t node, int32_t class_index, int depth);
};

} // namespace rules
} // namespace impact::decision
