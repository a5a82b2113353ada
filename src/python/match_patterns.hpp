#pragma once
// What a `match` statement's patterns read (docs/selection.md `dynamic-access`): a class pattern looks
// up each keyword's attribute on the subject (`case Box(square=True)` reads `square`), and its
// positional subpatterns the attributes the class's `__match_args__` names, which one file cannot see
// (so any attribute); a mapping pattern calls the subject's `get`.
#include "python/lexer.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact::python {

struct PatternRead {
  uint32_t position = 0; // where the pattern is: the begin of one of its tokens
  std::string chain;     // `.name` for an attribute, k_any_value_attr for any
};

// The reads of the `case` clauses in `tokens` of `src`, in source order.
std::vector<PatternRead> match_pattern_reads(const std::vector<Token>& tokens, std::string_view src);

// The same, handed out as the tokens go by (the reader knows which symbol holds each token).
class PatternReads {
public:
  void start(const std::vector<Token>& tokens, std::string_view src) {
    m_reads = match_pattern_reads(tokens, src);
    m_next = 0;
  }
  // Calls `read(chain)` for the reads at or before the token at `position`.
  template <class Read> void at(uint32_t position, Read&& read) {
    for (; m_next < m_reads.size() && m_reads[m_next].position <= position; ++m_next) read(m_reads[m_next].chain);
  }

private:
  std::vector<PatternRead> m_reads;
  size_t m_next = 0;
};

} // namespace impact::python
