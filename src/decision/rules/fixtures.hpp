#pragma once
// The fixture rules of the symbol walk (docs/selection.md `fixtures`, and the setup and teardown part
// of `test-node-ids`): a changed fixture reaches the tests and fixtures that request it, in its scope.
#include "decision/rules/rule_family.hpp"
#include "impact/python/project_facts.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace impact::decision::rules {

class FixtureRules : RuleFamily {
public:
  explicit FixtureRules(SymbolWalk& walk) : RuleFamily(walk) {}

  // A reached symbol `sym` (`key`): if it is a fixture, what requests it; if it is an xunit-style setup
  // or teardown of a test file, that file whole.
  void reached(const Key& key, const SymbolView& sym, WalkKey self);

private:
  // What requests `fixture` of `node` by `fixture_name` (its own name, or an alias an importer gives it).
  void fixture_consumers(uint32_t node, const SymbolView& fixture, std::string_view fixture_name, WalkKey from);
  // The other names the conftest.py files and test modules importing `node` bind its `name` to.
  std::vector<std::string_view> import_aliases(uint32_t node, std::string_view name);
  // Whether symbol `s` of `node` carries a decorator of the project's own (not pytest's marks), which
  // may be a usefixtures mark kept in a variable.
  bool marked_by_project(uint32_t node, const SymbolView& s);
  // Whether class `class_index` of `node` inherits, from a class of another file, a usefixtures mark
  // or a method that requests fixture `name`.
  bool inherits_request(uint32_t node, int32_t class_index, const std::string& name, int depth);
  static bool is_fixture_hook(std::string_view name);
};

} // namespace impact::decision::rules
