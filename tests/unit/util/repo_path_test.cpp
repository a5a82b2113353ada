#include "impact/vocabulary.hpp"

#include <catch2/catch.hpp>

using impact::RepoPath;

TEST_CASE("RepoPath::filename is the last component", "[repo_path]") {
  CHECK(RepoPath("src/app/models.py").filename() == "models.py");
  CHECK(RepoPath("setup.py").filename() == "setup.py");
  CHECK(RepoPath("a/b/").filename().empty());
}

TEST_CASE("RepoPath::parent is everything before the last slash", "[repo_path]") {
  CHECK(RepoPath("src/app/models.py").parent() == "src/app");
  CHECK(RepoPath("src/x.py").parent() == "src");
  CHECK(RepoPath("setup.py").parent().empty());
}

TEST_CASE("RepoPath::is_within matches whole components", "[repo_path]") {
  RepoPath p("src/app/models.py");
  SECTION("the root contains everything") { CHECK(p.is_within("")); }
  SECTION("folders above the file") {
    CHECK(p.is_within("src"));
    CHECK(p.is_within("src/app"));
  }
  SECTION("the path itself") { CHECK(p.is_within("src/app/models.py")); }
  SECTION("prefixes that stop inside a component do not count") {
    CHECK_FALSE(p.is_within("sr"));
    CHECK_FALSE(p.is_within("src/ap"));
    CHECK_FALSE(p.is_within("src/app/models"));
  }
  SECTION("other folders and deeper paths do not count") {
    CHECK_FALSE(p.is_within("tests"));
    CHECK_FALSE(p.is_within("src/app/models.py/x"));
  }
}

TEST_CASE("RepoPath compares, hashes and formats by its string", "[repo_path]") {
  CHECK(RepoPath("a/b.py") == RepoPath("a/b.py"));
  CHECK(RepoPath("a/b.py") < RepoPath("a/c.py"));
  CHECK(RepoPath().empty());
  CHECK(RepoPath("x.py").ends_with(".py"));
  CHECK(std::hash<RepoPath>{}(RepoPath("a")) == std::hash<std::string>{}("a"));
  CHECK(fmt::format("{}", RepoPath("src/a.py")) == "src/a.py");
}
