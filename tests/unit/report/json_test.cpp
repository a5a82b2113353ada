#include "impact/report.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace impact;
using nlohmann::json;

namespace {

// A selected decision of one changed file with one test, and the plan to run it.
struct Fixture {
  ChangeSet changes;
  Decision decision;
  Report report;

  Fixture() {
    ChangedFile file = testing::modified("src/app/db.py");
    file.hunks = {Hunk{8, 1, 8, 2}, Hunk{20, 0, 21, 3}};
    changes = testing::change_set({file});
    changes.base.rev = "origin/main";
    changes.base.merge_base = true;
    changes.base.source = "GITHUB_BASE_REF";

    decision.outcome = Outcome::selected;
    decision.reason = Reason::config_changed; // ignored for selected
    FileVerdict verdict;
    verdict.path = RepoPath("src/app/db.py");
    verdict.kind = FileKind::python;
    verdict.effect = "reaches 1 test file(s)";
    verdict.tests = 1;
    decision.files = {verdict};
    SelectedTest test;
    test.node_id = "tests/test_db.py";
    test.chain = {testing::hop("tests/test_db.py", "from_import", 3), testing::hop("src/app/db.py", "modified", 0)};
    decision.selected = {test};

    report.changes = &changes;
    report.decision = &decision;
    report.plan.command = Command{{"/usr/bin/pytest"}, "pytest on PATH"};
    report.plan.argv = {"/usr/bin/pytest", "tests/test_db.py"};
    report.project.rootdir = "";
    report.project.inifile = "pyproject.toml";
    report.project.python_files = 12;
    report.project.test_files = 4;
    report.project.parsed = 2;
    report.project.linked = 3;
    report.timings = {StageTiming{"changes", 1.5}, StageTiming{"graph", 0.25}};
    report.total_ms = 3.0;
  }

  json render() const {
    std::string text = render_json(report);
    REQUIRE(text.ends_with("\n"));
    return json::parse(text);
  }
};

// Checks that `actual` has every field of `expected` with the same value. Objects are compared field by
// field and arrays element by element, so that fields added later (the schema allows it) do not matter.
void check_fields(const json& actual, const json& expected, const std::string& where = "$") {
  INFO(where << ": " << actual.dump());
  if (expected.is_object()) {
    REQUIRE(actual.is_object());
    for (const auto& [key, value] : expected.items()) {
      REQUIRE(actual.contains(key));
      check_fields(actual[key], value, where + "." + key);
    }
  } else if (expected.is_array() && !expected.empty() && expected.front().is_object()) {
    REQUIRE(actual.is_array());
    REQUIRE(actual.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
      check_fields(actual[i], expected[i], where + "[" + std::to_string(i) + "]");
  } else {
    CHECK(actual == expected);
  }
}

} // namespace

TEST_CASE("render_json writes the versioned schema header", "[json]") {
  Fixture f;
  json doc = f.render();
  CHECK(doc["schema"] == "impact.decision");
  CHECK(doc["version"] == 1);
  CHECK(doc["impact_version"] == IMPACT_VERSION);
  for (const char* key :
       {"schema", "version", "impact_version", "decision", "reason", "detail", "mode", "base", "changed_files",
        "selected", "uncertainties", "warnings", "command", "argv", "problem", "project", "timings_ms"}) {
    INFO(key);
    CHECK(doc.contains(key));
  }
}

TEST_CASE("render_json describes a selection", "[json]") {
  Fixture f;
  json doc = f.render();
  CHECK(doc["decision"] == "selected");
  CHECK(doc["reason"].is_null()); // null for selected, whatever the decision holds
  CHECK(doc["detail"].is_null());
  check_fields(doc["mode"], json{{"requested", "balanced"}, {"effective", "balanced"}, {"strict", false}});
  check_fields(doc["base"], json{{"mode", "working_tree"},
                                 {"rev", "origin/main"},
                                 {"commit", std::string(40, 'a')},
                                 {"merge_base", true},
                                 {"source", "GITHUB_BASE_REF"}});
  SECTION("changed files with their hunks") {
    REQUIRE(doc["changed_files"].size() == 1);
    const json& file = doc["changed_files"][0];
    CHECK(file["path"] == "src/app/db.py");
    CHECK(file["old_path"].is_null());
    CHECK(file["status"] == "modified");
    CHECK(file["kind"] == "python");
    CHECK(file["effect"] == "reaches 1 test file(s)"); // as given: the document does not reword it
    CHECK(file["tests"] == 1);
    CHECK(file["hunks"] == json::parse("[[8, 1, 8, 2], [20, 0, 21, 3]]"));
    CHECK(file["binary"] == false);
    CHECK(file["untracked"] == false);
  }
  SECTION("selected tests with their chains") {
    REQUIRE(doc["selected"].size() == 1);
    const json& test = doc["selected"][0];
    CHECK(test["node_id"] == "tests/test_db.py");
    CHECK(test["note"].is_null());
    check_fields(test["chain"], json::parse(R"([{"path": "tests/test_db.py", "relation": "from_import", "line": 3},
                                           {"path": "src/app/db.py", "relation": "modified", "line": null}])"));
  }
  SECTION("the command and the project") {
    check_fields(doc["command"],
                 json{{"argv", {"/usr/bin/pytest"}}, {"source", "pytest on PATH"}, {"fallback", false}});
    CHECK(doc["argv"] == json{"/usr/bin/pytest", "tests/test_db.py"});
    CHECK(doc["problem"].is_null());
    check_fields(
        doc["project"],
        json{{"rootdir", ""}, {"inifile", "pyproject.toml"}, {"python_files", 12}, {"test_files", 4}, {"parsed", 2}, {"linked", 3}});
    CHECK(doc["timings_ms"] == json{{"changes", 1.5}, {"graph", 0.25}, {"total", 3.0}});
    CHECK(doc["uncertainties"] == json::array());
    CHECK(doc["warnings"] == json::array());
  }
}

TEST_CASE("render_json writes nulls where the document says so", "[json]") {
  Fixture f;
  SECTION("a run_all keeps its reason and detail") {
    f.decision.outcome = Outcome::run_all;
    f.decision.reason = Reason::config_changed;
    f.decision.detail = "pyproject.toml changed";
    f.decision.selected.clear();
    json doc = f.render();
    CHECK(doc["decision"] == "run_all");
    CHECK(doc["reason"] == "config_changed");
    CHECK(doc["detail"] == "pyproject.toml changed");
  }
  SECTION("nothing to run: no command, an empty argv") {
    f.decision.outcome = Outcome::nothing;
    f.decision.reason = Reason::no_tests_reached;
    f.decision.selected.clear();
    f.report.plan = RunPlan{};
    json doc = f.render();
    CHECK(doc["decision"] == "nothing");
    CHECK(doc["command"].is_null());
    CHECK(doc["argv"] == json::array());
    CHECK(doc["problem"].is_null());
  }
  SECTION("pytest not found: a problem") {
    f.report.plan = RunPlan{};
    f.report.plan.problem = "pytest was not found";
    json doc = f.render();
    CHECK(doc["command"].is_null());
    CHECK(doc["problem"] == "pytest was not found");
  }
  SECTION("a replayed decision has no base and no hunks") {
    f.report.changes = nullptr;
    json doc = f.render();
    CHECK(doc["base"].is_null());
    CHECK_FALSE(doc["changed_files"][0].contains("hunks"));
  }
  SECTION("uncounted tests, renames, notes, uncertainties and a missing inifile") {
    f.decision.files[0].tests = -1;
    f.decision.files[0].status = FileStatus::renamed;
    f.decision.files[0].old_path = RepoPath("src/app/old_db.py");
    f.decision.selected[0].note = "cannot be ruled out";
    f.decision.uncertainties = {Uncertainty{"src/app/loader.py", 4, "import_module() with a computed name"}};
    f.decision.warnings = {"a warning"};
    f.report.project.inifile.clear();
    f.report.strict = true;
    json doc = f.render();
    CHECK(doc["changed_files"][0]["tests"].is_null());
    CHECK(doc["changed_files"][0]["status"] == "renamed");
    CHECK(doc["changed_files"][0]["old_path"] == "src/app/old_db.py");
    CHECK(doc["selected"][0]["note"] == "cannot be ruled out");
    check_fields(
        doc["uncertainties"],
        json::parse(R"([{"path": "src/app/loader.py", "line": 4, "what": "import_module() with a computed name"}])"));
    CHECK(doc["warnings"] == json{"a warning"});
    CHECK(doc["project"]["inifile"].is_null());
    CHECK(doc["mode"]["strict"] == true);
  }
  SECTION("a staged diff") {
    f.changes.base.mode = DiffMode::staged;
    CHECK(f.render()["base"]["mode"] == "staged");
  }
}

TEST_CASE("render_json survives paths that are not UTF-8", "[json]") {
  Fixture f;
  f.decision.selected[0].node_id = "tests/test_\xff.py";
  std::string text;
  REQUIRE_NOTHROW(text = render_json(f.report));
  json doc = json::parse(text);
  CHECK(doc["selected"][0]["node_id"] == "tests/test_\xef\xbf\xbd.py");
}
