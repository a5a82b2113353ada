#include "impact/decision.hpp"

#include <catch2/catch.hpp>

using impact::is_config_file;
using impact::RepoPath;

namespace {
bool config(const char* path) { return is_config_file(RepoPath(path)); }
} // namespace

TEST_CASE("is_config_file knows the files that configure pytest, Python and dependencies", "[config_files]") {
  SECTION("pytest and packaging configuration, at any depth") {
    for (const char* p : {"pytest.ini", ".pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "setup.py",
                          "services/api/pyproject.toml", "sub/tox.ini"}) {
      INFO(p);
      CHECK(config(p));
    }
  }
  SECTION("lock files and environments") {
    for (const char* p : {"Pipfile", "Pipfile.lock", "poetry.lock", "pdm.lock", "uv.lock", "environment.yml",
                          "environment.yaml", "conda-lock.yml", ".python-version"}) {
      INFO(p);
      CHECK(config(p));
    }
  }
  SECTION("requirements and constraints files") {
    for (const char* p : {"requirements.txt", "requirements-dev.txt", "requirements-dev.in", "constraints.txt",
                          "requirements/test.txt", "requirements/base.in", "ci/requirements/lint.txt"}) {
      INFO(p);
      CHECK(config(p));
    }
  }
  SECTION("everything else") {
    for (const char* p :
         {"README.md", "src/app/config.py", "src/app/settings.py", "requirements.py", "requirements/README.md",
          "docs/setup.rst", "my_pyproject.toml", "setup.py.bak", "tests/conftest.py"}) {
      INFO(p);
      CHECK_FALSE(config(p));
    }
  }
}

TEST_CASE("Outcome and Mode have stable names", "[config_files]") {
  using impact::Mode;
  using impact::Outcome;
  CHECK(to_string(Outcome::selected) == "selected");
  CHECK(to_string(Outcome::run_all) == "run_all");
  CHECK(to_string(Outcome::nothing) == "nothing");
  CHECK(to_string(Mode::fast) == "fast");
  CHECK(to_string(Mode::balanced) == "balanced");
  CHECK(to_string(Mode::safe) == "safe");
  CHECK(impact::parse_mode("fast") == Mode::fast);
  CHECK(impact::parse_mode("balanced") == Mode::balanced);
  CHECK(impact::parse_mode("safe") == Mode::safe);
  CHECK_FALSE(impact::parse_mode("Fast").has_value());
  CHECK_FALSE(impact::parse_mode("").has_value());
}
