// A class body's `@size.setter` reads the property object, not the method (property_accessors.hpp).
#include "impact/python/facts.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

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

bool reads(const Symbol& s, std::string_view ref) { return std::find(s.refs.begin(), s.refs.end(), ref) != s.refs.end(); }

} // namespace

TEST_CASE("a property's accessor decorators are no reads of its methods by the class body", "[references]") {
  auto facts = extract("class Loop:\n    @property\n    def last(self):\n        return 1\n\n"
                       "    @last.setter\n    def last(self, v):\n        pass\n\n"
                       "    @last.deleter\n    def last(self):\n        pass\n");
  const Symbol& cls = symbol(facts, "Loop");
  CHECK(reads(cls, "property"));
  CHECK_FALSE(reads(cls, "last.setter"));
  CHECK_FALSE(reads(cls, "last.deleter"));
}

TEST_CASE("other reads of a method by the class body stay reads", "[references]") {
  // `first` is a plain method (`first.setter` fails at import, whatever its body); `size` is made by
  // a project's own descriptor, whose setter may run anything; `doc` reads an attribute of the method.
  auto facts = extract("class Box:\n    def first(self):\n        return 1\n\n"
                       "    @first.setter\n    def first(self, v):\n        pass\n\n"
                       "    @lazy\n    def size(self):\n        return 2\n\n"
                       "    @size.setter\n    def size(self, v):\n        pass\n\n"
                       "    doc = first.__doc__\n");
  const Symbol& cls = symbol(facts, "Box");
  CHECK(reads(cls, "first.setter"));
  CHECK(reads(cls, "size.setter"));
  CHECK(reads(cls, "first.__doc__"));
}

TEST_CASE("a property accessor of another class's property stays a read", "[references]") {
  auto facts = extract("class Base:\n    @property\n    def name(self):\n        return 'a'\n\n\n"
                       "class Sub(Base):\n    @Base.name.setter\n    def name(self, v):\n        pass\n");
  CHECK(reads(symbol(facts, "Sub"), "Base.name.setter"));
}
