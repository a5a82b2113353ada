#include "util/cache_dir.hpp"

#include "impact/error.hpp"
#include "support.hpp"
#include "util/files.hpp"

#include <catch2/catch.hpp>

using impact::testing::TempDir;
using impact::util::cache_dir;
using impact::util::ensure_cache_dir;

namespace {

impact::EnvLookup cache_env(const char* value) {
  if (value == nullptr) return impact::testing::env_of({});
  return impact::testing::env_of({{"IMPACT_CACHE", value}});
}

} // namespace

TEST_CASE("cache_dir is $IMPACT_CACHE, else .impact_cache in the repository", "[cache_dir]") {
  SECTION("unset") {
    CHECK(cache_dir("/repo", cache_env(nullptr)) == std::filesystem::path("/repo/.impact_cache"));
  }
  SECTION("empty counts as unset") {
    CHECK(cache_dir("/repo", cache_env("")) == std::filesystem::path("/repo/.impact_cache"));
  }
  SECTION("an absolute path") {
    CHECK(cache_dir("/repo", cache_env("/var/cache/impact")) == std::filesystem::path("/var/cache/impact"));
  }
  SECTION("a relative path is relative to the repository") {
    CHECK(cache_dir("/repo", cache_env("tmp/cache")) == std::filesystem::path("/repo/tmp/cache"));
  }
}

TEST_CASE("ensure_cache_dir creates the folder with a .gitignore of everything", "[cache_dir]") {
  TempDir dir;
  auto cache = dir / "a/b/.impact_cache";
  ensure_cache_dir(cache);
  CHECK(std::filesystem::is_directory(cache));
  auto ignore = impact::util::read_file(cache / ".gitignore");
  REQUIRE(ignore.has_value());
  CHECK_THAT(*ignore, Catch::EndsWith("\n*\n"));
  SECTION("an existing .gitignore is left alone") {
    dir.write("a/b/.impact_cache/.gitignore", "mine\n");
    ensure_cache_dir(cache);
    CHECK(impact::util::read_file(cache / ".gitignore") == "mine\n");
  }
  SECTION("a file in the way is an impact::Error naming the folder") {
    dir.write("file", "x");
    CHECK_THROWS_AS(ensure_cache_dir(dir / "file/cache"), impact::Error);
    CHECK_THROWS_WITH(ensure_cache_dir(dir / "file/cache"), Catch::Contains("IMPACT_CACHE"));
  }
}
