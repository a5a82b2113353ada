// The name pytest requests a fixture by (Symbol::fixture): its function's name, a literal `name=`, a
// module-level string constant given as `name=`, or any name when it cannot be read.
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace impact;
using impact::testing::extract;

namespace {

std::string fixture_of(const FileFacts& facts, std::string_view qualname) {
  for (const auto& s : facts.symbols) {
    if (s.qualname == qualname) return s.fixture;
  }
  FAIL("no symbol " << qualname);
  return {};
}

} // namespace

TEST_CASE("a fixture's name: the function's, a literal, a module constant, or unknown", "[extract][fixtures]") {
  auto facts = extract("import pytest\n\n"
                       "CLIENT = \"client\"\n"
                       "TWICE = 'a'\n"
                       "TWICE = 'b'\n\n"
                       "@pytest.fixture\ndef plain():\n    return 1\n\n"
                       "@pytest.fixture(name=\"db\")\ndef _db():\n    return 1\n\n"
                       "@pytest.fixture(name=CLIENT)\ndef _client():\n    return 1\n\n"
                       "@pytest.fixture(name=TWICE)\ndef _twice():\n    return 1\n\n"
                       "@pytest.fixture(name=make_name())\ndef _made():\n    return 1\n");
  CHECK(fixture_of(facts, "plain") == "plain");
  CHECK(fixture_of(facts, "_db") == "db");
  CHECK(fixture_of(facts, "_client") == "client");
  CHECK(fixture_of(facts, "_twice") == k_unknown_fixture); // bound twice: either may hold
  CHECK(fixture_of(facts, "_made") == k_unknown_fixture);
}
