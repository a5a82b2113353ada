#include "python/identifier.hpp"

#include <catch2/catch.hpp>

using impact::python::has_non_ascii;
using impact::python::normalized_identifier;

TEST_CASE("has_non_ascii finds a byte >= 0x80 anywhere, word by word and in the tail", "[identifier]") {
  CHECK_FALSE(has_non_ascii(""));
  CHECK_FALSE(has_non_ascii(std::string(100, 'a')));
  CHECK(has_non_ascii(std::string(40, 'a') + "é"));
  CHECK(has_non_ascii("é" + std::string(40, 'a')));
  CHECK(has_non_ascii(std::string(70, 'a') + "\x80"));
}

TEST_CASE("normalized_identifier gives PEP 3131's NFKC form", "[identifier]") {
  CHECK(normalized_identifier("ｍｕｌ") == "mul");
  CHECK(normalized_identifier("ﬁle") == "file");
  CHECK(normalized_identifier("x²") == "x2");
  SECTION("unchanged names and ASCII names give nothing") {
    CHECK_FALSE(normalized_identifier("café"));
    CHECK_FALSE(normalized_identifier("mul"));
  }
  SECTION("text whose NFKC form is no identifier gives nothing") {
    CHECK_FALSE(normalized_identifier("x\u00a0"));   // no-break space: a space
    CHECK_FALSE(normalized_identifier("\xff\xfe")); // invalid UTF-8
    CHECK_FALSE(normalized_identifier("\u2460"));   // circled 1: the digit 1
  }
}
