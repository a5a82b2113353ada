// A function's annotations are its own reads (python/annotations.hpp).
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;

namespace {

const Symbol& symbol(const FileFacts& facts, std::string_view qualname) {
  for (const auto& s : facts.symbols) {
    if (s.qualname == qualname) return s;
  }
  FAIL("no symbol " << qualname);
  return facts.symbols.front();
}

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

TEST_CASE("parameter and return annotations are the function's reads, not import-time code", "[extract][annotations]") {
  auto facts = extract("import typing as t\nfrom .core import Context, Result\n\n"
                       "def run(ctx: Context, n: int = 0) -> t.Optional[Result]:\n    return None\n\n"
                       "class Tool:\n    def use(self, ctx: 'Context', other: models.Thing) -> Result:\n        pass\n");
  CHECK(has(symbol(facts, "run").refs, "Context"));
  CHECK(has(symbol(facts, "run").refs, "Result"));
  CHECK(has(symbol(facts, "Tool.use").refs, "models.Thing"));
  CHECK(has(symbol(facts, "Tool.use").refs, "Result"));
  CHECK_FALSE(has(facts.module_refs, "Context"));
  CHECK_FALSE(has(facts.module_refs, "Result"));
  CHECK(symbol(facts, "Tool").refs.empty()); // the class body reads none of its methods' annotations
  CHECK(has(facts.module_refs, "t.Optional")); // subscripted: its __getitem__ runs at import
}

TEST_CASE("annotations that run code stay import-time reads", "[extract][annotations]") {
  auto facts = extract("def a(x: Box[int]) -> A | None:\n    pass\n"
                       "def b(x: Annotated[int, check(Limit)]):\n    pass\n"
                       "def c(x: Pitch = make(Pitch)):\n    pass\n");
  for (std::string_view name : {"Box", "A", "Annotated", "check", "Limit", "make"}) {
    INFO(name);
    CHECK(has(facts.module_refs, name));
  }
  CHECK(has(symbol(facts, "a").refs, "int"));
  CHECK_FALSE(has(symbol(facts, "b").refs, "Limit"));
  CHECK(has(symbol(facts, "c").refs, "Pitch")); // the annotation; the default's Pitch is the module's
  CHECK(has(facts.module_refs, "Pitch"));
}

TEST_CASE("a string annotation's names are the function's reads (typing.get_type_hints evaluates them)",
          "[extract][annotations]") {
  auto facts = extract("def uptime(clock: \"Clock\", node: 'pkg.tree.Node | None' = None) -> \"list[Reading]\":\n"
                       "    return clock.now\n\n"
                       "def plain(x: 'not a type, or 1'):\n    pass\n");
  const auto& refs = symbol(facts, "uptime").refs;
  CHECK(has(refs, "Clock"));
  CHECK(has(refs, "pkg.tree.Node"));
  CHECK(has(refs, "Reading"));
  CHECK(has(refs, "list"));
  CHECK_FALSE(has(refs, "None"));
  CHECK_FALSE(has(facts.module_refs, "Clock"));
  CHECK_FALSE(has(symbol(facts, "plain").refs, "not"));
}

TEST_CASE("the string conditions of skipif and xfail markers are reads of the marked test", "[extract][annotations]") {
  auto facts = extract("import pytest\nimport pkg.flags\n\n"
                       "@pytest.mark.skipif(\"not pkg.flags.new_parser()\", reason=\"needs pkg.parser\")\n"
                       "def test_new():\n    pass\n\n"
                       "@pytest.mark.xfail(condition=\"pkg.flags.legacy\")\n"
                       "class TestOld:\n    def test_a(self):\n        pass\n\n"
                       "@pytest.mark.parametrize(\"pkg.other\", [1])\n"
                       "def test_param(x):\n    pass\n");
  CHECK(has(symbol(facts, "test_new").refs, "pkg.flags.new_parser"));
  CHECK_FALSE(has(symbol(facts, "test_new").refs, "pkg.parser")); // reason= is prose
  CHECK(has(symbol(facts, "TestOld").refs, "pkg.flags.legacy"));
  CHECK_FALSE(has(symbol(facts, "test_param").refs, "pkg.other"));
}

TEST_CASE("a module-level pytestmark's string conditions are module-level reads", "[extract][annotations]") {
  auto facts = extract("import pytest\nimport pkg.flags\n\n"
                       "pytestmark = [pytest.mark.skipif(\"not pkg.flags.ready()\"), pytest.mark.slow]\n"
                       "needs_new = pytest.mark.xfail(condition=\"pkg.flags.legacy\", reason=\"pkg.prose\")\n\n"
                       "def test_a():\n    pass\n");
  CHECK(has(facts.module_refs, "pkg.flags.ready"));
  CHECK(has(facts.module_refs, "pkg.flags.legacy"));
  CHECK_FALSE(has(facts.module_refs, "pkg.prose"));
  CHECK(symbol(facts, "test_a").refs.empty());
}
