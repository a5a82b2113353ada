#pragma once
// The dynamic-access rules of the symbol walk (docs/selection.md `dynamic-access`): code that reads
// names computed at run time (getattr, setattr, hasattr with a computed name; a namespace read whole)
// may read a changed name. A computed getattr reads a member of an object, or a name of a module
// object: outside `--mode safe` the walk follows where such objects come from, the code that names
// the member's class or that holds the module as a value, instead of every computed reader.
#include "decision/lazy.hpp"
#include "decision/rules/rule_family.hpp"
#include "decision/test_code.hpp"
#include "impact/decision.hpp"
#include "impact/resolve/file_index.hpp"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace impact::decision {
struct SymbolResult;
struct SymbolSeed;
} // namespace impact::decision

namespace impact::decision::rules {

class DynamicAccessRules : RuleFamily {
public:
  explicit DynamicAccessRules(SymbolWalk& walk) : RuleFamily(walk) {}

  // The computed-name readers (k_any_member_name, ...) that may run symbol `key`: a member where
  // getattr(self, computed) reads one, a property's setter or deleter where setattr/delattr stores
  // one, its getter where hasattr looks one up; in safe mode also any name where getattr(value,
  // computed) reads one.
  std::vector<std::string_view> markers(const Key& key, bool member);
  // Whether namespace read `r` (`module.__dict__`, vars(cls), getmembers(x)) reads symbol `key`.
  bool reads_namespace(const resolve::Read& r, const Key& key, bool member);
  // Symbol `key` (index `index` of `info`) is reached: a member of a class reaches the class
  // (`dynamic_member`) when code reads members by computed names, a module-level name the code that
  // holds its module as a value (`module_value`) or reads any module (`dynamic_access`). Not in
  // safe mode, where markers() gives every computed reader instead.
  void reached(const Key& key, const resolve::FileInfo& info, int32_t index, WalkKey self);
  // The same for a symbol no longer defined in `info`.
  void gone(const Key& key, const resolve::FileInfo& info, WalkKey self);
  // Module-level name `key` is read as an attribute of a value (`param.name`, `f().name`), which is
  // that name only when the value is its module: the code that holds the module as a value, or looks
  // it up, is reached (`module_value`), whether or not any getattr(value, computed) exists.
  void value_attribute(const Key& key, WalkKey self) { module_name(key, self, true); }
  // Special method `key` of class `owner` (defined on `line`) is one pickle and copy look up by name
  // (__reduce__, __getstate__, __deepcopy__, ...): it runs in the tests that hold an instance of the
  // class and reach code that pickles or copies. True when handled (see is_serialization_method).
  void serialization_method(const Key& key, std::string_view owner, uint32_t line, WalkKey self);
  static bool is_serialization_method(std::string_view name);
  // Method `index` of a class of test file `h` reads names by computed strings and may read the
  // changed symbol (of another file): only the files that load `h` make its instances, so their
  // tests are selected (whole), not whatever calls a method of that name.
  void test_class_reader(uint32_t h, const resolve::FileInfo& info, int32_t index, WalkKey self);

  // The intersection of two nested walks, which `self-calls` (rules/self_calls.cpp) shares.
  // What a walk selects, with file-level answers made whole test files: test ids and whole test files,
  // each with its chain.
  struct Covered {
    std::vector<std::pair<std::string, std::vector<Hop>>> tests;
    std::vector<std::pair<uint32_t, std::vector<Hop>>> files;
  };
  // Whether a rule may run its two sides as nested walks and intersect them (counted): at most
  // k_max_subwalks times per decision, at any depth of the walk, never inside a nested walk.
  bool intersects();
  Covered covered(const SymbolResult& result);
  // The tests both sides select; the chain is `users`' (the class's side), then `self`'s.
  void select_both(const Covered& users, const Covered& readers, WalkKey self);
  // The class's side of class `class_key` (a walk from the class) if this decision computed it.
  const Covered* class_users(WalkKey class_key) const { return m_class_users.find(class_key); }

private:
  bool is_property(const Key& key); // a property's getter (or a decorated member a lookup may run)
  bool is_setter(const Key& key);   // a property's setter or deleter (@x.setter, @x.deleter)
  // Whether a definition of `key` carries a decorator `wanted` accepts (true for a symbol gone).
  bool has_decorator(const Key& key, const std::function<bool(std::string_view)>& wanted);
  static constexpr uint32_t k_max_subwalks = 4;    // intersections per decision
  uint32_t m_subwalks = 0;
  // The files with getattr(value, computed).
  const std::vector<uint32_t>& value_readers();
  // Whether one of them may look up a member named `name` (its literal start, if any, allows it).
  bool value_reader_of(std::string_view name);
  // Whether any code reads the namespace of a value it cannot name (`record.__dict__`).
  bool reads_value_namespaces();
  // The tests that run a getattr(value, computed): a nested walk from every such code.
  const Covered& reader_callers();
  // Where a nested walk starts: symbols, and files whose import runs the code (with their chains).
  struct Seeds {
    std::vector<SymbolSeed> symbols;
    std::unordered_map<uint32_t, std::vector<Hop>> import_time;
  };
  // Code `symbol` of file `h` (-1: module level) as a seed reached with `relation`.
  void add_seed(Seeds& seeds, uint32_t h, const resolve::FileInfo& info, int32_t symbol, Relation relation);
  Covered walk_from(Seeds seeds); // what a nested walk from `seeds` selects
  // The tests that read names of a module value: getattr(value, computed), `value.__dict__`.
  const Covered& module_readers();
  // What a nested walk from the code that reads any of `names` selects (`relation` on its seeds).
  Covered callers_of(std::span<const std::string_view> names, Relation relation);
  // fn(file, its info, the reading symbol or -1) for every read of one of `names` in the project.
  void for_each_read(std::span<const std::string_view> names, const std::function<void(uint32_t, const resolve::FileInfo&, int32_t)>& fn);
  void member(const Key& key, const resolve::FileInfo& info, std::string_view owner, WalkKey self);
  // `attribute`: asked for by value_attribute(), not only for getattr(value, computed).
  void module_name(const Key& key, WalkKey self, bool attribute = false);
  // Whether import_module / __import__ calls in file `h` may return module `node` or a package of it.
  bool imports_may_give(uint32_t h, uint32_t node);
  // hold(file, info, symbol) for the code that looks one of `modules` up by a literal key.
  void literal_lookups(const std::vector<uint32_t>& modules, const std::function<void(uint32_t, const resolve::FileInfo&, int32_t)>& hold);
  // The code of file `h` that holds a module as a value (a reference that is the module itself, `mod`
  // or `pkg.mod`, not `mod.name`), with the modules: computed once per file.
  const std::vector<std::pair<int32_t, std::vector<uint32_t>>>& module_values(uint32_t h);
  // `node` and the packages that contain it: a module is reachable through a package's attributes.
  std::vector<uint32_t> module_and_packages(uint32_t node) const;
  // The modules whose namespace holds module-level name `key`: its own, every module that binds it
  // at module level by importing it (`from pkg.x import helper [as h]`, a star import), so that
  // `vars(mod)[name]` or getattr(mod, name) there gives it too, and every module that binds its
  // module itself (`from pkg import x`, `import pkg.x as x`: getattr(mod, "x").helper).
  std::vector<uint32_t> namespaces_holding(const Key& key);
  // Per module: its importers' module-level `from ... import name [as alias]`, by imported name, its
  // importers with a star import, and the importers that bind the module itself.
  struct Bindings {
    std::unordered_map<std::string, std::vector<std::pair<uint32_t, std::string>>> by_name;
    std::vector<uint32_t> star;
    std::vector<uint32_t> module_binders; // `from pkg import x`, `import pkg.x as alias`
  };
  // The code that reads symbol `symbol` of `h` (-1: module level) is reached, or its file made
  // file-level, with `relation`.
  void reach_code(uint32_t h, const resolve::FileInfo& info, int32_t symbol, WalkKey self, Relation relation);

  Lazy<std::vector<uint32_t>> m_value_readers;
  Lazy<bool> m_value_namespaces;
  LazyMap<uint32_t, std::vector<std::string>> m_lookup_tops; // per file: what its imports by name may return
  Lazy<Covered> m_reader_callers;
  Lazy<Covered> m_module_readers;
  Lazy<Covered> m_serializer_callers; // the tests that reach code naming pickle, copy, ...
  LazyMap<WalkKey, Covered> m_class_users; // per class: the tests a walk from the class selects
  LazyMap<uint32_t, std::vector<std::pair<int32_t, std::vector<uint32_t>>>> m_module_values;
  // module_name() ran for this module already: its holders reached, or intersected with the readers.
  std::unordered_set<uint32_t> m_modules_reached;
  std::unordered_set<uint32_t> m_modules_intersected;
  Lazy<TestCode> m_test_code; // which files are the tests' own code
  LazyMap<uint32_t, Bindings> m_bindings; // namespaces_holding()'s index, by module
};

} // namespace impact::decision::rules
