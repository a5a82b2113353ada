#include "app/run_order.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using namespace impact::app;

TEST_CASE("the dry run says which order the run's pytest would use", "[order]") {
  Durations durations = {{"tests/a.py::t1", {1.0, "x"}},        {"tests/a.py::t2[1]", {2.0, "x"}},
                         {"tests/a.py::t20", {2.0, "x"}},       {"tests/ab.py::t", {1.0, "x"}},
                         {"tests/b.py::TestK::t", {3.0, "x"}}};
  Decision d;
  d.outcome = Outcome::selected;
  d.selected = {SelectedTest{"tests/a.py::t2", {}, ""}, SelectedTest{"tests/b.py", {}, ""},
                SelectedTest{"tests/a.py::t2[1]", {}, ""}};
  // t2 covers t2[1] (counted once) but not t20; tests/b.py covers its class's test, not tests/ab.py.
  CHECK(describe_run_order(d, true, true, durations) ==
        "order: last failures first, then the longest first (2 of the tests it runs with a recorded duration); "
        "--no-reorder keeps pytest's order\n");
  SECTION("everything runs: every recorded test") {
    d.outcome = Outcome::run_all;
    CHECK_THAT(describe_run_order(d, true, true, durations), Catch::Contains("(5 of the tests"));
  }
  SECTION("pytest's order when turned off, or when the plugin is not loaded") {
    CHECK(describe_run_order(d, false, true, durations) == "order: pytest's collection order (--no-reorder)\n");
    CHECK_THAT(describe_run_order(d, true, false, durations), Catch::Contains("plugin is not loaded"));
  }
}
