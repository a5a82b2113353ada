// A changed pyproject.toml, setup.cfg or tox.ini read by section.
#include "impact/config_sections.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using Sections = std::vector<std::string>;

TEST_CASE("config sections: pyproject.toml by tool table and project key") {
  RepoPath path("pyproject.toml");
  std::string before = "[project]\nname = 'a'\ndependencies = ['x']\n\n[tool.ruff]\nline-length = 88\n\n[tool.pytest.ini_options]\naddopts = '-q'\n";
  std::string ruff = "[project]\nname = 'a'\ndependencies = ['x']\n\n[tool.ruff]\nline-length = 100\n\n[tool.pytest.ini_options]\naddopts = '-q'\n";
  CHECK(changed_sections(path, before, ruff) == Sections{"tool.ruff"});
  std::string deps = "[project]\nname = 'a'\ndependencies = ['x>=2']\n\n[tool.ruff]\nline-length = 88\n\n[tool.pytest.ini_options]\naddopts = '-q'\n";
  CHECK(changed_sections(path, before, deps) == Sections{"project.dependencies"});
  std::string comment = "# a comment\n" + before + "\n\n";
  CHECK(changed_sections(path, before, comment) == Sections{});
  CHECK(changed_sections(path, "", "[build-system]\nrequires = []\n") == Sections{"build-system"});
  CHECK_FALSE(changed_sections(path, before, "[tool.ruff\n"));
}

TEST_CASE("config sections: setup.cfg and tox.ini by INI section") {
  RepoPath path("setup.cfg");
  std::string before = "[metadata]\nname = a\n\n[flake8]\nmax-line-length = 88\n";
  CHECK(changed_sections(path, before, "[metadata]\nname = a\n\n[flake8]\nmax-line-length = 100\n") == Sections{"flake8"});
  CHECK(changed_sections(path, before, "[metadata]\nname = b\n\n[flake8]\nmax-line-length = 88\n") == Sections{"metadata"});
  CHECK(changed_sections(path, before, "# note\n" + before) == Sections{});
  CHECK(changed_sections(path, before, before + "\n[mypy-pkg.*]\nignore_errors = True\n") == Sections{"mypy-pkg.*"});
}

TEST_CASE("config sections: which sections only lint and format tools read") {
  CHECK(lint_section("tool.ruff"));
  CHECK(lint_section("tool.black"));
  CHECK(lint_section("tool.towncrier"));
  CHECK(lint_section("flake8"));
  CHECK(lint_section("mypy-pkg.*"));
  CHECK(lint_section("pylint.messages control"));
  CHECK_FALSE(lint_section("tool.pytest.ini_options"));
  CHECK_FALSE(lint_section("tool.impact"));
  CHECK_FALSE(lint_section("tool.coverage"));
  CHECK_FALSE(lint_section("tool.setuptools"));
  CHECK_FALSE(lint_section("tool:pytest"));
  CHECK_FALSE(lint_section("coverage:run"));
  CHECK_FALSE(lint_section("project.dependencies"));
  CHECK_FALSE(lint_section("build-system"));
  CHECK_FALSE(lint_section("testenv"));
}

TEST_CASE("config sections: only the three sectioned files") {
  CHECK(sectioned_config(RepoPath("pyproject.toml")));
  CHECK(sectioned_config(RepoPath("sub/setup.cfg")));
  CHECK(sectioned_config(RepoPath("tox.ini")));
  CHECK_FALSE(sectioned_config(RepoPath("pytest.ini")));
  CHECK_FALSE(sectioned_config(RepoPath("requirements.txt")));
}

TEST_CASE("config sections: the dependency lists of pyproject.toml") {
  CHECK(dependency_section("project.dependencies"));
  CHECK(dependency_section("dependency-groups"));
  CHECK_FALSE(dependency_section("project.version"));
  auto lists = dependency_lists("[project]\ndependencies = ['attrs>=22']\n[project.optional-dependencies]\ntest = ['pytest']\n"
                                "[dependency-groups]\ndev = ['ruff', { include-group = 'test' }]\n");
  REQUIRE(lists);
  REQUIRE(lists->size() == 3);
  CHECK((*lists)[0] == std::pair<std::string, std::vector<std::string>>{"project.dependencies", {"attrs>=22"}});
  CHECK((*lists)[1].first == "project.optional-dependencies.test");
  CHECK((*lists)[2].second == std::vector<std::string>{"ruff", "include-group:test"});
  CHECK_FALSE(dependency_lists("[project]\ndependencies = [1]\n"));
  CHECK_FALSE(dependency_lists("[project\n"));
}

TEST_CASE("config sections: packaging metadata files of [project]") {
  CHECK(packaging_files("[project]\nreadme = 'README.md'\nlicense = { file = 'LICENSE' }\nlicense-files = ['LICEN[CS]E*']\n") ==
        std::vector<std::string>{"README.md", "LICENSE", "LICEN[CS]E*"});
  CHECK(packaging_files("[project]\nreadme = { file = 'README.rst', content-type = 'text/x-rst' }\nlicense = 'MIT'\n") ==
        std::vector<std::string>{"README.rst"});
  CHECK(packaging_files("[tool.x]\n").empty());
}
