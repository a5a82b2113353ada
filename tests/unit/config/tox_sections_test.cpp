// tox.ini: the environments that start no test run, and the [tox] keys that list environments.
#include "impact/config_sections.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using Sections = std::vector<std::string>;

namespace {

const char* k_tox = R"([tox]
envlist = py311, docs
minversion = 4

[testenv]
commands = pytest {posargs}

[testenv:docs]
commands = sphinx-build -W docs out

[testenv:lint]
commands =
    - flake8 src
    {envpython} -m mypy \
        src
    python -m build

[testenv:inherits]
deps = coverage

[testenv:piped]
commands = {envbindir}/ruff check src

[testenv:mixed]
commands =
    ruff check src
    pytest
)";

} // namespace

TEST_CASE("tox sections: environments whose every command runs a tool start no test run") {
  Sections all = {"testenv", "testenv:docs", "testenv:lint", "testenv:inherits", "testenv:piped", "testenv:mixed"};
  auto quiet = sections_running_no_tests(k_tox, k_tox, all);
  CHECK(quiet == Sections{"testenv:docs", "testenv:lint", "testenv:piped"});
  CHECK(section_runs_no_tests(k_tox, "testenv:docs"));
  CHECK_FALSE(section_runs_no_tests(k_tox, "testenv"));          // the base: every environment inherits it
  CHECK_FALSE(section_runs_no_tests(k_tox, "testenv:inherits")); // no commands: [testenv]'s run
  CHECK_FALSE(section_runs_no_tests(k_tox, "testenv:mixed"));
}

TEST_CASE("tox sections: an environment another one refers to, or a new one that runs pytest, counts") {
  std::string referred = std::string(k_tox) + "\n[testenv:cov]\ndeps = {[testenv:docs]deps}\ncommands = pytest\n";
  CHECK(sections_running_no_tests(referred, referred, {"testenv:docs"}).empty());
  std::string based = std::string(k_tox) + "\n[testenv:strict]\nbase = lint\ncommands = pytest\n";
  CHECK(sections_running_no_tests(based, based, {"testenv:lint"}).empty());
  // An environment added on one side: only the side that holds it is read.
  std::string added = std::string(k_tox) + "\n[testenv:spell]\ncommands = codespell src\n";
  CHECK(sections_running_no_tests(k_tox, added, {"testenv:spell"}) == Sections{"testenv:spell"});
  std::string runs = std::string(k_tox) + "\n[testenv:slow]\ncommands = pytest -m slow\n";
  CHECK(sections_running_no_tests(k_tox, runs, {"testenv:slow"}).empty());
}

TEST_CASE("tox sections: [tox] counts unless only the listed environments differ") {
  std::string more = k_tox;
  more.replace(more.find("py311, docs"), 11, "py311, py312, docs");
  CHECK(sections_running_no_tests(k_tox, more, {"tox"}) == Sections{"tox"});
  std::string isolated = std::string(k_tox);
  isolated.replace(isolated.find("minversion = 4"), 14, "minversion = 4\nisolated_build = true");
  CHECK(sections_running_no_tests(k_tox, isolated, {"tox"}).empty());
  CHECK(sections_running_no_tests("[tox\n", k_tox, {"tox"}).empty()); // a side that cannot be parsed
}
