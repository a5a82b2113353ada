#pragma once
// "did you mean ...?" for near-miss names, by edit distance.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact::util {

// The closest of `candidates` to `word` when it is within a third of the word's length; else nullopt.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

} // namespace impact::util
