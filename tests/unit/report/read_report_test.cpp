#include "impact/error.hpp"
#include "impact/report.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>

using namespace impact;
using nlohmann::json;

namespace {

// A selected decision with a changed symbol, two tests (one with a chain through a symbol) and an
// uncertainty: every kind of field the document has.
struct Saved {
  ChangeSet changes;
  Decision decision;
  Report report;

  Saved() {
    ChangedFile file = testing::modified("src/app/db.py");
    file.hunks = {Hunk{8, 1, 8, 2}};
    changes = testing::change_set({file});
    decision.outcome = Outcome::selected;
    decision.mode_requested = Mode::safe;
    decision.mode_effective = Mode::balanced;
    FileVerdict verdict;
    verdict.path = RepoPath("src/app/db.py");
    verdict.kind = FileKind::python;
    verdict.effect = "reaches 2 test file(s)";
    verdict.tests = 2;
    verdict.change = "implementation";
    verdict.source = TestSource::static_;
    verdict.symbols = {SymbolChange{"Db.connect", SymbolKind::method, ChangeKind::signature, {3, 9}, {3, 10}, false, false}};
    decision.files = {verdict};
    Hop through_symbol = testing::hop("tests/test_db.py", "references", 12);
    through_symbol.symbol = "test_connect";
    decision.selected = {SelectedTest{"tests/test_db.py::test_connect", {through_symbol, testing::hop("src/app/db.py", "signature")}, ""},
                         SelectedTest{"tests/test_io.py", {}, "may load it through a dynamic import"}};
    decision.file_level = {SelectedTest{"tests/test_db.py", {}, ""}, SelectedTest{"tests/test_io.py", {}, ""}};
    decision.uncertainties = {Uncertainty{"src/app/plugins.py", 4, "importlib.import_module(name)"}};
    decision.warnings = {"a warning"};
    report.changes = &changes;
    report.decision = &decision;
    report.strict = true;
    report.plan.command = Command{{"/usr/bin/pytest"}, "pytest on PATH"};
    report.plan.argv = {"/usr/bin/pytest", "tests/test_db.py::test_connect", "tests/test_io.py"};
    report.timings = {StageTiming{"changes", 1.5}};
  }

  json document() const { return json::parse(render_json(report)); }
};

// The message parse_report throws for `doc`, or "" when it parses.
std::string error_for(const std::string& text) {
  try {
    parse_report(text, "impact.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string error_for(const json& doc) { return error_for(doc.dump(2)); }

} // namespace

TEST_CASE("a saved decision reads back as the decision that was rendered", "[read_report]") {
  Saved s;
  SavedReport back = parse_report(render_json(s.report), "impact.json");
  const Decision& d = back.decision;
  CHECK(d.outcome == Outcome::selected);
  CHECK(d.mode_requested == Mode::safe);
  CHECK(d.mode_effective == Mode::balanced);
  CHECK(back.strict);
  REQUIRE(back.base);
  CHECK(back.base->commit == s.changes.base.commit);
  REQUIRE(d.selected.size() == 2);
  CHECK(d.selected[0].node_id == "tests/test_db.py::test_connect");
  CHECK(d.selected[0].chain == s.decision.selected[0].chain);
  CHECK(d.selected[1].note == "may load it through a dynamic import");
  REQUIRE(d.files.size() == 1);
  CHECK(d.files[0].symbols.size() == 1);
  CHECK(d.files[0].symbols[0].change == ChangeKind::signature);
  CHECK(d.files[0].symbols[0].new_lines.last == 10);
  CHECK(d.file_level.size() == 2);
  CHECK(d.uncertainties.size() == 1);
  CHECK(d.warnings == std::vector<std::string>{"a warning"});

  SECTION("and a replayed decision, rendered again without a diff, reads back too") {
    Report again = s.report;
    again.changes = nullptr;
    again.decision = &back.decision;
    SavedReport twice = parse_report(render_json(again), "impact.json");
    CHECK(!twice.base);
    CHECK(twice.decision.selected.size() == 2);
    SECTION("keeping the base it was made against, when the replay names it") {
      again.replayed_base = &*back.base;
      SavedReport kept = parse_report(render_json(again), "impact.json");
      REQUIRE(kept.base);
      CHECK(kept.base->commit == s.changes.base.commit);
    }
  }
}

TEST_CASE("every kind of invalid saved decision is named by file, JSON path and fix", "[read_report]") {
  Saved s;
  json doc = s.document();
  std::string fix = "regenerate it with impact select --format json";

  SECTION("a missing field") {
    doc["selected"][1].erase("note");
    CHECK(error_for(doc) == "impact.json: $.selected[1].note: required field is missing; " + fix);
  }
  SECTION("a wrong type") {
    doc["selected"][0]["node_id"] = 7;
    CHECK(error_for(doc) == "impact.json: $.selected[0].node_id: expected a string, found a number 7; " + fix);
  }
  SECTION("an unknown key, at any level") {
    doc["changed_files"][0]["symbols"][0]["extra"] = true;
    CHECK(error_for(doc) == "impact.json: $.changed_files[0].symbols[0].extra: unknown key; " + fix);
    doc = s.document();
    doc["selceted"] = json::array();
    CHECK(error_for(doc).starts_with("impact.json: $.selceted: unknown key (did you mean 'selected'?)"));
  }
  SECTION("a newer version") {
    doc["version"] = 2;
    CHECK(error_for(doc) == "impact.json: $.version: version 2 is newer than this impact reads (1); upgrade impact, "
                            "or regenerate the file with this one (impact select --format json)");
  }
  SECTION("another document") {
    doc["schema"] = "impact.changes";
    CHECK(error_for(doc).starts_with("impact.json: $.schema: \"impact.changes\" is not a decision document"));
  }
  SECTION("not JSON, truncated, empty") {
    CHECK(error_for(std::string("{\"schema\": nope}")) ==
          "impact.json: not JSON: syntax error at line 1, column 13; " + fix);
    std::string text = doc.dump(2);
    CHECK(error_for(text.substr(0, text.size() / 2)).starts_with("impact.json: truncated: the JSON ends at line "));
    CHECK(error_for(std::string(" \n")) == "impact.json: the file is empty; " + fix);
  }
  SECTION("a repeated key") {
    std::string text = doc.dump();
    text.insert(1, "\"warnings\": [],");
    CHECK(error_for(text) == "impact.json: $.warnings: this key appears more than once in its object; " + fix);
  }
  SECTION("a decision that disagrees with itself") {
    doc["selected"] = json::array();
    CHECK(error_for(doc).starts_with("impact.json: $.selected: empty, but $.decision is \"selected\""));
    doc = s.document();
    doc["decision"] = "nothing";
    doc["reason"] = "no_tests_reached";
    CHECK(error_for(doc).starts_with("impact.json: $.selected: 2 node id(s), but $.decision is \"nothing\""));
  }
  SECTION("a node id that would be an option") {
    doc["selected"][0]["node_id"] = "--collect-only";
    CHECK(error_for(doc).starts_with("impact.json: $.selected[0].node_id: node id '--collect-only' would be read by "
                                     "pytest as an option"));
  }
  SECTION("a node id whose file lies outside the repository (issue 11)") {
    doc["selected"][0]["node_id"] = "../outside/test_evil.py";
    CHECK(error_for(doc) == "impact.json: $.selected[0].node_id: node id '../outside/test_evil.py' leaves the "
                            "repository (a '..' in its path); " + fix);
    doc["selected"][0]["node_id"] = "tests/../../x.py::test_a";
    CHECK_THAT(error_for(doc), Catch::Contains("leaves the repository"));
    doc["selected"][0]["node_id"] = "tests/..";
    CHECK_THAT(error_for(doc), Catch::Contains("leaves the repository"));
    doc["selected"][0]["node_id"] = "/etc/test_x.py::test_a";
    CHECK_THAT(error_for(doc), Catch::Contains("node id '/etc/test_x.py::test_a' names an absolute path"));
    doc["file_level"][0] = "../x.py";
    doc["selected"][0]["node_id"] = "tests/test_db.py::test_connect";
    CHECK_THAT(error_for(doc), Catch::Contains("$.file_level[0]: node id '../x.py' leaves the repository"));
  }
  SECTION("parameter ids after '::' may hold anything, '..' included") {
    for (const char* id : {"tests/test_db.py::test_connect[a/../b]", "tests/test_db.py::test_connect[../../x]",
                           "tests/..a/test_b.py", "tests/a../test_b.py"}) {
      doc["selected"][0]["node_id"] = id;
      CHECK(error_for(doc) == "");
    }
  }
  SECTION("a number too large for a double is named, not an internal error") {
    std::string text = doc.dump();
    text.replace(text.find("\"version\":1"), 11, "\"version\":1e999");
    CHECK(error_for(text).starts_with("impact.json: a number too large to read (such as 1e999) at line 1"));
  }
  SECTION("an unknown enumeration value") {
    doc["decision"] = "selcted";
    CHECK(error_for(doc).starts_with("impact.json: $.decision: \"selcted\" is not one of selected, run_all, nothing"));
  }
  SECTION("an unknown relation, file kind, source, fallback or reason (each a checked word)") {
    doc["selected"][0]["chain"][0]["relation"] = "refrences";
    CHECK_THAT(error_for(doc), Catch::StartsWith("impact.json: $.selected[0].chain[0].relation: \"refrences\" is not "
                                                 "one of import, from_import") &&
                                   Catch::Contains("(did you mean 'references'?)"));
    doc = s.document();
    doc["changed_files"][0]["kind"] = "pyhton";
    CHECK_THAT(error_for(doc), Catch::StartsWith("impact.json: $.changed_files[0].kind: \"pyhton\" is not one of"));
    doc = s.document();
    doc["changed_files"][0]["source"] = "statc";
    CHECK_THAT(error_for(doc), Catch::StartsWith("impact.json: $.changed_files[0].source: \"statc\" is not one of "
                                                 "coverage, static"));
    doc = s.document();
    doc["changed_files"][0]["fallback"] = "drfit";
    CHECK_THAT(error_for(doc), Catch::Contains("$.changed_files[0].fallback: \"drfit\" is not one of untracked"));
    doc = s.document();
    doc["selected"] = json::array();
    doc["decision"] = "nothing";
    doc["reason"] = "no_test_reached";
    CHECK_THAT(error_for(doc), Catch::StartsWith("impact.json: $.reason: \"no_test_reached\" is not one of "
                                                 "config_changed"));
  }
  SECTION("every message is one line") {
    doc["selected"][0]["node_id"] = "a\nb";
    doc["selected"][0]["extra\nkey"] = 1;
    std::string message = error_for(doc);
    CHECK(!message.empty());
    CHECK(message.find('\n') == std::string::npos);
  }
}

namespace {

// The CPU time parse_report takes on a saved decision that selects `n` node ids.
double seconds_to_read(size_t n) {
  Saved s;
  json doc = s.document();
  json selected = json::array();
  for (size_t i = 0; i < n; ++i) {
    selected.push_back({{"node_id", "tests/test_db.py::test_connect[" + std::to_string(i) + "]"},
                        {"chain", json::array()},
                        {"note", nullptr}});
  }
  doc["selected"] = std::move(selected);
  std::string text = doc.dump();
  std::clock_t start = std::clock();
  SavedReport back = parse_report(text, "impact.json");
  double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  REQUIRE(back.decision.selected.size() == n);
  return seconds;
}

} // namespace

TEST_CASE("reading a saved decision takes time linear in its node ids (issue 11: 500,000 took 80 s)", "[read_report]") {
  // nlohmann's callback parser scanned the enclosing array after every object: 10 times the node ids
  // took 100 times as long. CPU time, not wall time, and a bound far from either answer (linear: ~10,
  // quadratic: ~100), so that a loaded machine does not make this flaky.
  double small = seconds_to_read(5'000);
  double large = seconds_to_read(50'000);
  INFO("5,000 node ids: " << small << " s; 50,000: " << large << " s");
  CHECK(large < 35 * std::max(small, 0.01));
}

TEST_CASE("the durations a decision was weighed with read back as they were written", "[read_report][shards]") {
  Saved saved;
  ShardPlan plan;
  plan.suite = "selection";
  plan.units = {ShardUnit{"tests/test_db.py::test_connect", 1.5, false}, ShardUnit{"tests/test_io.py", 0.25, true}};
  plan.median = 0.25;
  plan.fingerprint = plan_fingerprint(plan.units);
  plan.choice = ShardChoice{2, 2, "--shard 2/2"};
  plan.shards = split_shards(plan.units, 2);
  saved.report.shards = plan;
  SavedReport back = parse_report(render_json(saved.report), "plan.json");
  REQUIRE(back.shards);
  CHECK(back.shards->units == plan.units);
  CHECK(back.shards->suite == "selection");
  CHECK(back.shards->median == 0.25);
  CHECK(back.shards->fingerprint == plan.fingerprint);
  CHECK_FALSE(back.shards->choice); // the replay splits again for its own --shard

  json doc = saved.document();
  SECTION("an edited unit no longer matches the fingerprint") {
    doc["durations"]["units"][0]["seconds"] = 9.0;
    CHECK_THAT(error_for(doc.dump()), Catch::Contains("$.durations.fingerprint"));
  }
  SECTION("an unknown key is refused") {
    doc["durations"]["extra"] = 1;
    CHECK_THAT(error_for(doc.dump()), Catch::Contains("$.durations.extra"));
  }
  SECTION("a unit outside the repository is refused") {
    doc["durations"]["units"][0]["id"] = "../x.py";
    CHECK_THAT(error_for(doc.dump()), Catch::Contains("$.durations.units[0].id"));
  }
  SECTION("a run_all suite on a selection is refused") {
    doc["durations"]["suite"] = "static";
    CHECK_THAT(error_for(doc.dump()), Catch::Contains("$.durations.suite"));
  }
  SECTION("a document without durations still reads") {
    doc.erase("durations");
    CHECK(error_for(doc.dump()).empty());
    CHECK_FALSE(parse_report(doc.dump(), "plan.json").shards);
  }
}
