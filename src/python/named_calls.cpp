// Calls that name attributes with strings: what each argument reads (python/named_calls.hpp).
#include "python/named_calls.hpp"

#include "python/literals.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace impact::python::reference_pass {

// The builtin types, whose attributes a program cannot set: getattr(str, name) reads none of its code.
Call method_lookup(std::string_view name, std::string_view chain) {
  if (name == "getfixturevalue") return Call::fixture_value;
  if (name == "attrgetter") return Call::attrgetter;
  if (name == "methodcaller") return Call::methodcaller;
  // doctest.testmod(module) and DocTestSuite(module) run the examples of every member: the module's
  // namespace is read, as getmembers(module) reads it.
  if (name == "getmembers" || name == "testmod" || name == "DocTestSuite") return Call::members;
  if (name == "getattr_static") return Call::getattr;
  // monkeypatch.setattr(obj, "name", value) and delattr, mocker.spy(obj, "name"), and
  // patch.object(obj, "name") / patch.multiple(obj, name=...) from unittest.mock or pytest-mock.
  if (name == "setattr" || name == "delattr" || name == "spy") return Call::patch_attr;
  if (name == "object" && chain.ends_with("patch")) return Call::patch_attr;
  if (name == "multiple" && chain.ends_with("patch")) return Call::patch_multiple;
  return Call::none;
}

bool is_builtin_type(std::string_view name) {
  static constexpr std::array<std::string_view, 17> k_types = {
      "bool",  "bytearray", "bytes", "complex", "dict",  "float", "frozenset", "int", "list",
      "memoryview", "object", "range", "set", "slice", "str", "tuple", "type"};
  return std::find(k_types.begin(), k_types.end(), name) != k_types.end();
}

LookupAliases LookupAliases::of(const FileFacts& facts) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> k_lookups = {{
      {"_operator", "attrgetter"}, {"builtins", "delattr"}, {"builtins", "eval"}, {"builtins", "exec"},
      {"builtins", "getattr"}, {"builtins", "globals"}, {"builtins", "hasattr"}, {"builtins", "locals"},
      {"builtins", "setattr"}, {"builtins", "vars"}, {"inspect", "getattr_static"}, {"inspect", "getmembers"},
      {"operator", "attrgetter"}, {"operator", "methodcaller"}}};
  LookupAliases out;
  for (const auto& i : facts.imports) {
    if (i.level != 0) continue;
    if (i.kind == ImportKind::plain) {
      if (i.module == "builtins" && !i.aliases.empty() && !i.aliases[0].empty()) out.builtins.push_back(i.aliases[0]);
      continue;
    }
    for (size_t k = 0; k < i.names.size() && k < i.aliases.size(); ++k) {
      if (i.aliases[k] == i.names[k]) continue;
      for (const auto& [module, name] : k_lookups) {
        if (module == i.module && name == i.names[k]) out.names.emplace_back(i.aliases[k], name);
      }
    }
  }
  return out;
}

std::string_view LookupAliases::canonical(std::string_view written) const {
  for (const auto& [alias, name] : names) {
    if (alias == written) return name;
  }
  return written;
}

bool LookupAliases::is_builtins(std::string_view chain) const {
  return chain == "builtins" || std::find(builtins.begin(), builtins.end(), chain) != builtins.end();
}

std::string_view NamedCalls::literal_value(std::string_view s) {
  while (!s.empty() && s.front() != '"' && s.front() != '\'') s.remove_prefix(1);
  size_t quotes = s.starts_with("\"\"\"") || s.starts_with("'''") ? 3 : 1;
  if (s.size() < 2 * quotes) return {};
  return s.substr(quotes, s.size() - 2 * quotes);
}

// The end of one argument of such a call: what it names, or that it names anything.
void NamedCalls::end_argument(const CallState& call, Owner& o, const Read& read) const {
  if (call.kind == Call::members || call.kind == Call::vars) {
    if (call.argument != 0) return;
    if (call.tokens == 0) {
      if (call.owner == -1) o.dynamic = true; // vars() at module level: globals()
      else o.reads_locals = true;               // in a function: its locals
      return;
    }
    std::string chain(m_src.substr(call.begin, call.end - call.begin));
    std::erase_if(chain, [](char c) { return c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r'; });
    std::string_view root = std::string_view(chain).substr(0, chain.find('.'));
    // The members of a computed value may be anything's. getmembers(value) of a value the code was
    // given (a parameter or a local, `cls` of a plain function included) is getattr(value, name) for
    // every name dir() lists: a computed getattr. vars(value) is value.__dict__, read as such
    // (`dynamic-access`).
    bool given = is_local(call, o, root) && !instance_param(call, root);
    if (!call.dotted) {
      o.dynamic = true;
      return;
    }
    // vars(cls) of a class given to a plain function (a class decorator's `cls`): every member of
    // whatever class it is, as getmembers.
    bool class_named = root == "cls" || root == "klass" || root == "mcs";
    if (given && (call.kind == Call::members || class_named)) {
      read(k_any_value_attr, true);
      return;
    }
    // getmembers(self) lists the class's methods too (vars(self) only the instance's attributes).
    if (call.kind == Call::members && !given && (root == "self" || root == "cls")) {
      read(k_any_member, true);
    }
    chain.append(".__dict__");
    read(chain, false);
    return;
  }
  if (call.kind == Call::patch_attr) {
    // The string form (`monkeypatch.setattr("pkg.mail.send", fake)`) is a string reference; a name
    // computed is any attribute, as getattr's.
    if (call.argument != 1 || call.first_literal || call.tokens == 0) return;
    std::string_view value = call.tokens == 1 ? literal_value(call.literal) : std::string_view();
    if (value.empty()) {
      read(k_any_value_attr, true);
      return;
    }
    std::string attr(1, '.');
    attr.append(value);
    read(attr, false);
    return;
  }
  if (call.kind == Call::patch_multiple) {
    // A keyword argument `send=DEFAULT` names the attribute `send` of the first argument.
    std::string_view text = m_src.substr(call.begin, call.end - call.begin);
    size_t name_end = 0;
    while (name_end < text.size() && (std::isalnum(static_cast<unsigned char>(text[name_end])) != 0 || text[name_end] == '_')) ++name_end;
    size_t eq = text.find_first_not_of(" \t", name_end);
    if (call.argument == 0 || name_end == 0 || eq == std::string_view::npos || text[eq] != '=' || text.substr(eq, 2) == "==") return;
    std::string attr(1, '.');
    attr.append(text.substr(0, name_end));
    read(attr, false);
    return;
  }
  bool by_name = call.kind == Call::getattr || call.kind == Call::hasattr || call.kind == Call::setattr;
  // getattr(*pair): where the name is, is not known.
  if (by_name && call.argument == 0 && call.tokens > 0 && m_src[call.begin] == '*') {
    unread_call(call.kind, o, read);
    return;
  }
  bool named = call.kind == Call::attrgetter || (by_name && call.argument == 1) ||
               ((call.kind == Call::methodcaller || call.kind == Call::fixture_value || call.kind == Call::bound_lookup) &&
                call.argument == 0);
  if (!named || call.tokens == 0) return;
  if (call.kind == Call::getattr) {
    // getattr(obj, TABLE[key]) with a table of literal names: one of those members.
    auto it = std::lower_bound(m_choices.begin(), m_choices.end(), NameChoices{call.begin, {}});
    if (it != m_choices.end() && it->begin == call.begin) {
      for (const auto& name : it->names) read("." + name, false);
      return;
    }
  }
  if (call.tokens != 1 || call.literal.empty()) {
    if (call.kind == Call::fixture_value) {
      o.dynamic_fixtures = true;
    } else if (call.kind == Call::setattr) {
      // setattr(obj, name, value) stores; only a property's setter or deleter runs code.
      read(on_instance(call, o) ? k_self_setter : k_any_setter, true);
    } else if (call.kind == Call::hasattr) {
      // hasattr(obj, name) looks the attribute up and calls nothing but a property's getter.
      read(on_instance(call, o) ? k_self_getter : k_any_getter, true);
    } else if ((call.kind == Call::getattr || call.kind == Call::bound_lookup) && forwards_lookup(call, o)) {
      // __getattr__(self, name): getattr(self._wrapped, name) reads the attribute the caller
      // named, and the caller's code names it.
    } else if (call.kind == Call::getattr && !call.on_builtin_type.empty() &&
               !m_scratch.bound.contains(call.on_builtin_type) && !is_local(call, o, call.on_builtin_type)) {
      // getattr(str, case): an attribute of a builtin type, which holds no project code (its
      // attributes cannot be set), whatever the name.
    } else if (call.kind == Call::getattr && on_instance(call, o)) {
      // getattr(self, computed): any member of the object, but no module-level name; with a
      // literal prefix (getattr(self, "visit_" + kind)), only a member whose name starts with it.
      std::string prefix = identifier_prefix(m_src.substr(call.begin, call.end - call.begin));
      if (prefix.empty()) read(k_any_member, true);
      else read(std::string(k_any_member) + prefix, false);
    } else {
      // getattr(stream, attr): a member of whatever object it is given, or a module-level name when
      // that object is a module; the decision follows where such objects come from. With a literal
      // start (getattr(version, "bump_" + part)), only a name that starts with it.
      std::string prefix = identifier_prefix(m_src.substr(call.begin, call.end - call.begin));
      if (prefix.empty()) read(k_any_value_attr, true);
      else read(std::string(k_any_value_attr) + prefix, false);
    }
    return;
  }
  std::string_view value = literal_value(call.literal);
  if (value.empty()) return;
  if (call.kind == Call::fixture_value) {
    o.fixture_requests.emplace_back(value);
    return;
  }
  std::string attr(1, '.');
  attr.append(value);
  read(attr, false);
}

void NamedCalls::unread_call(Call kind, Owner& o, const Read& read) {
  switch (kind) {
  case Call::none: return;
  case Call::getattr:
  case Call::attrgetter:
  case Call::methodcaller:
  case Call::members:
  case Call::bound_lookup: read(k_any_value_attr, true); return;
  case Call::hasattr: read(k_any_getter, true); return;
  case Call::setattr: read(k_any_setter, true); return;
  case Call::patch_attr:
  case Call::patch_multiple: return; // its arguments' own reads hold (`patch.object(*target)` is rare)
  case Call::fixture_value: o.dynamic_fixtures = true; return;
  case Call::vars: o.dynamic = true; return; // the namespace of anything
  }
}

// Inside __getattr__ / __getattribute__, whether the current argument is exactly the name being
// looked up (the parameter after self; the first one for a module's __getattr__), never rebound.
bool NamedCalls::forwards_lookup(const CallState& call, const Owner& o) const {
  if (call.owner < 0 || call.tokens != 1 || !call.dotted) return false;
  const Symbol& s = m_facts.symbols[static_cast<size_t>(call.owner)];
  std::string_view fn = s.name();
  if (fn != "__getattr__" && fn != "__getattribute__") return false;
  size_t index = s.kind == SymbolKind::method ? 1 : 0;
  if (s.params.size() <= index || m_src.substr(call.begin, call.end - call.begin) != s.params[index]) return false;
  // `name = ALIASES.get(name, name)` looks up another name.
  return !m_scratch.locals.contains(OwnedName{o.id, s.params[index]});
}

// Whether `name` is the first parameter of the call's owner, a method: its instance or class.
bool NamedCalls::instance_param(const CallState& call, std::string_view name) const {
  if (call.owner < 0) return false;
  const Symbol& s = m_facts.symbols[static_cast<size_t>(call.owner)];
  if (s.parent < 0 || m_facts.symbols[static_cast<size_t>(s.parent)].kind != SymbolKind::class_) return false;
  return !s.params.empty() && s.params.front() == name;
}

// Whether the call's first argument, `self` or `cls`, is the object its method was called on: in a
// method, its first parameter, never assigned (a metaclass's `__call__(cls)` that binds
// `self = super().__call__()` holds an instance of another class); elsewhere (a closure over the
// method's `self`), a name the function does not assign.
bool NamedCalls::on_instance(const CallState& call, const Owner& o) const {
  std::string_view name = call.on_self;
  if (name.empty()) return false;
  if (m_scratch.locals.contains(OwnedName{o.id, name})) return false;
  if (call.owner < 0) return true;
  const Symbol& s = m_facts.symbols[static_cast<size_t>(call.owner)];
  bool method = s.parent >= 0 && m_facts.symbols[static_cast<size_t>(s.parent)].kind == SymbolKind::class_;
  return !method || instance_param(call, name);
}

// Whether `name` is a parameter or a local of the call's owner: a value the code was given or made.
bool NamedCalls::is_local(const CallState& call, const Owner& o, std::string_view name) const {
  if (call.owner < 0) return false;
  const Symbol& s = m_facts.symbols[static_cast<size_t>(call.owner)];
  if (std::find(s.params.begin(), s.params.end(), name) != s.params.end()) return true;
  return m_scratch.locals.contains(OwnedName{o.id, name});
}

} // namespace impact::python::reference_pass
