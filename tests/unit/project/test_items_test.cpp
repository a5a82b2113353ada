#include "impact/project.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::Project;

namespace {

// The node ids of the tests ProjectLayout::is_test_item finds in test module `source`, under `config`.
std::vector<std::string> test_items(std::string_view source, PytestConfig config = {}) {
  Project p;
  p.config = std::move(config);
  p.file("tests/test_x.py", std::string(source));
  auto built = testing::build(p);
  size_t at = built->facts.find("tests/test_x.py");
  REQUIRE(at != ProjectFacts::npos);
  FactsView view;
  built->facts.view(at, view);
  std::vector<std::string> out;
  for (size_t i = 0; i < view.symbols.size(); ++i) {
    if (built->layout->is_test_item(view.symbols, static_cast<int32_t>(i))) {
      out.push_back(test_node_id("tests/test_x.py", view.symbols[i].qualname));
    }
  }
  return out;
}

using Strings = std::vector<std::string>;

} // namespace

TEST_CASE("is_test_item: top-level test functions, not nested ones nor helpers", "[layout]") {
  CHECK(test_items("def test_a():\n    def test_inner(): pass\n\ndef helper(): pass\n") ==
        Strings{"tests/test_x.py::test_a"});
}

TEST_CASE("is_test_item: methods of collected classes, not of classes with __init__", "[layout]") {
  CHECK(test_items("class TestA:\n    def test_m(self): pass\n    def helper(self): pass\n"
                   "    class TestInner:\n        def test_n(self): pass\n"
                   "class TestInit:\n    def __init__(self): pass\n    def test_x(self): pass\n"
                   "class Other:\n    def test_y(self): pass\n") ==
        Strings{"tests/test_x.py::TestA::test_m", "tests/test_x.py::TestA::TestInner::test_n"});
}

TEST_CASE("is_test_item: a class with bases collects test* methods whatever python_functions says", "[layout]") {
  PytestConfig config;
  config.python_functions = {"check_"};
  CHECK(test_items("class Case(unittest.TestCase):\n    def test_a(self): pass\n    def check_b(self): pass\n"
                   "def check_c(): pass\ndef test_d(): pass\n",
                   config) == Strings{"tests/test_x.py::Case::test_a", "tests/test_x.py::Case::check_b",
                                      "tests/test_x.py::check_c"});
}

TEST_CASE("test_node_id joins a qualname with '::', dotted_qualname undoes it", "[node_id]") {
  CHECK(test_node_id("tests/test_x.py", "test_a") == "tests/test_x.py::test_a");
  CHECK(test_node_id("tests/test_x.py", "TestA.Inner.test_b") == "tests/test_x.py::TestA::Inner::test_b");
  CHECK(dotted_qualname("TestA::Inner::test_b") == "TestA.Inner.test_b");
  CHECK(dotted_qualname("test_a") == "test_a");
}
