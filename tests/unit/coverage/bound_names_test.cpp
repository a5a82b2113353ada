#include "coverage/bound_names.hpp"

#include <catch2/catch.hpp>

using impact::bound_names;
using Names = std::set<std::string>;

TEST_CASE("bound_names: every way a statement binds a name", "[coverage][bound_names]") {
  CHECK(bound_names("x = 1\n") == Names{"x"});
  CHECK(bound_names("a, (b, c) = t\n") == Names{"a", "b", "c"});
  CHECK(bound_names("n += step\n") == Names{"n"});
  CHECK(bound_names("if (m := f()):\n") == Names{"m"});
  CHECK(bound_names("for i, v in items:\n") == Names{"i", "v"});
  CHECK(bound_names("with open(p) as fh:\n") == Names{"fh"});
  CHECK(bound_names("except KeyError as e:\n") == Names{"e"});
  CHECK(bound_names("import os.path, sys\n") == Names{"os", "sys"});
  CHECK(bound_names("from pkg import a, b as c\n") == Names{"a", "b", "c"}); // b too: more, never fewer
  CHECK(bound_names("del cache\n") == Names{"cache"});
  CHECK(bound_names("global LIMIT\n") == Names{"global LIMIT"});
  CHECK(bound_names("def helper():\n") == Names{"helper"});
  CHECK(bound_names("total: int = 0\n") == Names{"total", "int"});
  CHECK(bound_names("case Point(x=px):\n") == Names{"Point", "x", "px"});
}

TEST_CASE("bound_names: reads, calls, keywords and strings bind nothing", "[coverage][bound_names]") {
  CHECK(bound_names("return min(x, LIMIT)\n").empty());
  CHECK(bound_names("f(a=1, b=2)\n").empty());
  CHECK(bound_names("if a == b or c <= d:\n").empty());
  CHECK(bound_names("else:\n").empty());
  CHECK(bound_names("try:\n").empty());
  CHECK(bound_names("finally:\n").empty());
  CHECK(bound_names("print('x = 1')  # y = 2\n").empty());
  CHECK(bound_names("self.total = v\n") == Names{"self"}); // an attribute's base: more, never fewer
}
