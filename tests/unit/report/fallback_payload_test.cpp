#include "impact/report.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace impact;

TEST_CASE("fallback_payload carries the reason and the change report", "[fallback]") {
  ChangedFile cfg_change = testing::modified("setup.cfg");
  cfg_change.hunks = {Hunk{3, 1, 3, 2}};
  ChangeSet changes = testing::change_set({testing::renamed("a.txt", "b.txt"), cfg_change});
  Decision d;
  d.outcome = Outcome::run_all;
  d.reason = Reason::config_changed;
  d.detail = "setup.cfg changed";
  d.mode_requested = d.mode_effective = Mode::safe;
  FileVerdict v;
  v.path = RepoPath{"setup.cfg"};
  v.kind = FileKind::config;
  v.effect = "run_all: config_changed";
  d.files = {v};
  d.uncertainties = {{"src/p.py", 4, "computed import"}};

  SECTION("from a diff") {
    auto doc = nlohmann::json::parse(fallback_payload(d, &changes, true, {"/r/ci.sh", "-x"}, "/r"));
    CHECK(doc["schema"] == "impact.fallback");
    CHECK(doc["version"] == k_fallback_payload_version);
    CHECK(doc["reason"] == "config_changed");
    CHECK(doc["detail"] == "setup.cfg changed");
    CHECK(doc["root"] == "/r");
    CHECK(doc["argv"] == nlohmann::json({"/r/ci.sh", "-x"}));
    CHECK(doc["mode"] == nlohmann::json({{"requested", "safe"}, {"effective", "safe"}, {"strict", true}}));
    CHECK(doc["base"]["commit"] == std::string(40, 'a'));
    CHECK(doc["base"]["mode"] == "working_tree");
    REQUIRE(doc["changed_files"].size() == 2);
    const auto& cfg = doc["changed_files"][1];
    CHECK(cfg["path"] == "setup.cfg");
    CHECK(cfg["old_path"].is_null());
    CHECK(cfg["kind"] == "config");
    CHECK(cfg["effect"] == "run_all: config_changed");
    CHECK(cfg["hunks"] == nlohmann::json::array({{3, 1, 3, 2}}));
    CHECK(cfg["binary"] == false);
    const auto& moved = doc["changed_files"][0];
    CHECK(moved["path"] == "b.txt");
    CHECK(moved["old_path"] == "a.txt");
    CHECK(moved["status"] == "renamed");
    CHECK(moved["kind"].is_null()); // the decision said nothing about it
    CHECK(doc["uncertainties"][0] == nlohmann::json({{"path", "src/p.py"}, {"line", 4}, {"what", "computed import"}}));
  }
  SECTION("replayed: no base, the decision's files, no hunks") {
    auto doc = nlohmann::json::parse(fallback_payload(d, nullptr, false, {"/r/ci.sh"}, "/r"));
    CHECK(doc["base"].is_null());
    REQUIRE(doc["changed_files"].size() == 1);
    CHECK(doc["changed_files"][0]["path"] == "setup.cfg");
    CHECK(doc["changed_files"][0]["hunks"].is_null());
    CHECK(doc["changed_files"][0]["untracked"].is_null());
  }
}
