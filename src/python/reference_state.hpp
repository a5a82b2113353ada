#pragma once
// The reference pass's state (python/references.cpp): what each owner of code has read, the statement
// it is in, the dotted name being read and where the tokens are in a definition's header.
#include "impact/python/facts.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact::python::reference_pass {

// The state of the statement an owner's code is in, at bracket depth 0.
struct Statement {
  std::vector<std::string_view> targets; // bare names before an '=' of this statement
  std::string_view candidate;            // the last bare name, while it may still be an assignment target
  bool start = true;
  bool annotation = false;     // after `name:` at the start: the annotation, then maybe '='
  bool in_for = false;         // between `for` and `in`
  bool in_global = false;      // after `global` / `nonlocal`
  bool after_def = false;      // the next name is a nested def/class name
  bool in_import = false;      // inside an import statement
  bool in_del = false;         // inside a `del` statement: a plain name there is unbound, not read
  bool start_name = false;     // the previous token was a statement's first name
  bool start_colon_ok = false; // ... so a colon now starts an annotation
};

// What one owner (a symbol, or the module) has read so far. Names and chains are views into the
// source, or into the collector's arena when a chain's text is not one slice of it.
struct Owner {
  int32_t id = -1; // the symbol's index, -1 for the module; its names are in the scratch's sets
  std::vector<std::string_view> chains;
  std::vector<std::string_view> annotations; // what the function's own annotations name (python/annotations.hpp)
  bool dynamic = false;
  Statement statement;
  bool imports = false;                 // the code has an import statement (it binds other modules' code)
  bool reads_locals = false;            // locals() / vars() with no argument
  std::vector<std::string> fixture_requests; // request.getfixturevalue("name")
  bool dynamic_fixtures = false;             // getfixturevalue(computed)
};

// The open chain: a dotted name being read (`a.b.c`), a slice of the source while its tokens abut,
// else a copy.
// Whether `name` is a parameter of `sym` other than a method's first (self / cls stay: `self.helper()`
// is how a method reaches its class).
inline bool is_param(const Symbol& sym, std::string_view name) {
  size_t first = sym.kind == SymbolKind::method ? 1 : 0;
  for (size_t p = first; p < sym.params.size(); ++p) {
    if (sym.params[p] == name) return true;
  }
  return false;
}

struct OpenChain {
  uint32_t begin = 0, end = 0; // as a slice of the source ...
  std::string copy;            // ... or as a copy, when
  bool copied = false;         // its tokens do not abut
  int32_t owner = -1;          // the code that reads it
  uint32_t first = 0;          // where its first name starts
  bool open = false;
  bool is_base = false;         // a base class of a class header
  bool after_separator = false; // it began right after '(' or ',': maybe a keyword name
};

// Where the tokens are in a definition's header: a def's or lambda's parameters, a class's bases.
struct Headers {
  bool expect_params = false;   // after `def name` (or `class name`): the next '(' opens the header
  uint32_t param_depth = 0;     // bracket depth inside a def header's parentheses, 0 outside
  bool lambda_params = false;   // in a lambda's parameters, at
  uint32_t lambda_depth = 0;    // this bracket depth
  uint32_t class_depth = 0;     // inside a class header's parentheses: their depth, else 0
  bool def_is_function = false; // the header is a def's (not a class's)
};

} // namespace impact::python::reference_pass
