// open_git_repository reads the environment through the EnvLookup it is given, not the process's: a
// temporary index of `git commit` (GIT_INDEX_FILE) is the one the lookup names.
#include "impact/changes.hpp"
#include "impact/error.hpp"
#include "support.hpp"
#include "util/subprocess.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::env_of;
using impact::testing::TempDir;

TEST_CASE("open_git_repository takes GIT_INDEX_FILE from the lookup it is given", "[git_repository]") {
  TempDir dir;
  REQUIRE(util::run_and_wait({"git", "init", "-q", dir.path().string()}, dir.path(), {}) == 0);
  SECTION("not named: .git/index") {
    CHECK(open_git_repository(dir.path(), env_of({}))->root() == dir.path());
  }
  SECTION("empty: as if not named") {
    CHECK_NOTHROW(open_git_repository(dir.path(), env_of({{"GIT_INDEX_FILE", ""}})));
  }
  SECTION("a missing file: stop, naming it") {
    auto missing = (dir / "missing-index").string();
    CHECK_THROWS_WITH(open_git_repository(dir.path(), env_of({{"GIT_INDEX_FILE", missing}})),
                      Catch::Contains("GIT_INDEX_FILE=" + missing + " does not exist"));
  }
}
