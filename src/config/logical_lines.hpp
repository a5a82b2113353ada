#pragma once
// The logical lines of a requirements file or of a tox command list: a trailing backslash joins a line
// to the next, a '#' at the start or after whitespace starts a comment (pip's rule), and lines left
// empty are dropped.
#include <string>
#include <string_view>
#include <vector>

namespace impact {

std::vector<std::string> logical_lines(std::string_view text);

} // namespace impact
