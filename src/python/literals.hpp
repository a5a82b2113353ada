#pragma once
// Reading Python literals out of the tree: strings, lists of strings, known prefixes of computed strings.
#include "python/grammar.hpp"

#include <optional>
#include <string>
#include <vector>

namespace impact::python {

// The value of a plain string literal ("x", 'x', """x""", implicit concatenation of those); std::nullopt
// for f-strings with interpolations, bytes, or any other expression.
std::optional<std::string> string_value(TSNode node, std::string_view source, const Grammar& g);

// The string a module binds `name` to with one plain statement at the start of a line
// (`CLIENT_FIXTURE = "client"`), read from the source text; std::nullopt when there is no such
// statement, more than one, or the value is anything but a plain one-line string without escapes.
std::optional<std::string> module_string(std::string_view source, std::string_view name);

// The literal start of a computed string: f"app.{x}" -> "app.", "app." + x -> "app.", x -> "".
std::string string_prefix(TSNode node, std::string_view source, const Grammar& g);

// The strings of a list or tuple literal of plain strings (or a single string); std::nullopt when any
// element is not a plain string.
std::optional<std::vector<std::string>> string_list(TSNode node, std::string_view source, const Grammar& g);

} // namespace impact::python

namespace impact::python {

// The identifier characters a computed string given as source text is known to start with:
// f"visit_{x}", "visit_" + x, "visit_%s" % x and "visit_{}".format(x) give "visit_"; anything the
// value may not start with (a conditional, `or`, a bytes literal, a method call on the literal) gives "".
// Cut at the first character that is no ASCII letter, digit or underscore.
std::string identifier_prefix(std::string_view expression);

// The attributes the replacement fields of a str.format template read, given the template's source
// text (one or more string tokens): "{0.name}", "{user.name!r:>10}", "{a.b.c}" and "{x[0].y}" give
// name, name, b and c, y; "{{x.y}}" is an escape and reads nothing.
std::vector<std::string_view> format_attributes(std::string_view tokens);

} // namespace impact::python
