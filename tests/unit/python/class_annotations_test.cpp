// A class body's references read only in its annotated assignments' annotations
// (Symbol::annotation_refs, python/class_annotations.hpp).
#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace impact;
using impact::testing::extract;

namespace {

// The refs of class `qualname` read only in annotations.
std::vector<std::string> annotated(const std::string& source, std::string_view qualname) {
  auto facts = extract(source);
  for (const auto& s : facts.symbols) {
    if (s.qualname != qualname) continue;
    return std::vector<std::string>(s.refs.end() - s.annotation_refs, s.refs.end());
  }
  FAIL("no symbol " << qualname);
  return {};
}

bool has(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

} // namespace

TEST_CASE("names a class body reads only in annotations are counted apart", "[extract][annotations]") {
  std::string source = "from typing import Final, Optional\nimport models\n\n"
                       "class Wrapper:\n"
                       "    config: Final[Config]\n"
                       "    other: Optional[models.Other] = None\n"
                       "    plain: Config\n"
                       "    shared: Shared\n"
                       "    value = Shared()\n\n"
                       "    def __init__(self, c: Config, d=DEFAULT):\n"
                       "        self.c = Helper(c)\n";
  auto only = annotated(source, "Wrapper");
  CHECK(has(only, "Config"));        // a method's annotation is its own read, not the body's
  CHECK(has(only, "models.Other"));
  CHECK(has(only, "Final"));
  CHECK_FALSE(has(only, "Shared"));  // also called in the body
  CHECK_FALSE(has(only, "DEFAULT")); // a default runs in the class body
}

TEST_CASE("an annotation that runs code at class creation stays the body's read", "[extract][annotations]") {
  std::string source = "from typing import Annotated\n\n"
                       "class List:\n"
                       "    def __class_getitem__(cls, item):\n"
                       "        return cls\n\n"
                       "class Holder:\n"
                       "    items: List[Item]\n"
                       "    checked: Annotated[int, check()]\n"
                       "    either: Left | Right\n";
  auto only = annotated(source, "Holder");
  CHECK_FALSE(has(only, "List"));   // the project's own List: its __class_getitem__ runs
  CHECK_FALSE(has(only, "Item"));
  CHECK_FALSE(has(only, "check"));
  CHECK_FALSE(has(only, "Left"));
  // With evaluation postponed nothing of an annotation runs where it is written.
  auto later = annotated("from __future__ import annotations\n" + source, "Holder");
  CHECK(has(later, "List"));
  CHECK(has(later, "Left"));
  CHECK(has(later, "check"));
}

TEST_CASE("the names a class body's string annotations spell are its annotation reads", "[extract][annotations]") {
  std::string source = "class Service:\n"
                       "    clock: \"Clock\"\n"
                       "    nodes: \"list[pkg.tree.Node]\" = None\n"
                       "    box: Box[\"Item\"]\n"
                       "    helper = Helper()\n"
                       "    other: \"Helper\"\n";
  auto only = annotated(source, "Service");
  CHECK(has(only, "Clock"));
  CHECK(has(only, "pkg.tree.Node"));
  CHECK(has(only, "Item"));
  CHECK_FALSE(has(only, "Helper")); // also called in the body
}
