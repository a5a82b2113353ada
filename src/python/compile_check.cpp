// check_compiles(): the byte checks, then the tree checks; the first issue by line wins. The issue
// names and what each means for a project's Python version (compile_verdict) live here too.
#include "python/compile_check.hpp"
#include "python/grammar.hpp"

#include <memory>

#include <fmt/format.h>

namespace impact {

std::string_view to_string(SyntaxIssue issue) {
  switch (issue) {
  case SyntaxIssue::none: return "compiles";
  case SyntaxIssue::syntax_error: return "syntax error";
  case SyntaxIssue::print_statement: return "print statement (Python 2)";
  case SyntaxIssue::exec_statement: return "exec statement (Python 2)";
  case SyntaxIssue::invalid_number: return "invalid number literal";
  case SyntaxIssue::diamond_operator: return "'<>' operator (Python 2)";
  case SyntaxIssue::invalid_string_prefix: return "invalid string prefix";
  case SyntaxIssue::invalid_string: return "invalid string literal";
  case SyntaxIssue::outside_loop: return "'break' or 'continue' outside a loop";
  case SyntaxIssue::outside_function: return "'return' or 'yield' outside a function";
  case SyntaxIssue::outside_async: return "'await' or 'async' outside an async function";
  case SyntaxIssue::invalid_target: return "cannot assign to or delete this expression";
  case SyntaxIssue::invalid_parameters: return "invalid parameter list";
  case SyntaxIssue::invalid_arguments: return "invalid argument list";
  case SyntaxIssue::misplaced_future: return "'from __future__' import not at the top or unknown";
  case SyntaxIssue::invalid_scope: return "invalid global, nonlocal or star import";
  case SyntaxIssue::reserved_name: return "reserved word used as a name";
  case SyntaxIssue::invalid_clause: return "invalid except, else or case clause";
  case SyntaxIssue::invalid_starred: return "starred expression where none is allowed";
  case SyntaxIssue::invalid_pattern: return "match pattern CPython refuses";
  case SyntaxIssue::invalid_character: return "invalid character";
  case SyntaxIssue::null_byte: return "null byte";
  case SyntaxIssue::invalid_utf8: return "invalid UTF-8 without a coding declaration";
  case SyntaxIssue::inconsistent_tabs: return "inconsistent use of tabs and spaces (TabError)";
  case SyntaxIssue::unindent_mismatch: return "unindent does not match any outer indentation level";
  case SyntaxIssue::unexpected_indent: return "unexpected indent, or an expected indented block missing";
  case SyntaxIssue::too_deep_indent: return "too many levels of indentation";
  case SyntaxIssue::too_many_parentheses: return "too many nested parentheses";
  case SyntaxIssue::unsure_encoding: return "coding declaration impact cannot check";
  case SyntaxIssue::unsure_name_escape: return "\\N{...} escape impact cannot check";
  case SyntaxIssue::too_many_blocks: return "blocks nested near CPython's limit of 20";
  case SyntaxIssue::too_complex: return "nesting deeper than impact follows";
  case SyntaxIssue::unsure_construct: return "construct impact cannot check";
  }
  return "syntax error";
}

bool is_certain(SyntaxIssue issue) { return issue != SyntaxIssue::none && issue < SyntaxIssue::unsure_encoding; }

CompileVerdict compile_verdict(const CompileCheck& check, std::optional<uint8_t> project_minor) {
  CompileVerdict v;
  if (check.issue != SyntaxIssue::none) {
    v.fails = is_certain(check.issue);
    v.unsure = !v.fails;
    v.line = check.line;
    v.why = fmt::format("line {}: {}", check.line, to_string(check.issue));
    return v;
  }
  if (check.needs_minor == 0) return v;
  if (!project_minor) {
    v.unsure = true;
    v.line = check.needs_line;
    v.why = fmt::format("line {}: needs Python 3.{} and the project's lowest Python is unknown (no requires-python)",
                        check.needs_line, check.needs_minor);
  } else if (*project_minor < check.needs_minor) {
    v.fails = true;
    v.line = check.needs_line;
    v.why = fmt::format("line {}: needs Python 3.{}; requires-python allows 3.{}", check.needs_line,
                        check.needs_minor, *project_minor);
  }
  return v;
}

namespace python {

void note_problem(CompileCheck& out, SyntaxIssue issue, uint32_t line) {
  if (out.issue == SyntaxIssue::none || line < out.line ||
      (line == out.line && is_certain(issue) && !is_certain(out.issue))) {
    out.issue = issue;
    out.line = line;
  }
}

void note_version(CompileCheck& out, uint8_t minor, uint32_t line) {
  if (minor > out.needs_minor) {
    out.needs_minor = minor;
    out.needs_line = line;
  } else if (minor == out.needs_minor && line < out.needs_line) {
    out.needs_line = line;
  }
}

CompileCheck check_compiles(std::string_view source, TSNode root) {
  CompileCheck out;
  std::vector<uint32_t> line_starts;
  check_bytes(source, out, line_starts);
  if (ts_node_is_null(root)) {
    note_problem(out, SyntaxIssue::too_complex, 1); // the parser gave up: impact cannot tell
    return out;
  }
  check_tree(source, root, line_starts, out);
  return out;
}

} // namespace python

CompileCheck compile_check_of(std::string_view source) {
  python::Parser parser;
  std::unique_ptr<TSTree, python::TreeDeleter> tree(parser.parse(source));
  return python::check_compiles(source, tree ? ts_tree_root_node(tree.get()) : TSNode{});
}

} // namespace impact
