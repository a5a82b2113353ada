// Data files: which ones no reader can bound, and how loosely a literal may name one.
#include "decision/rules/data_files.hpp"

#include "impact/decision.hpp"

#include <catch2/catch.hpp>

using namespace impact;

namespace {
bool unbounded(const char* path) { return unbounded_data(RepoPath(path)).has_value(); }
bool names(const char* literal, const char* path) { return could_name_data(literal, RepoPath(path)); }
} // namespace

TEST_CASE("data files: what is built into code or read by name by other programs is never bounded") {
  CHECK(unbounded("src/pkg/_speedups.c"));
  CHECK(unbounded("src/pkg/_speedups.pyx"));
  CHECK(unbounded("src/pkg/__init__.pyi"));
  CHECK(unbounded("src/pkg/_native.cpython-311-x86_64-linux-gnu.so"));
  CHECK(unbounded("src/pkg/py.typed"));
  CHECK(unbounded("Makefile"));
  CHECK(unbounded("MANIFEST.in"));
  CHECK(unbounded("web/package.json"));
  CHECK(unbounded("Dockerfile.test"));
  CHECK(unbounded(".coveragerc"));
  CHECK(unbounded(".env"));
  CHECK(unbounded(".env.test"));
  CHECK(unbounded("notebooks/tour.ipynb"));
  CHECK(unbounded("tests/test_api.yaml"));
  CHECK(unbounded("tests/cases/login_test.feature"));
  // Data a reader can bound.
  CHECK_FALSE(unbounded("tests/data/sample.json"));
  CHECK_FALSE(unbounded("src/pkg/templates/base.html"));
  CHECK_FALSE(unbounded("tests/golden/summary.txt"));
  CHECK_FALSE(unbounded("src/pkg/data/contest.csv")); // "test" inside a name is not a test's name
}

TEST_CASE("data files: a literal that begins or ends the name may build it") {
  CHECK(names("summary.txt", "tests/golden/summary.txt"));
  CHECK(names("golden", "tests/golden/summary.txt")); // a folder above it
  CHECK(names(".json", "data/metric.json"));
  CHECK(names("report_", "tests/out/report_7.txt"));
  CHECK(names("_expected.txt", "tests/out/case1_expected.txt"));
  CHECK(names("tests/out/report_", "tests/out/report_7.txt")); // the last component counts
  CHECK_FALSE(names("r", "tests/out/report_7.txt"));           // one letter builds nothing
  CHECK_FALSE(names("home.html", "src/pkg/base.html"));
  CHECK_FALSE(names("metric", "data/imperial.json"));
}

TEST_CASE("data files: Django's convention folders") {
  CHECK(django_convention_folder(RepoPath("shop/templates/shop/list.html")));
  CHECK(django_convention_folder(RepoPath("shop/static/shop/app.css")));
  CHECK(django_convention_folder(RepoPath("shop/fixtures/users.json")));
  CHECK(django_convention_folder(RepoPath("shop/locale/de/LC_MESSAGES/django.po")));
  CHECK_FALSE(django_convention_folder(RepoPath("shop/data/users.json")));
  CHECK_FALSE(django_convention_folder(RepoPath("templates.json")));
}

TEST_CASE("data files: the modules whose pytest-datadir folder may hold a file") {
  auto owners = datadir_owners(RepoPath("tests/test_a/sub/x.json"));
  REQUIRE(owners.size() == 3);
  CHECK(owners[0] == "tests/test_a/sub.py");
  CHECK(owners[1] == "tests/test_a.py");
  CHECK(owners[2] == "tests.py");
  CHECK(datadir_owners(RepoPath("x.json")).empty());
}

TEST_CASE("data files: which files the rule covers") {
  CHECK(is_data_file(RepoPath("tests/data/x.json")));
  CHECK(is_data_file(RepoPath("src/pkg/_speedups.c"))); // a data file the rule never bounds
  CHECK_FALSE(is_data_file(RepoPath("src/pkg/mod.py")));
  CHECK_FALSE(is_data_file(RepoPath("pyproject.toml")));
  CHECK_FALSE(is_data_file(RepoPath("requirements.txt")));
  CHECK_FALSE(is_data_file(RepoPath("CHANGES.rst")));
  CHECK_FALSE(is_data_file(RepoPath("")));
}
