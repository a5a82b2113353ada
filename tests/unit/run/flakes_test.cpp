#include "impact/error.hpp"
#include "impact/run/durations.hpp"
#include "impact/run/flakes.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace impact;
using impact::testing::TempDir;

TEST_CASE("add_flakes sums the passes on rerun and keeps the last time seen", "[flakes]") {
  Flakes into = {{"a.py::t1", {2, "2026-01-02T00:00:00.000000Z"}}};
  add_flakes(into, {{"a.py::t1", {1, "2026-01-01T00:00:00.000000Z"}}, {"b.py::t2", {1, "2026-01-03T00:00:00.000000Z"}}});
  CHECK(into.at("a.py::t1") == FlakeRecord{3, "2026-01-02T00:00:00.000000Z"}); // an older run adds, never rewinds
  CHECK(into.at("b.py::t2") == FlakeRecord{1, "2026-01-03T00:00:00.000000Z"});
  CHECK(parse_flakes(render_flakes(into), "flakes.json") == into);
}

TEST_CASE("parse_run_flakes reads a run file's flaky passes, each at the run's time", "[flakes]") {
  std::string run = R"({"schema": "impact.durations.run", "version": 1, "at": "2026-01-02T00:00:00.000000Z",
    "tests": {"t.py::a": 0.5}, "flaky": {"t.py::a": 2}})";
  CHECK(parse_run_flakes(run, "run.json") == Flakes{{"t.py::a", {2, "2026-01-02T00:00:00.000000Z"}}});
  SECTION("a run without flaky passes has none") {
    CHECK(parse_run_flakes(R"({"at": "x", "tests": {}})", "run.json").empty());
  }
  SECTION("a member of another shape is an error naming the file") {
    CHECK_THROWS_WITH(parse_run_flakes(R"({"at": "x", "flaky": [1]})", "run.json"), Catch::Contains("run.json"));
    CHECK_THROWS_AS(parse_run_flakes(R"({"at": "x", "flaky": {"t.py::a": 0}})", "run.json"), Error);
    CHECK_THROWS_AS(parse_run_flakes(R"({"at": "x", "flaky": {"t.py::a": 1.5}})", "run.json"), Error);
  }
}

TEST_CASE("merging the inbox adds each run's flaky passes to flakes.json once", "[flakes]") {
  TempDir cache;
  cache.write("durations.d/run-1-a.json", R"({"schema": "impact.durations.run", "version": 1,
    "at": "2026-01-02T00:00:00.000000Z", "tests": {"t.py::a": 1.5, "t.py::b": 0.1}, "flaky": {"t.py::a": 1}})");
  cache.write("durations.d/run-2-b.json", R"({"schema": "impact.durations.run", "version": 1,
    "at": "2026-01-03T00:00:00.000000Z", "tests": {"t.py::a": 2.5}, "flaky": {"t.py::a": 1}})");
  std::vector<std::string> warnings;
  load_durations(cache.path(), warnings);
  CHECK(warnings.empty());
  Flakes once = load_flakes(cache.path(), warnings);
  CHECK(once == Flakes{{"t.py::a", {2, "2026-01-03T00:00:00.000000Z"}}}); // sparse: t.py::b never flaked
  load_durations(cache.path(), warnings); // the inbox is empty now: nothing is added twice
  CHECK(load_flakes(cache.path(), warnings) == once);
  cache.write("durations.d/run-3-c.json", R"({"schema": "impact.durations.run", "version": 1,
    "at": "2026-01-04T00:00:00.000000Z", "tests": {"t.py::b": 0.2}, "flaky": {"t.py::b": 1}})");
  load_durations(cache.path(), warnings);
  Flakes more = load_flakes(cache.path(), warnings);
  CHECK(more.at("t.py::a").passes == 2);
  CHECK(more.at("t.py::b") == FlakeRecord{1, "2026-01-04T00:00:00.000000Z"});
  CHECK(warnings.empty());
}

TEST_CASE("a broken flakes.json is a warning and starts again, never an error", "[flakes]") {
  TempDir cache;
  cache.write("flakes.json", "{not json");
  std::vector<std::string> warnings;
  CHECK(load_flakes(cache.path(), warnings).empty());
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("flakes.json"));
  cache.write("durations.d/run-1-a.json", R"({"schema": "impact.durations.run", "version": 1,
    "at": "2026-01-02T00:00:00.000000Z", "tests": {"t.py::a": 1.5}, "flaky": {"t.py::a": 1}})");
  load_durations(cache.path(), warnings);
  std::vector<std::string> none;
  CHECK(load_flakes(cache.path(), none) == Flakes{{"t.py::a", {1, "2026-01-02T00:00:00.000000Z"}}});
  CHECK(none.empty());
}
