#include "impact/run.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::env_of;
using impact::testing::TempDir;

namespace {

using Strings = std::vector<std::string>;

// A lookup in `root` with an environment of `vars` only (PATH pointing at an empty folder unless given).
PytestLookup lookup_in(const TempDir& root, std::map<std::string, std::string> vars) {
  if (!vars.contains("PATH")) vars["PATH"] = (root / "empty-path").string();
  std::filesystem::create_directories(root / "empty-path");
  PytestLookup lookup;
  lookup.env = env_of(std::move(vars));
  lookup.repo_root = root.path();
  return lookup;
}

} // namespace

TEST_CASE("find_pytest takes the resolved setting first", "[find_pytest]") {
  TempDir root;
  auto lookup = lookup_in(root, {{"IMPACT_PYTEST", "/opt/tools/pytest"}, {"VIRTUAL_ENV", "/nowhere"}});
  SECTION("the configured argv, from whichever layer set it") {
    lookup.configured = Strings{"uv", "run", "pytest"};
    lookup.configured_source = "--pytest-command";
    auto cmd = find_pytest(lookup);
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{"uv", "run", "pytest"});
    CHECK(cmd->source == "--pytest-command");
  }
}

TEST_CASE("find_pytest takes the configured argv next", "[find_pytest]") {
  TempDir root;
  root.executable("venv/bin/python");
  auto lookup = lookup_in(root, {{"VIRTUAL_ENV", (root / "venv").string()}});
  lookup.configured_source = "pytest-command in pyproject.toml";
  SECTION("a configured argv") {
    lookup.configured = Strings{"uv", "run", "pytest"};
    auto cmd = find_pytest(lookup);
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{"uv", "run", "pytest"});
    CHECK(cmd->source == "pytest-command in pyproject.toml");
  }
  SECTION("an empty configured argv does not count") {
    lookup.configured = Strings{};
    auto cmd = find_pytest(lookup);
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv.front() == (root / "venv/bin/python").string());
  }
}

TEST_CASE("find_pytest runs the active virtualenv's python -m pytest", "[find_pytest]") {
  TempDir root;
  SECTION("bin/python") {
    root.executable("env/bin/python");
    auto cmd = find_pytest(lookup_in(root, {{"VIRTUAL_ENV", (root / "env").string()}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "env/bin/python").string(), "-m", "pytest"});
    CHECK_THAT(cmd->source, Catch::Contains("VIRTUAL_ENV"));
  }
  SECTION("bin/python3 when there is no bin/python") {
    root.executable("env/bin/python3");
    auto cmd = find_pytest(lookup_in(root, {{"VIRTUAL_ENV", (root / "env").string()}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "env/bin/python3").string(), "-m", "pytest"});
  }
  SECTION("a conda environment") {
    root.executable("conda/bin/python");
    auto cmd = find_pytest(lookup_in(root, {{"CONDA_PREFIX", (root / "conda").string()}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "conda/bin/python").string(), "-m", "pytest"});
    CHECK_THAT(cmd->source, Catch::Contains("CONDA_PREFIX"));
  }
  SECTION("a virtualenv without a python is passed over") {
    std::filesystem::create_directories(root / "env/bin");
    root.write("env/bin/python", "not executable");
    root.executable("path/pytest");
    auto cmd =
        find_pytest(lookup_in(root, {{"VIRTUAL_ENV", (root / "env").string()}, {"PATH", (root / "path").string()}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "path/pytest").string()});
  }
}

TEST_CASE("find_pytest finds a .venv or venv at the root that has pytest", "[find_pytest]") {
  TempDir root;
  SECTION(".venv") {
    root.executable(".venv/bin/python");
    root.executable(".venv/bin/pytest");
    auto cmd = find_pytest(lookup_in(root, {}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / ".venv/bin/python").string(), "-m", "pytest"});
    CHECK_THAT(cmd->source, Catch::Contains(".venv/"));
  }
  SECTION("venv") {
    root.executable("venv/bin/python3");
    root.executable("venv/bin/pytest");
    auto cmd = find_pytest(lookup_in(root, {}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "venv/bin/python3").string(), "-m", "pytest"});
  }
  SECTION("a .venv without pytest is passed over") {
    root.executable(".venv/bin/python");
    root.executable("path/pytest");
    auto cmd = find_pytest(lookup_in(root, {{"PATH", (root / "path").string()}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "path/pytest").string()});
    CHECK(cmd->source == "pytest on PATH");
  }
  SECTION("the active virtualenv comes before the project's") {
    root.executable(".venv/bin/python");
    root.executable(".venv/bin/pytest");
    root.executable("active/bin/python");
    auto cmd = find_pytest(lookup_in(root, {{"VIRTUAL_ENV", (root / "active").string()}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv.front() == (root / "active/bin/python").string());
  }
}

TEST_CASE("find_pytest falls back to pytest on PATH, then gives up", "[find_pytest]") {
  TempDir root;
  SECTION("the first executable pytest on PATH") {
    root.write("a/pytest", "not executable");
    root.executable("b/pytest");
    root.executable("c/pytest");
    std::string path = (root / "a").string() + ":" + (root / "b").string() + ":" + (root / "c").string();
    auto cmd = find_pytest(lookup_in(root, {{"PATH", path}}));
    REQUIRE(cmd.has_value());
    CHECK(cmd->argv == Strings{(root / "b/pytest").string()});
    CHECK(cmd->source == "pytest on PATH");
  }
  SECTION("nothing anywhere") { CHECK_FALSE(find_pytest(lookup_in(root, {})).has_value()); }
}

TEST_CASE("find_on_path searches $PATH, or checks a path with a slash", "[find_pytest]") {
  TempDir root;
  auto tool = root.executable("bin/tool");
  auto env = env_of({{"PATH", (root / "bin").string()}});
  CHECK(find_on_path("tool", env) == tool.string());
  CHECK_FALSE(find_on_path("missing", env).has_value());
  CHECK(find_on_path(tool.string(), env_of({})) == tool.string());
  CHECK_FALSE(find_on_path((root / "bin/missing").string(), env).has_value());
}

TEST_CASE("assemble_argv builds the argv for each outcome", "[find_pytest]") {
  Command pytest{{"python", "-m", "pytest"}, "test"};
  Decision d;
  Strings passthrough{"-x", "-k", "fast"};
  SECTION("selected: pytest, the node ids, then the passthrough arguments") {
    d.outcome = Outcome::selected;
    SelectedTest a;
    a.node_id = "tests/test_a.py";
    SelectedTest b;
    b.node_id = "tests/test_b.py::test_one";
    d.selected = {a, b};
    CHECK(assemble_argv(pytest, d, passthrough) ==
          Strings{"python", "-m", "pytest", "tests/test_a.py", "tests/test_b.py::test_one", "-x", "-k", "fast"});
  }
  SECTION("run_all: pytest and the passthrough arguments") {
    d.outcome = Outcome::run_all;
    CHECK(assemble_argv(pytest, d, passthrough) == Strings{"python", "-m", "pytest", "-x", "-k", "fast"});
  }
  SECTION("nothing: an empty argv") {
    d.outcome = Outcome::nothing;
    CHECK(assemble_argv(pytest, d, passthrough).empty());
  }
}
