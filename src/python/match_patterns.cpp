#include "python/match_patterns.hpp"

#include "impact/python/facts.hpp"
#include "python/named_calls.hpp"

namespace impact::python {

std::vector<PatternRead> match_pattern_reads(const std::vector<Token>& tokens, std::string_view src) {
  std::vector<PatternRead> out;
  if (src.find("case") == std::string_view::npos) return out;
  auto text = [&](size_t k) { return src.substr(tokens[k].begin, tokens[k].end - tokens[k].begin); };
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    // `case` starting a line, followed by a pattern (not `case = 1`, `case.x`, `case(...)` ending the line).
    if (tokens[i].kind != Tok::name || text(i) != "case" || (i > 0 && tokens[i - 1].kind != Tok::newline)) continue;
    Tok next = tokens[i + 1].kind;
    if (next == Tok::assign || next == Tok::augassign || next == Tok::dot || next == Tok::newline) continue;
    size_t end = i + 1; // the clause's colon; a guard (`if ...`) ends the pattern
    while (end < tokens.size() && tokens[end].kind != Tok::newline &&
           !(tokens[end].depth == tokens[i].depth && (tokens[end].kind == Tok::colon || text(end) == "if"))) {
      ++end;
    }
    if (end == tokens.size() || tokens[end].kind == Tok::newline) continue;
    for (size_t k = i + 1; k < end; ++k) {
      if (tokens[k].kind == Tok::lbrace) out.push_back({tokens[k].begin, ".get"});
      if (tokens[k].kind != Tok::lparen || tokens[k - 1].kind != Tok::name || k - 1 == i) continue;
      // A class pattern: its arguments at one bracket deeper, up to the matching parenthesis.
      bool builtin = (k < 2 || tokens[k - 2].kind != Tok::dot) && reference_pass::is_builtin_type(text(k - 1));
      uint32_t depth = tokens[k].depth + 1;
      bool positional = false, start = true;
      for (size_t a = k + 1; a < end && !(tokens[a].kind == Tok::rparen && tokens[a].depth == depth); ++a) {
        if (tokens[a].depth == depth && tokens[a].kind == Tok::comma) {
          start = true;
          continue;
        }
        if (!start || tokens[a].depth != depth) continue;
        start = false;
        if (tokens[a].kind == Tok::name && a + 1 < end && tokens[a + 1].kind == Tok::assign) {
          std::string chain(1, '.');
          chain.append(text(a));
          out.push_back({tokens[a].begin, std::move(chain)});
        } else {
          positional = true;
        }
      }
      if (positional && !builtin) out.push_back({tokens[k].begin, std::string(k_any_value_attr)});
    }
  }
  return out;
}

} // namespace impact::python
