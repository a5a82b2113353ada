#pragma once
// The class rules of the symbol walk (docs/selection.md `constructors`, `special-methods`,
// `member-precision`, `test-node-ids`): what a class does, its subclasses do; a constructor or a special
// method runs where the class is used; a method may be called by a base from outside the repository.
#include "decision/lazy.hpp"
#include "decision/rules/rule_family.hpp"
#include "impact/resolve/file_index.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::decision::rules {

class ClassRules : RuleFamily {
public:
  explicit ClassRules(SymbolWalk& walk) : RuleFamily(walk) {}

  // Symbol `key` is gone from its file `info`: a special or protocol method that is gone changes what
  // its class's instances do.
  void gone(const Key& key, const resolve::FileInfo& info, WalkKey self);
  // Symbol `index` of `info` (`key`) is reached: its subclasses, or its class when it is a special or
  // protocol method. True when a rule made its file file-level (a module's __getattr__).
  bool reached(const Key& key, const resolve::FileInfo& info, int32_t index, WalkKey self);
  // The classes whose bases name `key` (a class, or a module-level value that may hold one: `class
  // Child(Alias)` after `Alias = Base`) are reached, and test files defining one selected whole.
  void subclasses_reached(const Key& key, WalkKey self);
  // Method `key` of class `class_index` is reached: the class when a base from outside may call it,
  // and the test classes that inherit it.
  void method_reached(const Key& key, const resolve::FileInfo& info, int32_t class_index, WalkKey self);

  // Whether code of symbol `symbol` of file `h` that calls `.__init__` (or another constructor) on an
  // object it does not name (`super().__init__(...)`) may run the constructor of class `qualname` of
  // `node`: code outside a class may; a method may when its class is that class or a subclass of it.
  // (A mixin's super().__init__ runs it for an instance of a class deriving from both, whose makers
  // the `constructors` rule reaches through the subclass.)
  bool may_call_constructor(uint32_t h, int32_t symbol, uint32_t node, std::string_view qualname);
  // Whether one object's class can have both classes in its method resolution order as the class
  // statements show it: one derives from the other, or a class derives from both (at any depth). A
  // class not found, or a search for subclasses cut short, says yes.
  bool may_share_mro(uint32_t a, std::string_view a_qualname, uint32_t b, std::string_view b_qualname);
  // Whether making class `index` of `node` reads its body's annotations for nothing but the names
  // (docs/selection.md `annotations`): no metaclass, no decorator but known wrappers from outside
  // the repository, and bases (at any depth) that are the project's own such classes or inert ones
  // (object, Generic, Protocol, NamedTuple, TypedDict, builtin types, exceptions). A framework's
  // base (pydantic, attrs, an ORM, Enum) reads the annotations and may call what they name.
  bool inert_annotations(uint32_t node, int32_t index, int depth = 0);

private:
  // A class and its subclasses at any depth, whose methods' super() may reach its constructor: (file,
  // class symbol), or `open` when the search was cut short.
  struct Family {
    std::set<std::pair<uint32_t, int32_t>> classes;
    bool open = false;
  };
  const Family& family(uint32_t node, std::string_view qualname);
  // Whether class `index` of `node` has a base no name resolution shows: an expression (a call, a
  // conditional) or a name bound to something that is not a class of the project.
  bool computed_base(uint32_t node, int32_t index);

  // The classes of the repository whose bases may name class `qualname` of `node`: (file, symbol).
  std::vector<std::pair<uint32_t, int32_t>> subclasses(uint32_t node, std::string_view qualname);
  // A changed method's class: the test classes deriving from it, at any depth, run the tests they
  // inherit. A test method `method` selects its inherited ids in the classes pytest surely collects
  // (`test_x.py::TestSub::test_m`); otherwise (`method` empty, or a class pytest may not collect as
  // written) the subclasses' files are selected whole.
  void inherited_by_tests(WalkKey class_key, std::string_view method, std::set<WalkKey>& seen);
  // The test modules that import test class `class_key` by name collect its tests: selected whole.
  void imported_by_tests(WalkKey class_key);
  // Whether pytest collects class `index` of `info` with the name it has: a module-level `Test*`
  // class without __init__, or a direct unittest.TestCase subclass.
  bool surely_collected(const resolve::FileInfo& info, int32_t index) const;
  // What the classes defined outside the repository that a class inherits from, at any depth, may
  // call on its instances by name (a template method: codecs, threading, logging, json, ...): any
  // name, or for the abstract base classes of collections.abc only the names their mixin methods call
  // (MutableMapping.clear calls popitem; nothing of it calls get).
  struct ExternalCalls {
    bool any = false;
    std::vector<std::string_view> names; // non-special methods the known bases call on self
  };
  const ExternalCalls& external_calls(uint32_t node, int32_t class_index); // memoized per class
  void external_calls(uint32_t node, int32_t class_index, int depth, ExternalCalls& out);
  // The names a collections.abc base (or its typing alias) calls on self, if `base` of file `info` is one.
  static const std::vector<std::string_view>* abc_calls(const resolve::FileInfo& info, std::string_view base);
  // Methods that builtins and the standard library call by protocol (dict(obj): keys; a file: write).
  static bool is_protocol_method(std::string_view name);
  // Whether some file hands a class of this name (or an instance) to code the project may not
  // define (FileFacts::handed): a call of a name no file defines, a computed callee, a display or a
  // stored value; or to a project function that hands its parameter on so, one call deep.
  bool handed(std::string_view class_name);
  bool hands_on(std::string_view value, int depth);
  // Whether some file of the project defines a function, method or class named `name`.
  bool project_defines(std::string_view name);

  LazyMap<uint64_t, ExternalCalls> m_external_base; // (node << 32 | class index) -> external_calls
  LazyMap<std::string, bool> m_handed;                // handed(), per class name
  Lazy<std::vector<std::string_view>> m_defined;      // project_defines(): every symbol's name, sorted
  std::set<std::pair<WalkKey, std::string>> m_inherited; // (class, test method) searched already
  LazyMap<WalkKey, Family> m_families;
};

} // namespace impact::decision::rules
