// Rule dependency-pins: from moved distributions to the modules that may be imported from them.
#include "decision/rules/dependency_pins.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using namespace impact::decision;

namespace {

Environment environment() {
  Environment env;
  auto add = [&](std::string name, std::vector<std::string> modules, std::vector<std::string> requires_, bool plugin = false,
                 std::vector<std::string> extra = {}) {
    Distribution d;
    d.name = name;
    d.import_names = std::move(modules);
    d.requirements = std::move(requires_);
    d.extra_requirements = std::move(extra);
    d.pytest_plugin = plugin;
    env.distributions.emplace(name, std::move(d));
  };
  // pytest's `testing` extra (argcomplete, hypothesis, ...) is a development extra: read_environment
  // drops it. A feature extra stays apart from what pytest always requires.
  add("pytest", {"pytest", "_pytest", "py"}, {"iniconfig", "packaging", "pluggy"}, false, {"colorama"});
  add("colorama", {"colorama"}, {});
  add("socks", {"socks"}, {});
  add("httplib", {"httplib"}, {}, false, {"socks"});
  add("pluggy", {"pluggy"}, {});
  add("requests", {"requests"}, {"idna", "urllib3"});
  add("idna", {"idna"}, {});
  add("pytest-cov", {"pytest_cov"}, {"coverage", "pytest"}, true);
  add("coverage", {"coverage"}, {});
  return env;
}

PinChange change(std::vector<std::string> moved, bool graph = false, std::map<std::string, std::vector<std::string>> deps = {}) {
  return PinChange{RepoPath("requirements.txt"), PinDiff{std::move(moved), std::move(deps), graph}};
}

} // namespace

TEST_CASE("dependency pins: a moved distribution reaches its modules and its dependents' modules") {
  auto env = environment();
  auto answer = pinned_modules({change({"idna"})}, &env, false);
  CHECK(answer.run_all.empty());
  REQUIRE(answer.groups.size() == 1);
  CHECK(answer.groups[0].modules == std::map<std::string, std::string>{{"idna", "idna"}, {"requests", "requests"}});
  // With a lockfile's graph, its dependents are the lock's.
  auto locked = pinned_modules({change({"idna"}, true, {{"idna", {}}})}, &env, false);
  REQUIRE(locked.groups.size() == 1);
  CHECK(locked.groups[0].modules == std::map<std::string, std::string>{{"idna", "idna"}});
}

TEST_CASE("dependency pins: pytest, its requirements and plugins change every session") {
  auto env = environment();
  CHECK_FALSE(pinned_modules({change({"pytest"})}, &env, false).run_all.empty());
  CHECK_FALSE(pinned_modules({change({"pluggy"})}, &env, true).run_all.empty());
  CHECK_FALSE(pinned_modules({change({"coverage"})}, &env, false).run_all.empty()); // pytest-cov requires it
}

TEST_CASE("dependency pins: an extra's requirement reaches its dependents, but is not pytest's own") {
  auto env = environment();
  auto socks = pinned_modules({change({"socks"})}, &env, false);
  REQUIRE(socks.run_all.empty());
  REQUIRE(socks.groups.size() == 1);
  CHECK(socks.groups[0].modules == std::map<std::string, std::string>{{"httplib", "httplib"}, {"socks", "socks"}});
  // colorama is in an extra of pytest: its dependents include pytest, whose move runs everything, and the
  // detail names both.
  auto colorama = pinned_modules({change({"colorama"})}, &env, false);
  CHECK(colorama.run_all.find("colorama moves pytest") != std::string::npos);
}

TEST_CASE("dependency pins: what cannot be mapped runs everything, except in fast mode") {
  auto env = environment();
  CHECK_FALSE(pinned_modules({change({"not-installed"})}, &env, false).run_all.empty());
  auto fast = pinned_modules({change({"not-installed"})}, &env, true);
  CHECK(fast.run_all.empty());
  CHECK(fast.warnings.size() == 1);
  CHECK_FALSE(pinned_modules({change({"idna"})}, nullptr, true).run_all.empty());
  CHECK_FALSE(pinned_modules({PinChange{RepoPath("uv.lock"), std::nullopt}}, &env, true).run_all.empty());
}
