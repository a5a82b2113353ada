#pragma once
// How names and messages are printed as text (stderr, --dry-run, explain, changes, audit, --output
// github): git's quoting convention, so that a crafted file name (one holding a newline, a terminal
// escape or "::error::") can neither start a line of its own nor reach the terminal raw. The JSON
// documents carry names raw (nlohmann escapes them), and argv handed to pytest stays raw (it is exec'd,
// never given to a shell).
#include <string>
#include <string_view>

namespace impact::util {

// A name as `git status` prints it with core.quotePath=false: as it is, unless it holds a control
// character, a double quote, a backslash, a C1 control or a byte that is not UTF-8; then in double
// quotes with C escapes (\n, \t, \", \\) and octal for the other bytes ("a\nb.py" -> "\"a\\nb.py\"").
std::string quote_name(std::string_view name);

// A message that is one line by contract (a warning, an error, a reason's detail), with any control
// character, C1 control or byte that is not UTF-8 escaped as quote_name escapes it, but no quotes
// added: the names inside it cannot break the line.
std::string one_line(std::string_view message);

} // namespace impact::util
