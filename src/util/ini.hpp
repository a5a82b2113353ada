#pragma once
// An INI reader with the semantics of `iniconfig`, the library pytest reads pytest.ini, tox.ini and
// setup.cfg with: "key = value" or "key: value", indented continuation lines, whole-line '#' and ';'
// comments, no interpolation and no inline comments in values.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact::util {

struct IniFile {
  // section name -> key -> value (continuation lines joined with '\n').
  std::map<std::string, std::map<std::string, std::string>> sections;

  bool has_section(std::string_view name) const { return sections.find(std::string(name)) != sections.end(); }
  const std::map<std::string, std::string>* section(std::string_view name) const;
};

// Parses `text`. On a malformed line returns std::nullopt and sets `error` to "line N: ...".
std::optional<IniFile> parse_ini(std::string_view text, std::string& error);

// Splits a string the way Python's shlex.split does in POSIX mode (quotes, backslashes, whitespace).
std::vector<std::string> shell_split(std::string_view text);

} // namespace impact::util
