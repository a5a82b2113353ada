#pragma once
// Calls that name attributes or fixtures with strings, read by the reference pass
// (python/references.cpp; docs/selection.md `dynamic-access`): getattr(obj, "name") and its siblings
// read an attribute (a computed name could read any); operator.attrgetter("a", "b.c") and
// methodcaller("m") too; request.getfixturevalue("db") requests a fixture; inspect.getmembers(x) and
// vars(x) read a namespace.
#include "impact/python/facts.hpp"
#include "python/name_tables.hpp"
#include "python/reference_state.hpp"
#include "python/references.hpp"

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::python::reference_pass {

// getattr also stands for `inspect.getattr_static(obj, name)` and the unbound
// `object.__getattribute__(obj, name)`; bound_lookup is `x.__getattribute__(name)` (or `__getattr__`).
// patch_attr: a test double put in place of an attribute named by its object and a string
// (`monkeypatch.setattr(mail, "send", fake)`, `delattr`, `patch.object`, `mocker.spy`): it looks the
// attribute up (AttributeError when it is gone), and autospec copies its signature. patch_multiple:
// `patch.multiple(obj, send=DEFAULT)`, whose keywords name the attributes.
enum class Call : uint8_t { none, getattr, hasattr, setattr, attrgetter, methodcaller, fixture_value, members, vars, bound_lookup, patch_attr, patch_multiple };
struct CallState {
  Call kind = Call::none;
  uint32_t depth = 0; // bracket depth of the arguments; 0 outside such a call
  int argument = 0;
  int tokens = 0;     // tokens of the current argument
  std::string_view literal; // its first token, when a string
  int32_t owner = -1;
  std::string_view on_self; // the first argument, when it is exactly `self` or `cls` (else empty)
  std::string_view on_builtin_type = {}; // the first argument is exactly a builtin type's name (`str`)
  uint32_t begin = 0, end = 0; // the current argument's text, at the call's own depth
  bool dotted = false;         // ... made of names and dots only (`pkg.ops`)
  bool first_literal = false;  // the first argument was one string (`monkeypatch.setattr("pkg.f", fake)`)
};

// The lookup a method call `<chain>.name(...)` makes (Call::none for any other method).
Call method_lookup(std::string_view name, std::string_view chain);

// Whether `name` is a builtin type's (`str`, `dict`): getattr(str, name) reads none of the project's code.
bool is_builtin_type(std::string_view name);

// The names an import binds to a function that looks names up (`from operator import attrgetter as
// ag`, `from builtins import getattr as ga`) and to the builtins module (`import builtins as b`): a
// call of those is read as the function's own.
struct LookupAliases {
  std::vector<std::pair<std::string_view, std::string_view>> names; // "ga" -> "getattr"
  std::vector<std::string_view> builtins;                           // "b"

  static LookupAliases of(const FileFacts& facts);
  // The function `written` stands for: itself unless an import renamed a lookup function to it.
  std::string_view canonical(std::string_view written) const;
  bool is_builtins(std::string_view chain) const;
};

// Reads one argument of such a call at a time, in the file `src` whose facts and scratch sets the
// reference pass fills.
class NamedCalls {
public:
  using Read = std::function<void(std::string_view chain, bool stable)>;
  NamedCalls(std::string_view src, const FileFacts& facts, const ReferenceScratch& scratch, const std::vector<NameChoices>& choices)
      : m_src(src), m_facts(facts), m_scratch(scratch), m_choices(choices) {}

  // The end of one argument of `call`, in the code of owner `o`: what it names (to `read`, a chain and
  // whether its view outlives the pass), or that it names anything (`o`'s flags).
  void end_argument(const CallState& call, Owner& o, const Read& read) const;
  // A call of that kind whose arguments are not read: `kind` named as a value (`reduce(getattr, names,
  // obj)`, `map(attrgetter, paths)`) or called inside another such call's arguments
  // (`setattr(x, "f", getattr(mod, name))`). It may look up any name: what a computed name reads.
  static void unread_call(Call kind, Owner& o, const Read& read);

private:
  static std::string_view literal_value(std::string_view s);
  bool forwards_lookup(const CallState& call, const Owner& o) const;
  bool instance_param(const CallState& call, std::string_view name) const;
  bool on_instance(const CallState& call, const Owner& o) const;
  bool is_local(const CallState& call, const Owner& o, std::string_view name) const;

  std::string_view m_src;
  const FileFacts& m_facts;
  const ReferenceScratch& m_scratch;
  const std::vector<NameChoices>& m_choices; // getattr(obj, TABLE[key]) names (collect_references)
};

} // namespace impact::python::reference_pass
