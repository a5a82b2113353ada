#include "impact/monorepo.hpp"
#include "impact/pyproject.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using impact::testing::TempDir;
using namespace impact::monorepo;

namespace {

std::vector<std::string> pairs_of(const std::vector<Edge>& edges) {
  std::vector<std::string> out;
  for (const auto& e : edges) out.push_back(e.from + " -> " + e.to);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Project> three() {
  return {{"libs/a", "libs/a/pytest.ini", "discovered"},
          {"libs/b", "libs/b/pytest.ini", "discovered"},
          {"services/api", "services/api/pytest.ini", "discovered"}};
}

} // namespace

TEST_CASE("read_distribution reads the name and every list of dependencies", "[monorepo]") {
  TempDir dir;
  dir.write("pyproject.toml", R"(
[project]
name = "My_Lib.Core"
dependencies = ["libs-a >=1", "requests[socks]; python_version > '3.8'", "local @ file:///${PROJECT_ROOT}/../local"]
[project.optional-dependencies]
extra = ["Libs_B"]
[dependency-groups]
dev = ["pytest", {include-group = "lint"}]
lint = ["ruff"]
[tool.uv.sources]
libs-a = { workspace = true }
near = { path = "../near", editable = true }
[tool.uv.workspace]
members = ["packages/*"]
)");
  auto d = impact::config::read_distribution(dir / "pyproject.toml", "pyproject.toml");
  REQUIRE(d);
  CHECK(d->name == "my-lib-core");
  CHECK(d->requirements == std::vector<std::string>{"libs-a", "requests", "local", "libs-b", "pytest", "ruff"});
  CHECK(d->paths == std::vector<std::string>{"../local", "../near"});
  CHECK(d->workspace_members == std::vector<std::string>{"packages/*"});
  CHECK_FALSE(impact::config::read_distribution(dir / "none.toml", "none.toml"));
}

TEST_CASE("declared_edges follow names and paths to sibling projects", "[monorepo]") {
  TempDir repo;
  repo.write("libs/a/pyproject.toml", "[project]\nname = \"libs-a\"\n");
  repo.write("libs/b/pyproject.toml", "[project]\nname = \"b\"\n[dependency-groups]\ndev = [\"LIBS_A\"]\n");
  repo.write("services/api/pyproject.toml",
             "[tool.poetry]\nname = \"api\"\n[tool.poetry.dependencies]\npython = \"^3.9\"\n"
             "b = { path = \"../../libs/b\", develop = true }\n");
  auto edges = declared_edges(repo.path(), three());
  CHECK(pairs_of(edges) == std::vector<std::string>{"libs/b -> libs/a", "services/api -> libs/b"});
  CHECK(std::all_of(edges.begin(), edges.end(), [](const Edge& e) { return e.declared; }));
}

TEST_CASE("read_setup_cfg_distribution reads the name, install_requires and the extras", "[monorepo]") {
  TempDir dir;
  dir.write("setup.cfg", "[metadata]\nname = My_Lib\n\n[options]\ninstall_requires =\n    Libs.A >= 1 ; "
                         "python_version >= '3'\n    # a comment\n    file: requirements.txt\n    requests\n"
                         "\n[options.extras_require]\ntesting =\n    libs_b\n\n[tool:pytest]\ntestpaths = tests\n");
  auto d = impact::config::read_setup_cfg_distribution(dir / "setup.cfg", "setup.cfg");
  REQUIRE(d);
  CHECK(d->name == "my-lib");
  CHECK(d->requirements == std::vector<std::string>{"libs-a", "requests", "libs-b"});
  CHECK_FALSE(impact::config::read_setup_cfg_distribution(dir / "none.cfg", "none.cfg"));
  dir.write("bad.cfg", "[metadata\nname = x\n");
  CHECK_THROWS_WITH(impact::config::read_setup_cfg_distribution(dir / "bad.cfg", "libs/x/bad.cfg"),
                    Catch::Contains("libs/x/bad.cfg"));
}

TEST_CASE("declared_edges read setup.cfg's requirements, named by either file", "[monorepo]") {
  TempDir repo;
  repo.write("libs/a/pyproject.toml", "[project]\nname = \"libs-a\"\n");
  repo.write("libs/b/setup.cfg", "[metadata]\nname = b\n[options]\ninstall_requires =\n    libs-a\n");
  repo.write("services/api/setup.cfg", "[options.extras_require]\ndev =\n    b\n");
  auto edges = declared_edges(repo.path(), three());
  CHECK(pairs_of(edges) == std::vector<std::string>{"libs/b -> libs/a", "services/api -> libs/b"});
  CHECK(edges.front().why == "declares libs-a in libs/b/setup.cfg");
}

TEST_CASE("import_edges see a sibling's module that a project does not provide itself", "[monorepo]") {
  std::vector<FileImports> files{
      {"libs/a/src/liba/core.py", {"os"}},
      {"libs/a/tests/test_core.py", {"liba"}},
      {"libs/b/b.py", {"liba", "tests"}},
      {"libs/b/tests/test_b.py", {"b"}},
      {"services/api/tests/test_x.py", {"b", "tests"}},
  };
  auto edges = import_edges(three(), files);
  CHECK(pairs_of(edges) == std::vector<std::string>{"libs/b -> libs/a", "services/api -> libs/b"});
  CHECK(edges.front().why.find("imports") != std::string::npos);
  CHECK(provided_names("libs/a", {"libs/a/src/liba/core.py", "libs/a/setup.py", "libs/a/tests/t.py"}) ==
        std::vector<std::string>{"liba", "setup", "src", "tests"});
}

TEST_CASE("dependents follow the edges backwards, transitively, with the chain", "[monorepo]") {
  std::vector<Edge> edges{{"libs/b", "libs/a", true, ""}, {"services/api", "libs/b", false, ""},
                          {"libs/c", "libs/d", true, ""}};
  auto found = dependents(edges, {"libs/a"});
  REQUIRE(found.size() == 2);
  CHECK(found[0] == std::pair<std::string, std::string>{"libs/b", "libs/b -> libs/a"});
  CHECK(found[1] == std::pair<std::string, std::string>{"services/api", "services/api -> libs/b -> libs/a"});
  SECTION("a changed project that another changed project reaches is a dependent too") {
    auto both = dependents(edges, {"libs/a", "services/api"});
    REQUIRE(both.size() == 2);
    CHECK(both[1].first == "services/api");
    CHECK(dependents(edges, {"services/api"}).empty());
  }
}

TEST_CASE("read_requirements_files reads names and paths, line by line as pip does", "[monorepo]") {
  TempDir dir;
  dir.write("requirements.txt", "# a comment\nrequests>=2  # trailing\n-r other.txt\n-c constraints.txt\n"
                                "--index-url https://example.invalid/simple\n-e ../a\n--editable=../b[test]\n"
                                "../c ; python_version > '3'\nfile:../d\nfile:///abs/e\nLibs_F[x] \\\n  >=1\n"
                                "g @ file:../g\n-e git+https://example.invalid/h.git#egg=h\nnot#a-comment\n");
  dir.write("requirements/dev.txt", "-e ../../i\n");
  dir.write("requirements-lint.txt", "ruff\n");
  dir.write("constraints.txt", "-e ../never\n");
  auto files = impact::config::read_requirements_files(dir.path(), "libs/x");
  REQUIRE(files.size() == 3);
  CHECK(files[0].display_name == "libs/x/requirements-lint.txt");
  CHECK(files[1].display_name == "libs/x/requirements.txt");
  CHECK(files[1].folder.empty());
  CHECK(files[1].declared.requirements == std::vector<std::string>{"requests", "libs-f", "g", "not"});
  CHECK(files[1].declared.paths == std::vector<std::string>{"../a", "../b", "../c", "../d", "/abs/e", "../g"});
  CHECK(files[2].display_name == "libs/x/requirements/dev.txt");
  CHECK(files[2].folder == "requirements");
  CHECK(files[2].declared.paths == std::vector<std::string>{"../../i"});
}

TEST_CASE("declared_edges read the requirements files", "[monorepo]") {
  TempDir repo;
  repo.write("libs/a/pyproject.toml", "[project]\nname = \"libs-a\"\n");
  repo.write("libs/b/requirements/test.txt", "-e ../a\n");
  repo.write("services/api/requirements.txt", "libs_a==1\n");
  auto edges = declared_edges(repo.path(), three());
  CHECK(pairs_of(edges) == std::vector<std::string>{"libs/b -> libs/a", "services/api -> libs/a"});
}
