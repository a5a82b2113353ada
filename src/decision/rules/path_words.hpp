#pragma once
// Small word tests on file names shared by the rules for files that are not Python (file_readers.cpp,
// data_files.cpp).
#include "util/ascii.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>

namespace impact::path_words {

using impact::ascii_lower;

inline bool one_of(std::string_view s, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// "json" for "a.json"; "" for a name without one or a dot file (".flake8").
inline std::string_view extension_of(std::string_view name) {
  auto dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? std::string_view() : name.substr(dot + 1);
}

} // namespace impact::path_words
