// ProjectTables: answers computed on first use and kept for the run.
#include "decision/project_tables.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;

TEST_CASE("ProjectTables::string_refs answers a file's module-naming strings once, the same each time", "[project_tables]") {
  testing::Project p;
  p.file("app/__init__.py")
      .file("app/ops.py", "def add(a, b):\n    return a + b\n")
      .file("tests/test_ops.py", "from unittest import mock\n\ndef test_add():\n"
                                 "    with mock.patch(\"app.ops.add\"):\n        pass\n")
      .file("tests/test_none.py", "def test_nothing():\n    assert True\n");
  auto built = testing::build(p);
  resolve::FileIndex index(built->graph, built->facts);
  decision::ProjectTables tables(built->graph, built->facts);
  uint32_t with = *built->graph.find("tests/test_ops.py");
  uint32_t without = *built->graph.find("tests/test_none.py");
  const auto& first = tables.string_refs(with, *index.get(with));
  REQUIRE(first.size() == 1);
  CHECK(first.front().modules.front().first == *built->graph.find("app/ops.py"));
  CHECK(first.front().modules.front().second == std::optional<std::string>("add"));
  CHECK(tables.string_refs(without, *index.get(without)).empty());
  CHECK(&tables.string_refs(with, *index.get(with)) == &first); // the kept answer, found by position
  CHECK(tables.string_refs(with, *index.get(with)).size() == 1);
}
