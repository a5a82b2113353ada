#include "impact/error.hpp"
#include "impact/run/durations.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

using namespace impact;
using impact::testing::TempDir;

TEST_CASE("merge_durations keeps the newest value per test", "[durations]") {
  Durations into = {{"a.py::t1", {1.0, "2026-01-02T00:00:00.000000Z"}}, {"a.py::t2", {2.0, "2026-01-01T00:00:00.000000Z"}}};
  Durations filtered_run = {{"a.py::t2", {5.0, "2026-01-03T00:00:00.000000Z"}}};
  Durations older = {{"a.py::t1", {9.0, "2025-12-31T00:00:00.000000Z"}}, {"b.py::t3", {3.0, "2025-12-31T00:00:00.000000Z"}}};
  merge_durations(into, filtered_run);
  merge_durations(into, older);
  CHECK(into.at("a.py::t1").seconds == 1.0); // the older run does not overwrite the newer value
  CHECK(into.at("a.py::t2").seconds == 5.0); // the filtered run updated only what it ran
  CHECK(into.at("b.py::t3").seconds == 3.0);
  CHECK(parse_durations(render_durations(into), "d.json") == into);
}

TEST_CASE("load_durations merges the inbox into durations.json and empties it", "[durations]") {
  TempDir cache;
  cache.write("durations.d/run-1-a.json", R"({"schema": "impact.durations.run", "version": 1,
    "at": "2026-01-02T00:00:00.000000Z", "tests": {"t.py::a": 1.5, "t.py::b": 0.25}})");
  cache.write("durations.d/run-2-b.json", R"({"schema": "impact.durations.run", "version": 1,
    "at": "2026-01-03T00:00:00.000000Z", "tests": {"t.py::a": 2.5}})");
  cache.write("durations.d/run-3-c.json", "{not json");
  std::vector<std::string> warnings;
  Durations d = load_durations(cache.path(), warnings);
  CHECK(d.at("t.py::a").seconds == 2.5);
  CHECK(d.at("t.py::b").seconds == 0.25);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("run-3-c.json"));
  CHECK(std::filesystem::is_empty(cache / "durations.d"));
  std::vector<std::string> none;
  CHECK(load_durations(cache.path(), none) == d); // from durations.json alone now
  CHECK(none.empty());
}

TEST_CASE("a broken durations.json is a warning, never an error", "[durations]") {
  TempDir cache;
  cache.write("durations.json", "[1, 2");
  std::vector<std::string> warnings;
  CHECK(load_durations(cache.path(), warnings).empty());
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("durations.json"));
}

TEST_CASE("parse_junit maps classname and name to node ids", "[durations]") {
  TempDir root;
  root.write("tests/test_a.py", "");
  root.write("tests/sub/test_b.py", "");
  std::string xml = R"(<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="4">
<testcase classname="tests.test_a" name="test_one" time="1.250" />
<testcase classname="tests.test_a.TestK" name="test_two[a&amp;b]" time="0.5"><failure message="x">boom</failure></testcase>
<testcase classname='tests.sub.test_b' name='test_three' time='2' file='tests/sub/test_b.py'/>
<testcase classname="tests.gone" name="test_four" time="0.1"/>
</testsuite></testsuites>)";
  Durations d = parse_junit(xml, "junit.xml", root.path(), "2026-01-01T00:00:00.000000Z");
  CHECK(d.size() == 4);
  CHECK(d.at("tests/test_a.py::test_one").seconds == Approx(1.25));
  CHECK(d.at("tests/test_a.py::TestK::test_two[a&b]").seconds == Approx(0.5));
  CHECK(d.at("tests/sub/test_b.py::test_three").seconds == Approx(2.0));
  CHECK(d.count("tests/gone.py::test_four") == 1);
  CHECK(d.at("tests/test_a.py::test_one").at == "2026-01-01T00:00:00.000000Z");
}

TEST_CASE("parse_junit_cases reads each test's outcome, the worst of its entries", "[durations]") {
  TempDir root;
  root.write("tests/test_a.py", "");
  std::string xml = R"(<testsuites><testsuite name="pytest">
<testcase classname="tests.test_a" name="test_pass" time="0.25" />
<testcase classname="tests.test_a" name="test_fail" time="1"><failure message="x">boom</failure></testcase>
<testcase classname="tests.test_a" name="test_skip" time="0"><skipped message="no"/></testcase>
<testcase classname="tests.test_a" name="test_teardown" time="0.5"></testcase>
<testcase classname="tests.test_a" name="test_teardown" time="0.5"><error message="teardown"/></testcase>
</testsuite></testsuites>)";
  auto cases = parse_junit_cases(xml, "junit.xml", root.path());
  CHECK(cases.size() == 4);
  CHECK(cases.at("tests/test_a.py::test_pass").outcome == "passed");
  CHECK(cases.at("tests/test_a.py::test_fail").outcome == "failed");
  CHECK(cases.at("tests/test_a.py::test_skip").outcome == "skipped");
  CHECK(cases.at("tests/test_a.py::test_teardown").outcome == "error");
  CHECK(cases.at("tests/test_a.py::test_teardown").seconds == Approx(1.0));
  CHECK_THROWS_WITH(parse_junit_cases("<testsuite><testcase classname=\"a\" name=\"b\">", "j.xml", root.path()),
                    Catch::Contains("not closed"));
}

TEST_CASE("parse_junit refuses what is not a JUnit report, naming the file", "[durations]") {
  TempDir root;
  CHECK_THROWS_WITH(parse_junit("{\"a\": 1}", "report.json", root.path(), "t"), Catch::StartsWith("report.json: no <testsuite>"));
  CHECK_THROWS_WITH(parse_junit("<testsuite><testcase classname=\"a\" name=\"b\" time=\"x\"/></testsuite>", "j.xml",
                                root.path(), "t"),
                    Catch::Contains("time=\"x\""));
  CHECK_THROWS_WITH(parse_junit("<testsuite><testcase name=\"b\"/></testsuite>", "j.xml", root.path(), "t"),
                    Catch::Contains("no name or classname"));
  CHECK_THROWS_WITH(parse_junit("<testsuite><testcase classname=\"a\" name=\"b\"", "j.xml", root.path(), "t"),
                    Catch::Contains("not closed"));
}

TEST_CASE("utc_now orders as a string", "[durations]") {
  std::string a = utc_now();
  CHECK(a.size() == 27);
  CHECK(a.back() == 'Z');
  CHECK(utc_now() >= a);
}

TEST_CASE("a broken durations.json is rewritten, so that it is reported once", "[durations]") {
  TempDir cache;
  cache.write("durations.json", "{\"schema\": \"something else\"}");
  std::vector<std::string> first, second;
  load_durations(cache.path(), first);
  load_durations(cache.path(), second);
  CHECK(first.size() == 1);
  CHECK(second.empty());
}

TEST_CASE("the plugin's environment turns the run order on only when given the durations file", "[durations]") {
  auto value = [](const std::vector<std::pair<std::string, std::string>>& env, const std::string& name) {
    for (const auto& [n, v] : env) {
      if (n == name) return std::optional<std::string>(v);
    }
    return std::optional<std::string>();
  };
  auto ordered = durations_plugin_env("/c/plugin", "/c/durations.d", "/repo", "", "xdist", "/c/durations.json");
  CHECK(value(ordered, "IMPACT_ORDER_DURATIONS") == "/c/durations.json");
  CHECK(value(ordered, "PYTEST_PLUGINS") == "xdist,impact_durations");
  auto kept = durations_plugin_env("/c/plugin", "/c/durations.d", "/repo", "", "");
  CHECK(!value(kept, "IMPACT_ORDER_DURATIONS"));
  CHECK(value(kept, "PYTEST_PLUGINS") == "impact_durations");
}

TEST_CASE("the plugin's source carries the order's hooks after the recording ones", "[durations]") {
  std::string source = durations_plugin_source();
  auto configure = source.find("def pytest_configure(");
  auto order = source.find("def pytest_collection_modifyitems(");
  REQUIRE(configure != std::string::npos);
  REQUIRE(order != std::string::npos);
  CHECK(configure < order);
  CHECK(source.find("IMPACT_ORDER_DURATIONS") != std::string::npos);
}
