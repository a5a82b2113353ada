#include "app/doctor.hpp"

#include <catch2/catch.hpp>

using namespace impact::app;

TEST_CASE("without_parameters drops a parametrized id's brackets only", "[doctor]") {
  CHECK(without_parameters("t.py::test_a[1-2]") == "t.py::test_a");
  CHECK(without_parameters("t.py::TestX::test_a[x::y]") == "t.py::TestX::test_a");
  CHECK(without_parameters("t.py::test_a") == "t.py::test_a");
  CHECK(without_parameters("t.py") == "t.py");
  CHECK(without_parameters("t.py::test_a[unclosed") == "t.py::test_a[unclosed");
}

TEST_CASE("compare_test_ids names every id one side has and the other lacks", "[doctor]") {
  std::vector<std::string> impact = {"a.py::test_x", "a.py::test_y", "b.py::T::test_z", "a.py::test_x"};
  std::vector<std::string> pytest = {"a.py::test_x[1]", "a.py::test_x[2]", "b.py::T::test_z", "c.py::test_gen_0"};
  IdDifference d = compare_test_ids(impact, pytest);
  CHECK(d.only_impact == std::vector<std::string>{"a.py::test_y"});
  CHECK(d.only_pytest == std::vector<std::string>{"c.py::test_gen_0"});
}

TEST_CASE("compare_test_ids of equal suites finds no difference", "[doctor]") {
  IdDifference d = compare_test_ids({"a.py::test_x"}, {"a.py::test_x[1]", "a.py::test_x"});
  CHECK(d.only_impact.empty());
  CHECK(d.only_pytest.empty());
  CHECK(compare_test_ids({}, {}).only_pytest.empty());
}

TEST_CASE("counts_by_file groups ids by their file, in path order", "[doctor]") {
  CHECK(counts_by_file({"b.py::t1", "a.py::t1", "b.py::T::t2"}) == std::vector<std::string>{"a.py (1)", "b.py (2)"});
}

TEST_CASE("capped keeps the first items and counts the rest", "[doctor]") {
  CHECK(capped({"a", "b", "c"}, 3) == std::vector<std::string>{"a", "b", "c"});
  CHECK(capped({"a", "b", "c", "d"}, 2) == std::vector<std::string>{"a", "b", "and 2 more"});
}

TEST_CASE("check statuses have stable words", "[doctor]") {
  CHECK(to_string(CheckStatus::ok) == "ok");
  CHECK(to_string(CheckStatus::warn) == "warn");
  CHECK(to_string(CheckStatus::fail) == "fail");
}
