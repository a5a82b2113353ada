#pragma once
// Classes and callables handed to other code as values (docs/selection.md `handed-classes`): an
// argument of a call that is a dotted name or a call of one (`db.create_aggregate("longest", 1,
// Longest)`, `logger.addHandler(ListHandler())`), a name bound to such a value and handed later
// (`handler = ListHandler()`, then `addHandler(handler)`), an element of a list, tuple, set or dict
// display, and the value of an assignment that is a dotted name (`handler_class = Echo`). Code that
// receives the value may call its methods by names the project never spells: sqlite3 calls an
// aggregate's `step`, logging a handler's `emit`.
#include "impact/python/facts.hpp"
#include "python/lexer.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace impact::python {

// An entry "value\tcallee" for every value handed so, sorted and distinct. The value is the last
// component of the chain; a name the file imported under another name (`from shop.tally import
// Longest as L`) is given by its imported name as well; `self` or `cls` alone, in a method, is its
// class's name; a parameter of the enclosing function `f` alone is "=f" (whatever f's callers hand
// it). The callee is the last name before the call's parenthesis: "create_aggregate"; "" for a
// display, a stored value, or a call of a computed callee; "^f" for a value function f returns
// (`return ListHandler()`), handed wherever f's result is. `tokens` are the file's (lex()). Calls
// that only inspect a value (isinstance, type, id, print, repr, ...) hand nothing.
std::vector<std::string> handed_names(std::string_view source, const std::vector<Token>& tokens, const FileFacts& facts);

} // namespace impact::python
