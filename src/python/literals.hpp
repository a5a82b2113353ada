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

// The literal start of a computed string: f"app.{x}" -> "app.", "app." + x -> "app.", x -> "".
std::string string_prefix(TSNode node, std::string_view source, const Grammar& g);

// The strings of a list or tuple literal of plain strings (or a single string); std::nullopt when any
// element is not a plain string.
std::optional<std::vector<std::string>> string_list(TSNode node, std::string_view source, const Grammar& g);

} // namespace impact::python
