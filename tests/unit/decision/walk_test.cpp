#include "decision/walk.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::decision::ReverseWalk;
using impact::testing::Project;

namespace {

using Strings = std::vector<std::string>;

// c imports b imports a; d and e import each other; f imports nothing.
std::unique_ptr<testing::Built> chain_project() {
  Project p;
  p.file("a.py")
      .file("b.py", "import a\n")
      .file("c.py", "\n\nfrom b import thing\n")
      .file("d.py", "import e\n")
      .file("e.py", "import d\n")
      .file("f.py");
  return testing::build(p);
}

uint32_t id(const testing::Built& b, std::string_view path) { return *b.graph.find(path); }

std::vector<std::string> reached_paths(const testing::Built& b, const ReverseWalk& walk) {
  std::vector<std::string> out;
  for (uint32_t n : walk.order()) out.push_back(b.graph.nodes[n].path.str);
  return out;
}

} // namespace

TEST_CASE("ReverseWalk reaches every file that loads a seed, transitively, breadth first", "[walk]") {
  auto b = chain_project();
  ReverseWalk walk(b->graph);
  walk.seed(id(*b, "a.py"), Relation::modified);
  walk.run();
  CHECK(reached_paths(*b, walk) == std::vector<std::string>{"a.py", "b.py", "c.py"});
  CHECK(walk.reached(id(*b, "c.py")));
  CHECK_FALSE(walk.reached(id(*b, "f.py")));
  CHECK_FALSE(walk.reached(id(*b, "d.py")));
}

TEST_CASE("ReverseWalk chains lead from a reached file back to its seed", "[walk]") {
  auto b = chain_project();
  ReverseWalk walk(b->graph);
  walk.seed(id(*b, "a.py"), Relation::modified);
  walk.run();
  SECTION("a file two hops away") {
    CHECK(testing::hops(walk.chain(id(*b, "c.py"))) ==
          Strings{"c.py from_import 3", "b.py import 1", "a.py modified 0"});
  }
  SECTION("the seed itself") { CHECK(testing::hops(walk.chain(id(*b, "a.py"))) == Strings{"a.py modified 0"}); }
}

TEST_CASE("ReverseWalk seeds and links only files not reached yet", "[walk]") {
  auto b = chain_project();
  ReverseWalk walk(b->graph);
  walk.seed(id(*b, "a.py"), Relation::modified);
  walk.seed(id(*b, "a.py"), Relation::deleted);
  walk.run();
  walk.seed(id(*b, "b.py"), Relation::added);
  CHECK(walk.order().size() == 3);
  CHECK(walk.chain(id(*b, "a.py")).front().relation == Relation::modified);
  CHECK(walk.chain(id(*b, "b.py")).front().relation == Relation::import_);
  SECTION("link adds a file through a relation the graph does not hold") {
    walk.link(id(*b, "f.py"), id(*b, "b.py"), Relation::dynamic_import_may_load, 7);
    walk.run();
    CHECK(walk.reached(id(*b, "f.py")));
    CHECK(testing::hops(walk.chain(id(*b, "f.py"))) ==
          Strings{"f.py dynamic_import_may_load 7", "b.py import 1", "a.py modified 0"});
    walk.link(id(*b, "f.py"), id(*b, "a.py"), Relation::conftest, 1);
    CHECK(walk.chain(id(*b, "f.py")).front().relation == Relation::dynamic_import_may_load);
  }
}

TEST_CASE("ReverseWalk terminates on import cycles", "[walk]") {
  auto b = chain_project();
  ReverseWalk walk(b->graph);
  walk.seed(id(*b, "d.py"), Relation::modified);
  walk.run();
  CHECK(reached_paths(*b, walk) == std::vector<std::string>{"d.py", "e.py"});
  CHECK(testing::hops(walk.chain(id(*b, "e.py"))) == Strings{"e.py import 1", "d.py modified 0"});
}
