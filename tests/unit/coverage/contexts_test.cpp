#include "coverage/contexts.hpp"

#include <catch2/catch.hpp>

using impact::coverage::ContextKind;
using impact::coverage::ContextMapper;
using impact::coverage::decode_numbits;

namespace {

std::vector<uint32_t> lines_of(std::string_view bits) {
  std::vector<uint32_t> out;
  decode_numbits(bits, out);
  return out;
}

ContextMapper shop_mapper(std::string rootdir = "") {
  ContextMapper m(std::move(rootdir));
  for (const char* path : {"src/shop/cart.py", "tests/test_cart.py", "tests/inventory/test_stock.py",
                           "tests/inventory/__init__.py", "tests/__init__.py"}) {
    m.add_module_file(path);
  }
  return m;
}

} // namespace

TEST_CASE("numbits: bit i of byte j is line 8j + i, as coverage.numbits writes them", "[coverage]") {
  // coverage.numbits.nums_to_numbits([1, 2, 9, 17]) == b'\x06\x02\x02'
  CHECK(lines_of(std::string_view("\x06\x02\x02", 3)) == std::vector<uint32_t>{1, 2, 9, 17});
  CHECK(lines_of("").empty());
  CHECK(lines_of(std::string_view("\x00\x00\x80", 3)) == std::vector<uint32_t>{23});
  CHECK(lines_of("\xff") == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  SECTION("appends, so that one buffer serves many rows") {
    std::vector<uint32_t> out{99};
    decode_numbits("\x02", out);
    CHECK(out == std::vector<uint32_t>{99, 1});
  }
}

TEST_CASE("pytest-cov contexts: the run phase is the test, setup and teardown are fixture phases", "[coverage]") {
  ContextMapper m = shop_mapper();
  auto run = m.map("tests/test_cart.py::test_total|run");
  CHECK(run.kind == ContextKind::test);
  CHECK(run.node_id == "tests/test_cart.py::test_total");
  CHECK_FALSE(run.decorated);
  for (const char* phase : {"setup", "teardown"}) {
    auto f = m.map(std::string("tests/test_cart.py::test_total|") + phase);
    CHECK(f.kind == ContextKind::fixture);
    CHECK(f.node_id == "tests/test_cart.py::test_total");
  }
  CHECK(m.map("tests/test_cart.py::TestCart::test_add|run").node_id == "tests/test_cart.py::TestCart::test_add");
}

TEST_CASE("a child process of a test's call is the test, marked as a child's", "[coverage]") {
  ContextMapper m = shop_mapper();
  auto child = m.map("tests/test_cart.py::test_total|child");
  CHECK(child.kind == ContextKind::test);
  CHECK(child.node_id == "tests/test_cart.py::test_total");
  CHECK(child.child);
  CHECK_FALSE(m.map("tests/test_cart.py::test_total|run").child);
}

TEST_CASE("the empty context is code run outside any test", "[coverage]") {
  ContextMapper m = shop_mapper();
  CHECK(m.map("").kind == ContextKind::outside);
  CHECK(m.map("").node_id.empty());
}

TEST_CASE("parametrized ids are kept whole: spaces, brackets and bars included", "[coverage]") {
  ContextMapper m = shop_mapper();
  CHECK(m.map("tests/test_cart.py::test_total[a b]|run").node_id == "tests/test_cart.py::test_total[a b]");
  CHECK(m.map("tests/test_cart.py::test_total[x|run]|run").node_id == "tests/test_cart.py::test_total[x|run]");
  CHECK(m.map("tests/test_cart.py::test_total[gw0]|run").node_id == "tests/test_cart.py::test_total[gw0]");
  CHECK(m.map("tests/test_cart.py::test_total[1-2.5]|run").node_id == "tests/test_cart.py::test_total[1-2.5]");
}

TEST_CASE("xdist worker suffixes and static context labels are stripped and counted", "[coverage]") {
  ContextMapper m = shop_mapper();
  auto suffixed = m.map("tests/test_cart.py::test_total|run [gw3]");
  CHECK(suffixed.kind == ContextKind::test);
  CHECK(suffixed.node_id == "tests/test_cart.py::test_total");
  CHECK(suffixed.decorated);
  auto before_phase = m.map("tests/test_cart.py::test_total[p] [gw12]|run");
  CHECK(before_phase.node_id == "tests/test_cart.py::test_total[p]");
  CHECK(m.map("tests/test_cart.py::test_total@gw0|run").node_id == "tests/test_cart.py::test_total");
  auto labelled = m.map("ci-py311|tests/test_cart.py::test_total|run");
  CHECK(labelled.kind == ContextKind::test);
  CHECK(labelled.node_id == "tests/test_cart.py::test_total");
  CHECK(labelled.decorated);
  SECTION("a label alone is code run outside the tests, under a static context") {
    auto alone = m.map("ci-py311");
    CHECK(alone.kind == ContextKind::unknown);
    CHECK(alone.node_id.empty());
  }
}

TEST_CASE("node ids are made repository-relative from pytest's rootdir", "[coverage]") {
  ContextMapper m = shop_mapper("sub");
  CHECK(m.map("tests/test_x.py::test_a|run").node_id == "sub/tests/test_x.py::test_a");
  CHECK(m.map("sub/test_x.py::test_a|run").node_id == "sub/sub/test_x.py::test_a");
}

TEST_CASE("test_function contexts name the module by any suffix of its dotted path", "[coverage]") {
  ContextMapper m = shop_mapper();
  auto plain = m.map("test_cart.test_total"); // rootdir-inserted tests/ on sys.path
  CHECK(plain.kind == ContextKind::test);
  CHECK(plain.node_id == "tests/test_cart.py::test_total");
  CHECK(m.map("tests.test_cart.TestCart.test_add").node_id == "tests/test_cart.py::TestCart::test_add");
  CHECK(m.map("tests.inventory.test_stock.test_level").node_id == "tests/inventory/test_stock.py::test_level");
  CHECK(m.map("label|tests.test_cart.test_total").node_id == "tests/test_cart.py::test_total");
  CHECK(m.map("nowhere.test_x").kind == ContextKind::unknown);
  SECTION("a module name two files answer to names no test") {
    ContextMapper twice("");
    twice.add_module_file("tests/a/test_x.py");
    twice.add_module_file("tests/b/test_x.py");
    CHECK(twice.map("test_x.test_one").kind == ContextKind::unknown);
    CHECK(twice.map("a.test_x.test_one").node_id == "tests/a/test_x.py::test_one");
  }
  SECTION("a name with a phase but no node id is not pytest-cov's") {
    CHECK(m.map("test_cart.test_total|run").kind == ContextKind::unknown);
  }
}
