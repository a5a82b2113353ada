#include "impact/python/facts.hpp"
#include "python/lexer.hpp"
#include "python/match_patterns.hpp"

#include <catch2/catch.hpp>

using namespace impact::python;

namespace {

std::vector<std::string> reads(std::string_view src) {
  std::vector<Token> tokens;
  lex(src, tokens);
  std::vector<std::string> out;
  for (const auto& r : match_pattern_reads(tokens, src)) out.push_back(r.chain);
  return out;
}

using Strings = std::vector<std::string>;

} // namespace

TEST_CASE("match_pattern_reads: keywords of class patterns, positional ones, mapping patterns", "[match_patterns]") {
  CHECK(reads("match s:\n    case Box(square=True, w=2):\n        pass\n") == Strings{".square", ".w"});
  CHECK(reads("match s:\n    case geo.Pt(0, y=1):\n        pass\n") == Strings{".y", std::string(impact::k_any_value_attr)});
  CHECK(reads("match s:\n    case {\"k\": v}:\n        pass\n") == Strings{".get"});
  CHECK(reads("match s:\n    case Acct(bad=b) if check(limit=b):\n        pass\n") == Strings{".bad"}); // the guard is code
  CHECK(reads("match s:\n    case int(n) | str(n):\n        pass\n").empty()); // builtin types match themselves
  CHECK(reads("match s:\n    case Outer(inner=Inner(v=1)):\n        pass\n") == Strings{".inner", ".v"});
}

TEST_CASE("match_pattern_reads: `case` as a plain name is no clause", "[match_patterns]") {
  CHECK(reads("case = Box(square=True)\n").empty());
  CHECK(reads("case.run(square=True)\n").empty());
  CHECK(reads("x = case(square=True)\n").empty());
  CHECK(reads("def f(case):\n    return case\n").empty());
}
