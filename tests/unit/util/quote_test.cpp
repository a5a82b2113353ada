#include "util/quote.hpp"

#include <catch2/catch.hpp>

using impact::util::one_line;
using impact::util::quote_name;

TEST_CASE("quote_name prints a name as git status does with core.quotePath=false", "[quote]") {
  SECTION("an ordinary name, non-ASCII letters and spaces included, is printed as it is") {
    CHECK(quote_name("src/app/models.py") == "src/app/models.py");
    CHECK(quote_name("docs/caf\xc3\xa9 menu.md") == "docs/caf\xc3\xa9 menu.md");
    CHECK(quote_name("tests/t.py::test_x[a/../b]") == "tests/t.py::test_x[a/../b]");
  }
  SECTION("a control character puts the name in quotes, with C escapes") {
    CHECK(quote_name("a\nb.py") == "\"a\\nb.py\"");
    CHECK(quote_name("a\tb\rc") == "\"a\\tb\\rc\"");
    CHECK(quote_name("x\n::error::pwned") == "\"x\\n::error::pwned\"");
  }
  SECTION("other control bytes, an escape sequence and DEL are octal") {
    CHECK(quote_name("a\x1b[31mb") == "\"a\\033[31mb\"");
    CHECK(quote_name(std::string("a\0b", 3)) == "\"a\\000b\"");
    CHECK(quote_name("a\x7f") == "\"a\\177\"");
  }
  SECTION("a quote or a backslash is escaped, so that the quoted form reads back unambiguously") {
    CHECK(quote_name("say \"hi\".py") == "\"say \\\"hi\\\".py\"");
    CHECK(quote_name("a\\b") == "\"a\\\\b\"");
  }
  SECTION("bytes that are not UTF-8, and C1 controls, are octal") {
    CHECK(quote_name("a\xff.py") == "\"a\\377.py\"");
    CHECK(quote_name("a\xc2\x9b" "31m") == "\"a\\302\\23331m\"");      // U+009B, the one-byte CSI
    CHECK(quote_name("a\xc3") == "\"a\\303\"");                       // a truncated sequence
    CHECK(quote_name("a\xed\xa0\x80") == "\"a\\355\\240\\200\"");     // a surrogate
  }
}

TEST_CASE("one_line escapes what would break a one-line message, and adds no quotes", "[quote]") {
  CHECK(one_line("src/a.py changed") == "src/a.py changed");
  CHECK(one_line("x\n::error::y changed") == "x\\n::error::y changed");
  CHECK(one_line("say \"hi\" \\o/") == "say \"hi\" \\o/");
  CHECK(one_line("a \xe2\x86\x92 b") == "a \xe2\x86\x92 b");
}
