// keep_unmeasured(): of the static answer for changes the coverage index answered, what stands.
#include "decision/unmeasured.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace impact;

namespace {

std::set<std::string> ids(const decision::Selection& s, const ImportGraph& graph) {
  std::set<std::string> out;
  for (const auto& [node, chain] : s.whole) out.insert("whole " + graph.nodes[node].path.str);
  for (const auto& [id, chain] : s.tests) out.insert(id);
  for (const auto& [node, chain] : s.import_only) out.insert("import " + graph.nodes[node].path.str);
  return out;
}

} // namespace

TEST_CASE("keep_unmeasured keeps unmeasured files whole and, in measured files, only the tests that left no coverage",
          "[decision][coverage]") {
  testing::Project project;
  for (const char* f : {"tests/test_a.py", "tests/test_b.py", "tests/test_c.py", "tests/test_d.py", "tests/test_e.py"}) {
    project.file(f, "def test_x():\n    pass\n");
  }
  project.file("tests/helpers.py");
  auto built = testing::build(project);
  auto node = [&](const char* path) { return *built->graph.find(path); };

  decision::Selection answer;
  answer.whole.emplace(node("tests/test_a.py"), std::vector<Hop>{});
  answer.whole.emplace(node("tests/test_d.py"), std::vector<Hop>{});
  answer.whole.emplace(node("tests/test_e.py"), std::vector<Hop>{});
  answer.tests.emplace("tests/test_b.py::test_x", std::vector<Hop>{});
  answer.tests.emplace("tests/test_b.py::test_y[1]", std::vector<Hop>{});
  answer.tests.emplace("tests/test_c.py::TestK", std::vector<Hop>{});
  answer.tests.emplace("tests/test_e.py::test_x", std::vector<Hop>{});
  answer.import_only.emplace(node("tests/helpers.py"), std::vector<Hop>{});

  CoverageInput coverage;
  coverage.unmeasured_tests = {"tests/test_d.py"};
  coverage.unrecorded_tests = {
      {"tests/test_a.py", {"tests/test_a.py::test_skipped"}},
      {"tests/test_b.py", {"tests/test_b.py::test_y"}},
      {"tests/test_c.py", {"tests/test_c.py::TestK::test_m"}},
  };
  auto kept = decision::keep_unmeasured(std::move(answer), coverage, {}, built->graph);
  CHECK(ids(kept, built->graph) == std::set<std::string>{
                                       "tests/test_a.py::test_skipped", // a whole file: its unrecorded tests
                                       "tests/test_b.py::test_y[1]",    // a parameter set of an unrecorded test
                                       "tests/test_c.py::TestK",        // the class that holds one
                                       "whole tests/test_d.py",         // a file the index never measured as it is
                                   });
}
