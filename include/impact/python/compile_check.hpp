#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// Whether CPython would compile a file: the issue the compile check (src/python/compile_check.*) finds
// first, and what it means for a project's lowest Python version (docs/selection.md, syntax-error).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace impact {

// What the compile check (src/python/compile_check.*) found first in a file that CPython would refuse,
// or may refuse; `none` when it would compile on every Python 3 version that has its constructs.
enum class SyntaxIssue : uint8_t {
  none,
  // CPython refuses these on every version impact supports (3.7 and later):
  syntax_error,          // tree-sitter found an ERROR or MISSING node
  print_statement,       // print "hi" (Python 2)
  exec_statement,        // exec "code" (Python 2)
  invalid_number,        // 0777, 10L, 1__0, 0x
  diamond_operator,      // a <> b (Python 2)
  invalid_string_prefix, // ur"", bf""
  invalid_string,        // non-ASCII in bytes, a bad escape, bytes mixed with str, '}' alone in an f-string
  outside_loop,          // break / continue outside a loop
  outside_function,      // return / yield outside a function, yield in a comprehension
  outside_async,         // await / async for / async with outside async def
  invalid_target,        // assignment, del, augmented or annotated assignment to what cannot be assigned
  invalid_parameters,    // duplicate names, a parameter without default after one with, bare *, ...
  invalid_arguments,     // positional after keyword, duplicate keyword, unparenthesized generator
  misplaced_future,      // from __future__ not at the top, or an unknown feature
  invalid_scope,         // nonlocal at module level, a parameter declared global, import * in a def
  reserved_name,         // async / await / __debug__ used as a name
  invalid_clause,        // bare except: not last, except with except*, try/else without except, ...
  invalid_starred,       // *a where CPython allows no starred expression
  invalid_character,     // $ ? ` or a non-printable or non-ASCII space outside strings and comments
  null_byte,
  invalid_utf8,          // not UTF-8 and no coding declaration that says otherwise
  inconsistent_tabs,     // TabError
  unindent_mismatch,     // IndentationError: unindent does not match any outer level
  unexpected_indent,     // IndentationError: an indent no ':' opens, or a ':' with no indented block
  too_deep_indent,       // more than 100 levels of indentation
  too_many_parentheses,  // brackets nested past 200
  invalid_pattern,       // a match pattern CPython refuses: a name bound twice, alternatives binding different names, ...
  // CPython may refuse these; impact cannot tell, so it widens:
  unsure_encoding,       // a coding declaration naming a codec impact does not know
  unsure_name_escape,    // \N{...}: impact has no Unicode name table
  too_many_blocks,       // loops/try/with nested near CPython's limit of 20 statically nested blocks
  too_complex,           // nesting deeper than impact follows (CPython's recursion limits)
  unsure_construct,      // a construct whose validity depends on scopes impact does not model
};

std::string_view to_string(SyntaxIssue issue);
// True for issues CPython certainly refuses; false for the ones where impact widens.
bool is_certain(SyntaxIssue issue);

// The compile check of one file: its first issue, and the newest Python 3 minor version its
// constructs need (walrus 3.8, match 3.10, except* 3.11, type parameters 3.12, ...). Depends on the
// content alone, so it is cached with the facts; the project's Python version is applied on use.
struct CompileCheck {
  SyntaxIssue issue = SyntaxIssue::none;
  uint32_t line = 0;       // the issue's line (1-based)
  uint8_t needs_minor = 0; // 0: any Python 3
  uint32_t needs_line = 0; // the first line that needs it

  bool operator==(const CompileCheck&) const = default;
};

// What a check means for a project whose lowest Python is 3.`project_minor` (nullopt: unknown, so any
// construct newer than 3.0 may fail).
struct CompileVerdict {
  bool fails = false;   // CPython refuses it for sure
  bool unsure = false;  // it may refuse it
  uint32_t line = 0;
  std::string why;      // "line 3: print statement (Python 2)"
  bool compiles() const { return !fails && !unsure; }
};
CompileVerdict compile_verdict(const CompileCheck& check, std::optional<uint8_t> project_minor);
// Parses `source` and checks it (src/python/compile_check.*).
CompileCheck compile_check_of(std::string_view source);

} // namespace impact
