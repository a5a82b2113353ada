#include "app/audit.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using namespace impact::app;

namespace {

SuiteRun suite(std::vector<TestOutcome> tests) {
  SuiteRun run;
  run.tests = std::move(tests);
  return run;
}

Decision selecting(std::vector<std::string> ids) {
  Decision d;
  d.outcome = Outcome::selected;
  for (auto& id : ids) d.selected.push_back(SelectedTest{std::move(id), {}, ""});
  return d;
}

std::vector<std::string> missed(const AuditResult& r) {
  std::vector<std::string> out;
  for (const auto& m : r.misses) out.push_back(m.test.node_id);
  return out;
}

} // namespace

TEST_CASE("a selected node id covers what pytest collects below it", "[audit]") {
  CHECK(covers("tests/t.py", "tests/t.py"));
  CHECK(covers("tests/t.py", "tests/t.py::TestA::test_b[1]"));
  CHECK(covers("tests/t.py::TestA", "tests/t.py::TestA::test_b"));
  CHECK(covers("tests/t.py::test_b", "tests/t.py::test_b[x-1]"));
  CHECK(covers("tests", "tests/t.py::test_b"));
  SECTION("and nothing that merely starts with the same letters") {
    CHECK_FALSE(covers("tests/t.py::test_b", "tests/t.py::test_bc"));
    CHECK_FALSE(covers("tests/t.py", "tests/t.pyc"));
    CHECK_FALSE(covers("tests/t", "tests/t.py"));
    CHECK_FALSE(covers("tests/t.py::test_b", "tests/t.py::test_b/x"));
    CHECK_FALSE(covers("", "tests/t.py"));
  }
}

TEST_CASE("a failing test the selection skips is a miss; a failing selected test is not", "[audit]") {
  std::vector<TestOutcome> tests = {{"tests/a.py::test_1", "failed", false},
                                    {"tests/a.py::test_2", "passed", false},
                                    {"tests/b.py::test_3[x]", "error", false},
                                    {"tests/c.py::test_4", "skipped", false}};
  Decision d = selecting({"tests/a.py::test_1", "tests/gone.py::test_9"});
  AuditResult r = audit_selection(d, &d, "", suite(tests));
  CHECK(missed(r) == std::vector<std::string>{"tests/b.py::test_3[x]"});
  CHECK(r.selected == 1);
  CHECK(r.selected_failed == 1);
  CHECK(r.skipped == 3);
  CHECK(r.skipped_failed == 1);
  CHECK(r.unmatched == std::vector<std::string>{"tests/gone.py::test_9"});
  CHECK(r.misses[0].evidence.kind == "no_changes"); // the decision has no changed files

  SECTION("run_all runs everything: nothing can be missed") {
    Decision all;
    all.outcome = Outcome::run_all;
    AuditResult everything = audit_selection(all, &all, "", suite(tests));
    CHECK(everything.misses.empty());
    CHECK(everything.skipped == 0);
  }
  SECTION("nothing runs nothing: every failure is a miss") {
    Decision none;
    AuditResult all_missed = audit_selection(none, &none, "", suite(tests));
    CHECK(missed(all_missed) == std::vector<std::string>{"tests/a.py::test_1", "tests/b.py::test_3[x]"});
  }
  SECTION("without the analysis a miss says why it has no evidence") {
    AuditResult blind = audit_selection(d, nullptr, "unknown revision", suite(tests));
    REQUIRE(blind.misses.size() == 1);
    CHECK(blind.misses[0].evidence.kind == "unavailable");
    CHECK(blind.misses[0].evidence.lines[0] == "the analysis of the change failed: unknown revision");
  }
}

TEST_CASE("a file that could not be collected is run when anything in it is selected", "[audit]") {
  std::vector<TestOutcome> tests = {{"tests/a.py", "error", true}, {"tests/b.py", "error", true}};
  Decision d = selecting({"tests/a.py::test_1"});
  AuditResult r = audit_selection(d, &d, "", suite(tests));
  CHECK(missed(r) == std::vector<std::string>{"tests/b.py"});
  CHECK(r.unmatched.empty());
}

TEST_CASE("a miss carries what the analysis of the change knows about it", "[audit]") {
  Decision analysis = selecting({"tests/a.py::test_1"});
  analysis.selected[0].chain = {testing::hop("tests/a.py", "references", 3), testing::hop("src/m.py", "implementation")};
  analysis.file_level = {SelectedTest{"tests/b.py", {testing::hop("tests/b.py", "import", 1)}, ""}};
  FileVerdict changed;
  changed.path = RepoPath("src/m.py");
  analysis.files = {changed};
  Decision audited = selecting({"tests/z.py"});
  std::vector<TestOutcome> tests = {{"tests/a.py::test_1", "failed", false},
                                    {"tests/b.py::test_2", "failed", false},
                                    {"tests/c.py::test_3", "failed", false},
                                    {"tests/z.py", "passed", false}};
  AuditResult r = audit_selection(audited, &analysis, "", suite(tests));
  REQUIRE(r.misses.size() == 3);
  CHECK(r.misses[0].evidence.kind == "selected_by_analysis");
  CHECK(r.misses[0].evidence.chain == analysis.selected[0].chain);
  CHECK(r.misses[1].evidence.kind == "file_level");
  CHECK(r.misses[1].evidence.chain == analysis.file_level[0].chain);
  CHECK(r.misses[2].evidence.kind == "no_static_path");
  CHECK(r.misses[2].evidence.lines[0].ends_with("src/m.py (modified)"));
}

TEST_CASE("a miss whose test has passed on rerun before is marked a known flake", "[audit]") {
  std::vector<TestOutcome> tests = {{"tests/a.py::test_1", "failed", false}, {"tests/b.py::test_2", "failed", false}};
  Decision d = selecting({});
  AuditResult r = audit_selection(d, &d, "", suite(tests));
  mark_known_flakes(r, {{"tests/b.py::test_2", {3, "2026-01-02T00:00:00.000000Z"}}, {"tests/c.py::t", {1, "x"}}});
  REQUIRE(r.misses.size() == 2);
  CHECK(!r.misses[0].flake);
  REQUIRE(r.misses[1].flake);
  CHECK(r.misses[1].flake->passes == 3);
  AuditedSelection selection{"", std::nullopt, &d};
  CHECK_THAT(render_audit_text(selection, r),
             Catch::Contains("MISS tests/b.py::test_2 (failed, known flake: passed on rerun 3 times, last "
                             "2026-01-02T00:00:00.000000Z)"));
  CHECK_THAT(render_audit_json(selection, r, {}), Catch::Contains(R"("known_flake": {)"));
}
