// Regression tests for the inputs the fuzz targets of tests/fuzz/ found (docs/testing.md, "Fuzzing"):
// each names the corpus file that holds the input as found, and checks the smallest form of it.
#include "python/lexer.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using impact::python::lex;
using impact::python::Token;

namespace {

bool inside(const std::vector<Token>& tokens, size_t size) {
  for (const auto& t : tokens) {
    if (t.begin > t.end || t.end > size) return false;
  }
  return true;
}

} // namespace

TEST_CASE("lexer: a string that ends in a backslash at the end of the file ends at the file's end",
          "[fuzz][lexer]") {
  // tests/fuzz/corpus/lexer/crash_backslash_at_end_of_string.py: the escape skipped two bytes past
  // the last one, and the string token ended one byte past the source.
  for (std::string source : {"'\\", "x = \"\\", "'''\\", "f'\\", "f'{a}\\", "rb\"\\"}) {
    INFO(source);
    std::vector<Token> tokens;
    lex(source, tokens);
    CHECK(inside(tokens, source.size()));
  }
}

TEST_CASE("lexer: f-strings nested without end do not overflow the stack", "[fuzz][lexer]") {
  // tests/fuzz/corpus/lexer/crash_fstring_nesting.py: every replacement field recursed, so a file of
  // f"{f"{f"{... or of nested format specs {:{:{:... took the stack with it.
  for (std::string unit : {"f\"{", "f'{", "{:"}) {
    std::string source = unit == "{:" ? "f'{a:" : "";
    for (int i = 0; i < 500000; ++i) source += unit;
    std::vector<Token> tokens;
    lex(source, tokens);
    CHECK(inside(tokens, source.size()));
  }
  SECTION("names are still read up to CPython's own limit of nesting") {
    std::string source;
    for (int i = 0; i < 100; ++i) source += "f'{";
    source += "deep_name";
    std::vector<Token> tokens;
    lex(source, tokens);
    bool found = false;
    for (const auto& t : tokens) found = found || source.substr(t.begin, t.end - t.begin) == "deep_name";
    CHECK(found);
  }
}
