#include "impact/report.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    out.push_back(text.substr(start, end - start));
  }
  CHECK(start == text.size()); // every annotation ends its line
  return out;
}

} // namespace

TEST_CASE("render_github writes one notice for the decision and a warning per uncertainty", "[github]") {
  ChangeSet changes = testing::change_set({testing::modified("src/a.py")});
  Decision d;
  Report report;
  report.changes = &changes;
  report.decision = &d;
  report.total_ms = 7;
  SECTION("selected: the summary, the mode and the node ids") {
    d.outcome = Outcome::selected;
    SelectedTest t;
    t.node_id = "tests/test_a.py::test_x";
    d.selected = {t};
    auto lines = lines_of(render_github(report));
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == "::notice title=impact%3A selected tests::selected 1 node id(s) in 1 file(s) from 1 changed "
                      "file(s) in 7 ms; mode balanced; running tests/test_a.py::test_x");
  }
  SECTION("more than ten node ids are counted, not listed") {
    d.outcome = Outcome::selected;
    for (int i = 0; i < 12; ++i) {
      SelectedTest t;
      t.node_id = fmt::format("tests/test_{:02}.py", i);
      d.selected.push_back(t);
    }
    auto line = lines_of(render_github(report)).at(0);
    CHECK_THAT(line, Catch::EndsWith("tests/test_09.py and 2 more"));
    CHECK_THAT(line, !Catch::Contains("test_10"));
  }
  SECTION("run_all: a notice on the file that forced it") {
    d.outcome = Outcome::run_all;
    d.reason = Reason::config_changed;
    d.detail = "setup.cfg changed";
    FileVerdict v;
    v.path = RepoPath{"setup.cfg"};
    v.effect = "run_all: config_changed";
    d.files = {v};
    auto lines = lines_of(render_github(report));
    REQUIRE(lines.size() == 2);
    CHECK_THAT(lines[0], Catch::StartsWith("::notice title=impact%3A full suite::full suite: config_changed "
                                           "(setup.cfg changed) in 7 ms"));
    CHECK(lines[1] == "::notice file=setup.cfg,title=impact%3A full suite::run_all: config_changed");
  }
  SECTION("uncertainties on their line, warnings on their own") {
    d.outcome = Outcome::selected;
    d.uncertainties = {{"src/p.py", 12, "import_module() with a computed name may load any module"}};
    d.warnings = {"the cache was corrupt\nand was rebuilt"};
    auto lines = lines_of(render_github(report));
    REQUIRE(lines.size() == 3);
    CHECK_THAT(lines[0], Catch::Contains("; 1 uncertainty(ies)"));
    CHECK(lines[1] == "::warning file=src/p.py,line=12,title=impact%3A uncertain::import_module() with a computed name "
                      "may load any module");
    CHECK(lines[2] == "::warning title=impact%3A warning::the cache was corrupt%0Aand was rebuilt");
  }
  SECTION("a command that cannot be started is an error") {
    d.outcome = Outcome::run_all;
    d.reason = Reason::no_ci_base;
    report.plan.problem = "pytest not found: activate the virtualenv";
    auto lines = lines_of(render_github(report));
    REQUIRE(lines.size() == 2);
    CHECK(lines[1] == "::error title=impact%3A cannot run::pytest not found: activate the virtualenv");
  }
  SECTION("the fallback is named") {
    d.outcome = Outcome::run_all;
    d.reason = Reason::no_ci_base;
    report.plan.fallback = true;
    report.plan.argv = {"/repo/ci.sh", "--all"};
    report.plan.command = Command{report.plan.argv, "fallback-command in pyproject.toml"};
    CHECK_THAT(lines_of(render_github(report)).at(0),
               Catch::EndsWith("; delegating to the fallback /repo/ci.sh --all (from fallback-command in pyproject.toml)"));
  }
}

TEST_CASE("render_github escapes messages and properties as GitHub requires", "[github]") {
  Decision d;
  d.outcome = Outcome::run_all;
  d.reason = Reason::non_python_changed;
  d.detail = "100%,a:b\r\n";
  FileVerdict v;
  v.path = RepoPath{"a:b,100%.txt"};
  v.effect = "run_all: non_python_changed";
  d.files = {v};
  Report report;
  report.decision = &d;
  auto lines = lines_of(render_github(report));
  REQUIRE(lines.size() == 2);
  // In a message only %, CR and LF are special; a property also escapes ':' and ','. The summary line
  // shows a detail's control characters escaped, as every text rendering does (util/quote.hpp).
  CHECK_THAT(lines[0], Catch::Contains("(100%25,a:b\\r\\n)"));
  CHECK(lines[1] == "::notice file=a%3Ab%2C100%25.txt,title=impact%3A full suite::run_all: non_python_changed");
}
