#include "impact/error.hpp"
#include "impact/monorepo.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using impact::testing::TempDir;
using namespace impact::monorepo;

namespace {

std::vector<std::string> dirs_of(const std::vector<Project>& projects) {
  std::vector<std::string> out;
  for (const auto& p : projects) out.push_back(p.dir);
  return out;
}

} // namespace

TEST_CASE("discover_projects finds each of pytest's four configuration files", "[monorepo]") {
  TempDir repo;
  repo.write("libs/ini/pytest.ini", "[pytest]\n");
  repo.write("libs/toml/pyproject.toml", "[project]\nname = 'toml'\n[tool.pytest.ini_options]\naddopts = '-q'\n");
  repo.write("libs/tox/tox.ini", "[tox]\nenvlist = py3\n[pytest]\ntestpaths = tests\n");
  repo.write("libs/cfg/setup.cfg", "[metadata]\nname = cfg\n[tool:pytest]\ntestpaths = tests\n");
  auto found = discover_projects(repo.path());
  REQUIRE(dirs_of(found) == std::vector<std::string>{"libs/cfg", "libs/ini", "libs/toml", "libs/tox"});
  CHECK(found[0].config == "libs/cfg/setup.cfg");
  CHECK(found[1].config == "libs/ini/pytest.ini");
  CHECK(found[2].config == "libs/toml/pyproject.toml");
  CHECK(found[3].config == "libs/tox/tox.ini");
  CHECK(found[0].found_by == "discovered");
}

TEST_CASE("discover_projects ignores files that do not configure pytest", "[monorepo]") {
  TempDir repo;
  repo.write("a/pyproject.toml", "[project]\nname = 'a'\n[tool.ruff]\nline-length = 100\n");
  repo.write("b/tox.ini", "[tox]\nenvlist = py3\n");
  repo.write("c/setup.cfg", "[metadata]\nname = c\n");
  repo.write("d/pyproject.toml", "[tool.pytest.ini_options]\n");
  CHECK(dirs_of(discover_projects(repo.path())) == std::vector<std::string>{"d"});
}

TEST_CASE("discover_projects prunes hidden folders, virtualenvs, node_modules and site-packages", "[monorepo]") {
  TempDir repo;
  repo.write("app/pytest.ini", "[pytest]\n");
  repo.write(".tox/py3/pytest.ini", "[pytest]\n");
  repo.write(".hidden/p/pytest.ini", "[pytest]\n");
  repo.write("env/pyvenv.cfg", "home = /usr/bin\n");
  repo.write("env/lib/pkg/pytest.ini", "[pytest]\n");
  repo.write("conda/conda-meta/history", "\n");
  repo.write("conda/pkg/pytest.ini", "[pytest]\n");
  repo.write("web/node_modules/x/pytest.ini", "[pytest]\n");
  repo.write("lib/site-packages/y/pytest.ini", "[pytest]\n");
  CHECK(dirs_of(discover_projects(repo.path())) == std::vector<std::string>{"app"});
}

TEST_CASE("a project owns its subtree", "[monorepo]") {
  TempDir repo;
  repo.write("libs/a/pyproject.toml", "[tool.pytest.ini_options]\n");
  repo.write("libs/a/tests/data/pytest.ini", "[pytest]\n");
  repo.write("libs/a/examples/sub/tox.ini", "[pytest]\n");
  repo.write("libs/b/pytest.ini", "[pytest]\n");
  CHECK(dirs_of(discover_projects(repo.path())) == std::vector<std::string>{"libs/a", "libs/b"});
  SECTION("owner_of names the project holding a path") {
    auto found = discover_projects(repo.path());
    CHECK(owner_of(found, "libs/a/tests/data/pytest.ini")->dir == "libs/a");
    CHECK(owner_of(found, "libs/a")->dir == "libs/a");
    CHECK(owner_of(found, "libs/ab/x.py") == nullptr);
    CHECK(owner_of(found, "README.md") == nullptr);
  }
}

TEST_CASE("discover_projects looks five levels down, and a projects glob deeper", "[monorepo]") {
  TempDir repo;
  repo.write("1/2/3/4/5/pytest.ini", "[pytest]\n");
  repo.write("a/b/c/d/e/f/pytest.ini", "[pytest]\n");
  CHECK(dirs_of(discover_projects(repo.path())) == std::vector<std::string>{"1/2/3/4/5"});
  std::vector<std::string> warnings;
  auto pinned = pinned_projects(repo.path(), {"a/*/*/*/*/*", "nothing/*"}, "projects in pyproject.toml", warnings);
  CHECK(dirs_of(pinned) == std::vector<std::string>{"a/b/c/d/e/f"});
  CHECK(pinned.front().found_by == "projects in pyproject.toml");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings.front().find("'nothing/*'") != std::string::npos);
}

TEST_CASE("pinned_projects keeps the projects a glob matches, and only those", "[monorepo]") {
  TempDir repo;
  repo.write("libs/a/pytest.ini", "[pytest]\n");
  repo.write("libs/b/pytest.ini", "[pytest]\n");
  repo.write("services/api/pytest.ini", "[pytest]\n");
  repo.write("services/web/pytest.ini", "[pytest]\n");
  std::vector<std::string> warnings;
  auto pinned = pinned_projects(repo.path(), {"libs/*", "services/api/"}, "projects", warnings);
  CHECK(dirs_of(pinned) == std::vector<std::string>{"libs/a", "libs/b", "services/api"});
  CHECK(warnings.empty());
}

TEST_CASE("restrict_to keeps the named projects and refuses another folder", "[monorepo]") {
  std::vector<Project> all{{"libs/a", "libs/a/pytest.ini", "discovered"}, {"libs/b", "libs/b/pytest.ini", "discovered"}};
  auto kept = restrict_to(all, {"libs/b"}, "--project");
  REQUIRE(dirs_of(kept) == std::vector<std::string>{"libs/b"});
  CHECK(kept.front().found_by == "--project");
  CHECK_THROWS_WITH(restrict_to(all, {"libs"}, "--project"),
                    Catch::Contains("--project libs: not a project") && Catch::Contains("impact projects"));
}

TEST_CASE("discover_projects names a malformed configuration file", "[monorepo]") {
  TempDir repo;
  repo.write("a/pyproject.toml", "[tool.pytest.ini_options\n");
  CHECK_THROWS_WITH(discover_projects(repo.path()), Catch::Contains("a/pyproject.toml"));
}

TEST_CASE("slug makes a project folder one word", "[monorepo]") {
  CHECK(slug("libs/core") == "libs-core");
  CHECK(slug("api") == "api");
}

TEST_CASE("discover_projects finds a test pytest collects at the root outside every project", "[monorepo]") {
  TempDir repo;
  repo.write("benchmarks/pytest.ini", "[pytest]\npython_files = bench_*.py\n");
  repo.write("benchmarks/bench_match.py", "def bench_match():\n    pass\n");
  repo.write("benchmarks/test_inside.py", "def test_inside():\n    pass\n"); // the project's own
  repo.write("pkg/__init__.py", "");
  auto loose = [&](int depth = k_discovery_depth) {
    std::string out;
    auto found = discover_projects(repo.path(), depth, &out);
    CHECK(dirs_of(found) == std::vector<std::string>{"benchmarks"});
    return out;
  };
  CHECK(loose().empty());                   // only the project's files: a monorepo
  repo.write(".venv/lib/test_site.py", "");  // pruned as discovery prunes
  repo.write("docs/conftest.py", "");        // no test file
  CHECK(loose().empty());
  repo.write("tests/unit/checks_test.py", "def test_a():\n    pass\n");
  repo.write("tests/unit/test_b.py", "def test_b():\n    pass\n");
  CHECK(loose() == "tests/unit/checks_test.py");
  CHECK(loose(2).empty()); // tests/unit is two levels down
  repo.write("test_root.py", "def test_root():\n    pass\n");
  CHECK(loose() == "test_root.py");
}
