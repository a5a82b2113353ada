#include "impact/run.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

using namespace impact;
using impact::testing::env_of;
using impact::testing::TempDir;

TEST_CASE("resolve_program finds the program from the repository root or PATH", "[fallback]") {
  TempDir root;
  root.executable("scripts/ci.sh");
  root.write("scripts/plain.sh", "#!/bin/sh\n");
  root.executable("path/tool");
  auto env = env_of({{"PATH", (root / "path").string()}});
  SECTION("a relative path with a slash is under the root") {
    CHECK(resolve_program("scripts/ci.sh", root.path(), env) == (root / "scripts/ci.sh").string());
    CHECK(resolve_program("./scripts/../scripts/ci.sh", root.path(), env) == (root / "scripts/ci.sh").string());
  }
  SECTION("an absolute path is itself") {
    CHECK(resolve_program((root / "scripts/ci.sh").string(), "/elsewhere", env) == (root / "scripts/ci.sh").string());
  }
  SECTION("a bare name is looked up on PATH, never under the root") {
    CHECK(resolve_program("tool", "/elsewhere", env) == (root / "path/tool").string());
    CHECK_FALSE(resolve_program("ci.sh", root.path() / "scripts", env).has_value());
  }
  SECTION("missing or not executable") {
    CHECK_FALSE(resolve_program("scripts/missing.sh", root.path(), env).has_value());
    CHECK_FALSE(resolve_program("scripts/plain.sh", root.path(), env).has_value());
    CHECK_FALSE(resolve_program("scripts", root.path(), env).has_value());
  }
}

TEST_CASE("unlinked_temp_fd gives a readable descriptor to a file that has no name", "[fallback]") {
  TempDir tmp;
  const char* previous = std::getenv("TMPDIR");
  std::string saved = previous != nullptr ? previous : "";
  ::setenv("TMPDIR", tmp.path().c_str(), 1);
  std::string content(200 * 1024, 'x'); // more than a pipe holds
  int fd = unlinked_temp_fd(content);
  if (previous != nullptr) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
  REQUIRE(fd >= 0);
  CHECK(std::filesystem::is_empty(tmp.path()));
  struct stat st {};
  REQUIRE(::fstat(fd, &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK(st.st_nlink == 0);
  CHECK(static_cast<size_t>(st.st_size) == content.size());
  std::string read_back(content.size(), '\0');
  CHECK(::read(fd, read_back.data(), read_back.size()) == static_cast<ssize_t>(content.size()));
  CHECK(read_back == content);
  ::close(fd);
}
