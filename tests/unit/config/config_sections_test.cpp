// A changed pyproject.toml, setup.cfg or tox.ini read by section.
#include "config/config_sections.hpp"

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
