#include "util/cache_dir.hpp"

#include "impact/error.hpp"
#include "support.hpp"
#include "util/files.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

using impact::testing::TempDir;
using impact::util::cache_dir;
using impact::util::ensure_cache_dir;

namespace {

// Sets $IMPACT_CACHE for the scope, restoring what was there.
class ScopedCacheEnv {
public:
  explicit ScopedCacheEnv(const char* value) {
    if (const char* old = std::getenv("IMPACT_CACHE")) m_old = old;
    if (value == nullptr)
      ::unsetenv("IMPACT_CACHE");
    else
      ::setenv("IMPACT_CACHE", value, 1);
  }
  ~ScopedCacheEnv() {
    if (m_old)
      ::setenv("IMPACT_CACHE", m_old->c_str(), 1);
    else
      ::unsetenv("IMPACT_CACHE");
  }
  ScopedCacheEnv(const ScopedCacheEnv&) = delete;
  ScopedCacheEnv& operator=(const ScopedCacheEnv&) = delete;

private:
  std::optional<std::string> m_old;
};

} // namespace

TEST_CASE("cache_dir is $IMPACT_CACHE, else .impact_cache in the repository", "[cache_dir]") {
  SECTION("unset") {
    ScopedCacheEnv env(nullptr);
    CHECK(cache_dir("/repo") == std::filesystem::path("/repo/.impact_cache"));
  }
  SECTION("empty counts as unset") {
    ScopedCacheEnv env("");
    CHECK(cache_dir("/repo") == std::filesystem::path("/repo/.impact_cache"));
  }
  SECTION("an absolute path") {
    ScopedCacheEnv env("/var/cache/impact");
    CHECK(cache_dir("/repo") == std::filesystem::path("/var/cache/impact"));
  }
  SECTION("a relative path is relative to the repository") {
    ScopedCacheEnv env("tmp/cache");
    CHECK(cache_dir("/repo") == std::filesystem::path("/repo/tmp/cache"));
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
