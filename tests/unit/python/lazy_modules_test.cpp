// Module names in a module-level __lazy_modules__ (PEP 810) are no string references.
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace impact;
using impact::testing::extract;

namespace {

bool has_string_ref(const FileFacts& facts, std::string_view module) {
  return std::any_of(facts.imports.begin(), facts.imports.end(), [&](const ImportFact& f) {
    return f.kind == ImportKind::string_ref && f.module == module;
  });
}

} // namespace

TEST_CASE("strings of a module-level __lazy_modules__ literal are no string references", "[extract]") {
  // PEP 810: they name what the file's own import statements link.
  auto facts = extract("__lazy_modules__ = {\n    \"app.models\",\n    \"app.views\",  # the views\n}\n"
                       "from app import models, views\nTARGET = \"app.tasks\"\n");
  CHECK_FALSE(has_string_ref(facts, "app.models"));
  CHECK_FALSE(has_string_ref(facts, "app.views"));
  CHECK(has_string_ref(facts, "app.tasks"));
  SECTION("anything but strings in it keeps every string a reference") {
    auto mixed = extract("__lazy_modules__ = [\"app.models\", PREFIX + \"views\"]\n");
    CHECK(has_string_ref(mixed, "app.models"));
  }
  SECTION("inside a function it is no such declaration") {
    auto local = extract("def f():\n    __lazy_modules__ = [\"app.models\"]\n");
    CHECK(has_string_ref(local, "app.models"));
  }
}
