// References a fixture only stores into pytest's doctest_namespace (Symbol::namespace_values).
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;

namespace {

// The refs of `qualname` that are only stored into doctest_namespace, and the others.
std::pair<std::vector<std::string>, std::vector<std::string>> split(const std::string& source, std::string_view qualname) {
  auto facts = extract(source);
  for (const auto& s : facts.symbols) {
    if (s.qualname != qualname) continue;
    auto cut = s.refs.end() - s.namespace_values;
    return {std::vector<std::string>(cut, s.refs.end()), std::vector<std::string>(s.refs.begin(), cut)};
  }
  FAIL("no symbol " << qualname);
  return {};
}

} // namespace

TEST_CASE("what a fixture only stores into doctest_namespace is counted apart", "[extract][doctest]") {
  std::string source = "import pytest\nimport semver\nimport helpers\n\n"
                       "@pytest.fixture(autouse=True)\n"
                       "def add(doctest_namespace):\n"
                       "    doctest_namespace[\"Version\"] = semver.version.Version\n"
                       "    doctest_namespace[\"semver\"] = semver\n"
                       "    doctest_namespace[\"h\"] = helpers\n"
                       "    helpers.prepare()\n";
  auto [stored, other] = split(source, "add");
  CHECK(stored == std::vector<std::string>{"semver.version.Version", "semver"});
  CHECK(std::find(other.begin(), other.end(), "helpers") != other.end());
  CHECK(std::find(other.begin(), other.end(), "helpers.prepare") != other.end());
  SECTION("a name also used otherwise is an ordinary reference") {
    auto [stored2, other2] = split("import semver\ndef add(doctest_namespace):\n"
                                   "    doctest_namespace[\"semver\"] = semver\n    run(semver)\n",
                                   "add");
    CHECK(stored2.empty());
    CHECK(std::find(other2.begin(), other2.end(), "semver") != other2.end());
  }
  SECTION("only in a function that is given doctest_namespace") {
    auto [stored3, other3] = split("import semver\ndef add(ns):\n    doctest_namespace[\"semver\"] = semver\n", "add");
    CHECK(stored3.empty());
  }
}
