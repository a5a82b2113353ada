#include "impact/monorepo.hpp"

#include <catch2/catch.hpp>

using impact::monorepo::merge_exit_codes;

TEST_CASE("merge_exit_codes ranks the projects' codes worst first", "[monorepo]") {
  SECTION("pytest's internal error first") { CHECK(merge_exit_codes({0, 1, 2, 4, 3}) == 3); }
  SECTION("then a usage error") { CHECK(merge_exit_codes({1, 2, 4, 0}) == 4); }
  SECTION("then impact's own error, a program that could not start, or an interrupted run") {
    CHECK(merge_exit_codes({1, 2}) == 2);
    CHECK(merge_exit_codes({1, 127}) == 2);
    CHECK(merge_exit_codes({0, 130}) == 2);
    CHECK(merge_exit_codes({0, 137}) == 2);
  }
  SECTION("then failures; an unknown code counts as one") {
    CHECK(merge_exit_codes({0, 1, 5}) == 1);
    CHECK(merge_exit_codes({0, 7}) == 1);
  }
  SECTION("no tests collected only when every project says so") {
    CHECK(merge_exit_codes({5, 5}) == 5);
    CHECK(merge_exit_codes({5, 0}) == 0);
  }
  SECTION("0 when all passed, or none ran") {
    CHECK(merge_exit_codes({0, 0}) == 0);
    CHECK(merge_exit_codes({}) == 0);
  }
}
