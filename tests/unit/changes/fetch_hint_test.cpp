#include "impact/changes.hpp"

#include <catch2/catch.hpp>

using impact::fetch_command;

TEST_CASE("fetch_command names a remote-tracking branch so that git creates it", "[changes]") {
  SECTION("a branch of origin, in any spelling") {
    CHECK(fetch_command("origin/main", false) == "git fetch origin main:refs/remotes/origin/main");
    CHECK(fetch_command("refs/remotes/origin/release/2.0", false) ==
          "git fetch origin release/2.0:refs/remotes/origin/release/2.0");
  }
  SECTION("a shallow clone fetches the history too") {
    CHECK(fetch_command("origin/main", true) == "git fetch --unshallow origin main:refs/remotes/origin/main");
    CHECK(fetch_command("0123abc", true) == "git fetch --unshallow origin");
  }
  SECTION("anything else fetches origin") {
    CHECK(fetch_command("v1.2", false) == "git fetch origin");
    CHECK(fetch_command("origin/", false) == "git fetch origin");
  }
}
