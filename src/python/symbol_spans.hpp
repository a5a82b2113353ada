#pragma once
// SymbolSpans: which symbol's code a position of the source is in, for the reference collector's
// token pass (tokens come in order: the answer for the previous token is kept while it holds).
#include "impact/python/facts.hpp"

#include <cstdint>
#include <vector>

namespace impact::python {

class SymbolSpans {
public:
  explicit SymbolSpans(const std::vector<Symbol>& symbols) {
    m_spans.reserve(symbols.size());
    for (const Symbol& sym : symbols) {
      m_spans.push_back(Span{sym.header_begin, sym.body_begin, sym.body_end, sym.kind == SymbolKind::class_});
    }
  }

  // The innermost symbol whose body holds `pos` (-1: module level). Positions come in order.
  int32_t owner_of(uint32_t pos) {
    if (pos < m_top_end && pos < m_next_begin) return m_top; // most tokens: the owner of the one before
    while (!m_stack.empty() && m_spans[static_cast<size_t>(m_stack.back())].body_end <= pos) m_stack.pop_back();
    while (m_next < m_spans.size() && m_spans[m_next].body_begin <= pos) {
      const Span& s = m_spans[m_next];
      if (s.body_end > pos) {
        while (!m_stack.empty() && m_spans[static_cast<size_t>(m_stack.back())].body_end <= s.body_begin) m_stack.pop_back();
        m_stack.push_back(static_cast<int32_t>(m_next));
      }
      ++m_next;
    }
    m_top = m_stack.empty() ? -1 : m_stack.back();
    m_top_end = m_stack.empty() ? UINT32_MAX : m_spans[static_cast<size_t>(m_top)].body_end;
    m_next_begin = m_next < m_spans.size() ? m_spans[m_next].body_begin : UINT32_MAX;
    return m_top;
  }

  // Whether `pos` is in the header of a class statement (`class Sub(Base, metaclass=M):`), between the
  // `class` keyword and the body. Tokens come in order, and headers do not nest.
  bool in_class_header(uint32_t pos) {
    while (m_header < m_spans.size()) {
      const Span& s = m_spans[m_header];
      if (s.is_class && pos < s.body_begin) return pos >= s.header_begin;
      ++m_header;
    }
    return false;
  }

private:
  // The symbols' byte ranges, packed: every token looks them up, and a Symbol is large.
  struct Span {
    uint32_t header_begin, body_begin, body_end;
    bool is_class;
  };
  std::vector<Span> m_spans;
  int32_t m_top = -1;        // owner_of()'s last answer, valid for positions below both bounds:
  uint32_t m_top_end = 0;    // the end of that owner's body
  uint32_t m_next_begin = 0; // the start of the next symbol's body
  std::vector<int32_t> m_stack;
  size_t m_next = 0;
  size_t m_header = 0; // in_class_header(): the first class whose body may still come
};

} // namespace impact::python
