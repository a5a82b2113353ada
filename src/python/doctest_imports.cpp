// The modules a text doctest file imports: its `>>> import a.b` and `>>> from a import b` lines.
#include "impact/python.hpp"

#include <algorithm>
#include <cctype>

namespace impact::python {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_dotted_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
  });
}

// "a.b as c" -> "a.b"
std::string_view first_word(std::string_view s) {
  s = trim(s);
  return s.substr(0, s.find_first_of(" \t"));
}

template <typename F> void split_commas(std::string_view s, F&& f) {
  while (!s.empty()) {
    auto comma = s.find(',');
    f(trim(s.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
}

} // namespace

std::vector<std::pair<std::string, uint32_t>> doctest_imports(std::string_view text) {
  std::vector<std::pair<std::string, uint32_t>> out;
  uint32_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    auto nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.starts_with(">>>") && !line.starts_with("...")) continue;
    std::string_view code = trim(line.substr(3));
    // One statement per prompt line; `a; import b` is rare enough to read as the statements it holds.
    for (size_t start = 0; start <= code.size();) {
      size_t semi = code.find(';', start);
      std::string_view stmt = trim(code.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start));
      start = semi == std::string_view::npos ? code.size() + 1 : semi + 1;
      if (stmt.starts_with("import ")) {
        split_commas(stmt.substr(7), [&](std::string_view part) {
          std::string_view name = first_word(part);
          if (is_dotted_name(name)) out.emplace_back(std::string(name), line_no);
        });
      } else if (stmt.starts_with("from ")) {
        std::string_view rest = trim(stmt.substr(5));
        auto space = rest.find(" import ");
        if (space == std::string_view::npos) continue;
        std::string_view module = trim(rest.substr(0, space));
        if (!is_dotted_name(module)) continue;
        out.emplace_back(std::string(module), line_no);
        std::string_view names = rest.substr(space + 8);
        names = trim(names);
        if (names.starts_with('(')) names.remove_prefix(1);
        if (names.ends_with(')')) names.remove_suffix(1);
        // A name may be a submodule: `from pkg import mod`.
        split_commas(names, [&](std::string_view part) {
          std::string_view name = first_word(part);
          if (is_dotted_name(name)) out.emplace_back(std::string(module) + "." + std::string(name), line_no);
        });
      }
    }
  }
  return out;
}

} // namespace impact::python
