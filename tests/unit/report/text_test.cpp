#include "impact/report.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace impact;

TEST_CASE("render_chain writes hops with their relation and line, and the change's status last", "[text]") {
  SECTION("several hops") {
    std::vector<Hop> chain{testing::hop("tests/t.py", "import", 3), testing::hop("src/b.py", "from_import", 1),
                           testing::hop("src/a.py", "modified", 0)};
    CHECK(render_chain(chain) == "tests/t.py:3 (import) → src/b.py:1 (from_import) → src/a.py [modified]");
  }
  SECTION("a hop without a line has no ':0'") {
    std::vector<Hop> chain{testing::hop("tests/unit/test_a.py", "conftest", 0),
                           testing::hop("tests/conftest.py", "modified", 0)};
    CHECK(render_chain(chain) == "tests/unit/test_a.py (conftest) → tests/conftest.py [modified]");
  }
  SECTION("a changed test file on its own") {
    CHECK(render_chain({testing::hop("tests/test_a.py", "added", 0)}) == "tests/test_a.py [added]");
  }
  SECTION("an empty chain") { CHECK(render_chain({}).empty()); }
}

TEST_CASE("summary_line says what the decision does in one line", "[text]") {
  ChangeSet changes = testing::change_set({testing::modified("src/a.py"), testing::modified("src/b.py")});
  Decision d;
  Report report;
  report.changes = &changes;
  report.decision = &d;
  report.total_ms = 42;
  SECTION("selected test files") {
    d.outcome = Outcome::selected;
    SelectedTest t;
    t.node_id = "tests/test_a.py";
    d.selected = {t};
    t.node_id = "tests/test_b.py";
    d.selected.push_back(t);
    CHECK(summary_line(report) == "selected 2 test file(s) from 2 changed file(s) in 42 ms");
  }
  SECTION("selected tests within files") {
    d.outcome = Outcome::selected;
    SelectedTest t;
    t.node_id = "tests/test_a.py::test_one";
    d.selected = {t};
    t.node_id = "tests/test_a.py::test_two";
    d.selected.push_back(t);
    CHECK(summary_line(report) == "selected 2 node id(s) in 1 file(s) from 2 changed file(s) in 42 ms");
  }
  SECTION("the full suite") {
    d.outcome = Outcome::run_all;
    d.reason = Reason::config_changed;
    d.detail = "pyproject.toml changed";
    CHECK(summary_line(report) == "full suite: config_changed (pyproject.toml changed) in 42 ms");
  }
  SECTION("nothing") {
    d.outcome = Outcome::nothing;
    d.reason = Reason::no_tests_reached;
    d.detail = "no test loads the changed files";
    CHECK(summary_line(report) ==
          "no tests impacted, nothing to run: no_tests_reached (no test loads the changed files) in 42 ms");
  }
}

TEST_CASE("describe_base names what was compared", "[text]") {
  DiffBase base;
  base.commit = "0123456789abcdef0123456789abcdef01234567";
  base.rev = "HEAD";
  SECTION("the working tree against HEAD") {
    CHECK(describe_base(base) == "the working tree against HEAD (0123456789ab)");
  }
  SECTION("the index") {
    base.mode = DiffMode::staged;
    CHECK(describe_base(base) == "the index against HEAD (0123456789ab)");
  }
  SECTION("a merge-base") {
    base.rev = "origin/main";
    base.merge_base = true;
    base.source = "GITHUB_BASE_REF";
    CHECK(describe_base(base) ==
          "the working tree against the merge-base of origin/main and HEAD (0123456789ab, from GITHUB_BASE_REF)");
  }
}

TEST_CASE("render_dry_run lists the changed files, the selection with chains, and the argv", "[text]") {
  ChangeSet changes = testing::change_set({testing::modified("src/a.py")});
  Decision d;
  d.outcome = Outcome::selected;
  FileVerdict v;
  v.path = RepoPath("src/a.py");
  v.effect = "reaches 1 test file(s)";
  d.files = {v};
  SelectedTest t;
  t.node_id = "tests/test_a.py";
  t.chain = {testing::hop("tests/test_a.py", "import", 1), testing::hop("src/a.py", "modified", 0)};
  t.note = "a note";
  d.selected = {t};
  Report report;
  report.changes = &changes;
  report.decision = &d;
  report.plan.command = Command{{"pytest"}, "pytest on PATH"};
  report.plan.argv = {"pytest", "tests/test_a.py"};
  std::string text = render_dry_run(report, false);
  CHECK_THAT(text, Catch::StartsWith("decision: selected\n"));
  CHECK_THAT(text, Catch::Contains("tests/test_a.py:1 (import) → src/a.py [modified]"));
  CHECK_THAT(text, Catch::Contains("note: a note"));
  CHECK_THAT(text, Catch::Contains("reaches 1 test file(s)"));
  CHECK_THAT(text, Catch::Contains("pytest: from pytest on PATH"));
  CHECK(text.find('\033') == std::string::npos);
  SECTION("colour only when asked") { CHECK(render_dry_run(report, true).find('\033') != std::string::npos); }
  SECTION("nothing to run") {
    d.outcome = Outcome::nothing;
    d.selected.clear();
    CHECK_THAT(render_dry_run(report, false), Catch::Contains("nothing would run (exit code 0)"));
  }
}

TEST_CASE("every text rendering quotes a name with a control character as git does (issue 11)", "[text]") {
  // A name with a line break would start a line of its own: in GitHub Actions, a workflow command.
  std::string evil = "tests/test_a\n::error::pwned.py";
  std::string quoted = "\"tests/test_a\\n::error::pwned.py\"";
  ChangeSet changes = testing::change_set({testing::modified(evil)});
  Decision d;
  d.outcome = Outcome::selected;
  FileVerdict v;
  v.path = RepoPath(evil);
  v.old_path = RepoPath("old\tname.py");
  v.effect = evil + ": a test file";
  d.files = {v};
  d.selected = {SelectedTest{evil, {testing::hop(evil, "added", 0)}, "note\nnote"}};
  d.uncertainties = {Uncertainty{evil, 3, "importlib.import_module(name)"}};
  d.warnings = {evil + ": skipped"};
  Report report;
  report.changes = &changes;
  report.decision = &d;
  report.plan.command = Command{{"pytest"}, "pytest on PATH"};
  report.plan.argv = {"pytest", evil};
  std::string text = render_dry_run(report, false);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) CHECK(!line.starts_with("::"));
  CHECK_THAT(text, Catch::Contains("\"old\\tname.py\" → " + quoted));
  CHECK_THAT(text, Catch::Contains("\n  " + quoted + "\n"));             // the selection and the argv
  CHECK_THAT(text, Catch::Contains(quoted + " [added]"));                // the chain
  CHECK_THAT(text, Catch::Contains(quoted + ":3: importlib"));           // the uncertainty
  CHECK_THAT(text, Catch::Contains("warning: tests/test_a\\n::error::pwned.py: skipped"));
  CHECK_THAT(text, Catch::Contains("note: note\\nnote"));
  d.outcome = Outcome::run_all;
  d.reason = Reason::non_python_changed;
  d.detail = evil;
  CHECK(summary_line(report).find('\n') == std::string::npos);
}
