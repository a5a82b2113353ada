#include "impact/run.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

using namespace impact;
using impact::testing::env_of;
using impact::testing::TempDir;

TEST_CASE("resolve_program finds the program from the repository root or PATH", "[fallback]") {
  TempDir root;
  root.executable("scripts/ci.sh");
  root.write("scripts/plain.sh", "#!/bin/sh\n");
  root.executable("path/tool");
  auto env = env_of({{"PATH", (root / "path").string()}});
  SECTION("a relative path with a slash is under the root") {
    CHECK(resolve_program("scripts/ci.sh", root.path(), env) == (root / "scripts/ci.sh").string());
    CHECK(resolve_program("./scripts/../scripts/ci.sh", root.path(), env) == (root / "scripts/ci.sh").string());
  }
  SECTION("an absolute path is itself") {
    CHECK(resolve_program((root / "scripts/ci.sh").string(), "/elsewhere", env) == (root / "scripts/ci.sh").string());
  }
  SECTION("a bare name is looked up on PATH, never under the root") {
    CHECK(resolve_program("tool", "/elsewhere", env) == (root / "path/tool").string());
    CHECK_FALSE(resolve_program("ci.sh", root.path() / "scripts", env).has_value());
  }
  SECTION("missing or not executable") {
    CHECK_FALSE(resolve_program("scripts/missing.sh", root.path(), env).has_value());
    CHECK_FALSE(resolve_program("scripts/plain.sh", root.path(), env).has_value());
    CHECK_FALSE(resolve_program("scripts", root.path(), env).has_value());
  }
}

TEST_CASE("fallback_payload carries the reason and the change report", "[fallback]") {
  ChangedFile cfg_change = testing::modified("setup.cfg");
  cfg_change.hunks = {Hunk{3, 1, 3, 2}};
  ChangeSet changes = testing::change_set({testing::renamed("a.txt", "b.txt"), cfg_change});
  Decision d;
  d.outcome = Outcome::run_all;
  d.reason = "config_changed";
  d.detail = "setup.cfg changed";
  d.mode_requested = d.mode_effective = Mode::safe;
  FileVerdict v;
  v.path = RepoPath{"setup.cfg"};
  v.kind = "config";
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

TEST_CASE("unlinked_temp_fd gives a readable descriptor to a file that has no name", "[fallback]") {
  TempDir tmp;
  const char* previous = std::getenv("TMPDIR");
  std::string saved = previous != nullptr ? previous : "";
  ::setenv("TMPDIR", tmp.path().c_str(), 1);
  std::string content(200 * 1024, 'x'); // more than a pipe holds
  int fd = unlinked_temp_fd(content);
  if (previous != nullptr) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
  REQUIRE(fd >= 0);
  CHECK(std::filesystem::is_empty(tmp.path()));
  struct stat st {};
  REQUIRE(::fstat(fd, &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK(st.st_nlink == 0);
  CHECK(static_cast<size_t>(st.st_size) == content.size());
  std::string read_back(content.size(), '\0');
  CHECK(::read(fd, read_back.data(), read_back.size()) == static_cast<ssize_t>(content.size()));
  CHECK(read_back == content);
  ::close(fd);
}
