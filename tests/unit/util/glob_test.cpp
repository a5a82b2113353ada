#include "util/glob.hpp"

#include <catch2/catch.hpp>

using impact::util::fnmatch;
using impact::util::path_glob_match;
using impact::util::pytest_path_match;

TEST_CASE("fnmatch follows Python's fnmatchcase", "[glob]") {
  SECTION("stars match any run, slashes included") {
    CHECK(fnmatch("test_*.py", "test_cart.py"));
    CHECK(fnmatch("*_test.py", "cart_test.py"));
    CHECK(fnmatch("*", "a/b"));
    CHECK_FALSE(fnmatch("test_*.py", "cart_test.py"));
  }
  SECTION("question marks and classes match one character") {
    CHECK(fnmatch("t?st", "test"));
    CHECK(fnmatch("[tT]est", "Test"));
    CHECK(fnmatch("[!x]est", "test"));
    CHECK_FALSE(fnmatch("[!t]est", "test"));
    CHECK(fnmatch("[a-c]x", "bx"));
  }
  SECTION("an unterminated class is a literal bracket") { CHECK(fnmatch("[abc", "[abc")); }
}

TEST_CASE("pytest_path_match matches names, or path suffixes when the pattern has a slash", "[glob]") {
  CHECK(pytest_path_match("test_*.py", "tests/unit/test_a.py"));
  CHECK_FALSE(pytest_path_match("test_*.py", "tests/unit/a_test.py"));
  CHECK(pytest_path_match("unit/test_*.py", "tests/unit/test_a.py"));
  CHECK_FALSE(pytest_path_match("integration/test_*.py", "tests/unit/test_a.py"));
}

TEST_CASE("path_glob_match uses gitignore-like rules", "[glob]") {
  SECTION("a bare name matches at any depth") {
    CHECK(path_glob_match("*.md", "README.md"));
    CHECK(path_glob_match("*.md", "docs/guide/intro.md"));
    CHECK_FALSE(path_glob_match("*.md", "docs/guide/intro.py"));
  }
  SECTION("a trailing slash matches a folder and everything below") {
    CHECK(path_glob_match("docs/", "docs/index.md"));
    CHECK(path_glob_match("docs/", "docs/a/b.txt"));
    CHECK_FALSE(path_glob_match("docs/", "src/docs.py"));
  }
  SECTION("** matches whole folders, * stays within one") {
    CHECK(path_glob_match("src/**/*.txt", "src/a/b/c.txt"));
    CHECK(path_glob_match("src/**/*.txt", "src/c.txt"));
    CHECK_FALSE(path_glob_match("src/*.txt", "src/a/c.txt"));
  }
  SECTION("a leading slash anchors at the root") {
    CHECK(path_glob_match("/setup.cfg", "setup.cfg"));
    CHECK_FALSE(path_glob_match("/setup.cfg", "pkg/setup.cfg"));
  }
}
