#include "util/suggest.hpp"

#include <catch2/catch.hpp>

using impact::util::closest;

namespace {
const std::vector<std::string> k_keys = {"pytest-command", "fallback-command", "ignore", "mode", "strict", "use-index"};
}

TEST_CASE("closest suggests the nearest candidate for a near miss", "[suggest]") {
  SECTION("a transposition") { CHECK(closest("mdoe", k_keys) == "mode"); }
  SECTION("a missing letter") { CHECK(closest("pytest-comand", k_keys) == "pytest-command"); }
  SECTION("underscores for dashes") { CHECK(closest("use_index", k_keys) == "use-index"); }
  SECTION("an exact match is its own suggestion") { CHECK(closest("strict", k_keys) == "strict"); }
}

TEST_CASE("closest gives nothing when no candidate is near", "[suggest]") {
  SECTION("an unrelated word") { CHECK_FALSE(closest("zzzzzzzz", k_keys).has_value()); }
  SECTION("no candidates") { CHECK_FALSE(closest("mode", {}).has_value()); }
}

TEST_CASE("closest allows two edits for short words and a third of the length for long ones", "[suggest]") {
  SECTION("short words: two edits pass, three do not") {
    CHECK(closest("mxxe", {"mode"}) == "mode");
    CHECK_FALSE(closest("xxxe", {"mode"}).has_value());
  }
  SECTION("a twelve-letter word may be four edits away") {
    CHECK(closest("abcdefghijkl", {"abcdefghwxyz"}) == "abcdefghwxyz");
    CHECK_FALSE(closest("abcdefghijkl", {"abcdefgvwxyz"}).has_value());
  }
  SECTION("the nearest of several wins") { CHECK(closest("ignor", {"ignored-files", "ignore"}) == "ignore"); }
}
