#include "impact/project/pytest_args.hpp"

#include <catch2/catch.hpp>

using namespace impact;

namespace {
using Strings = std::vector<std::string>;
using Pairs = std::vector<std::pair<std::string, std::string>>;
} // namespace

TEST_CASE("parse_pytest_args reads -o in every spelling pytest accepts", "[pytest_args]") {
  auto a = parse_pytest_args({"-o", "python_files=check_*.py", "-otestpaths=t", "--override-ini=a=b=c",
                              "--override-ini", "k=", "-vo", "x=1"});
  CHECK(a.overrides == Pairs{{"python_files", "check_*.py"}, {"testpaths", "t"}, {"a", "b=c"}, {"k", ""}, {"x", "1"}});
  CHECK(a.malformed_overrides.empty());
  CHECK(a.positional.empty());
  SECTION("after a plugin's flag in the same cluster (xdist's -f), as argparse reads it") {
    CHECK(parse_pytest_args({"-fo", "python_files=check_*.py"}).overrides == Pairs{{"python_files", "check_*.py"}});
    CHECK(parse_pytest_args({"-Zc", "ci/pytest.ini"}).config_file == std::optional<std::string>("ci/pytest.ini"));
  }
  SECTION("a word without '=' is malformed") {
    CHECK(parse_pytest_args({"-o", "python_files"}).malformed_overrides == Strings{"python_files"});
  }
}

TEST_CASE("parse_pytest_args keeps the values of options apart from positional paths", "[pytest_args]") {
  auto a = parse_pytest_args({"-k", "tests", "-m", "slow", "--deselect", "tests/a.py::t", "--confcutdir", "tests",
                              "--import-mode", "importlib", "-rA", "-W", "error", "--tb=short", "tests/unit",
                              "tests/test_x.py::test_y[a/b]", "-p", "no:doctest"});
  CHECK(a.positional == Strings{"tests/unit", "tests/test_x.py::test_y[a/b]"});
  CHECK(a.unknown_options.empty());
}

TEST_CASE("parse_pytest_args reads -c, --rootdir, --ignore, doctest options and --pyargs", "[pytest_args]") {
  auto a = parse_pytest_args({"-c", "ci/pytest.ini", "--rootdir=src", "--ignore", "tests/old", "--ignore-glob=*_wip.py",
                              "--doctest-modules", "--doctest-glob", "*.rst", "--pyargs", "pkg.tests"});
  CHECK(a.config_file == std::optional<std::string>("ci/pytest.ini"));
  CHECK(a.rootdir == std::optional<std::string>("src"));
  CHECK(a.ignore == Strings{"tests/old"});
  CHECK(a.ignore_glob == Strings{"*_wip.py"});
  CHECK(a.doctest_modules);
  CHECK(a.doctest_globs == Strings{"*.rst"});
  CHECK(a.pyargs);
  CHECK(a.positional == Strings{"pkg.tests"});
  SECTION("--config-file and -cFILE") {
    CHECK(parse_pytest_args({"--config-file=x.ini"}).config_file == std::optional<std::string>("x.ini"));
    CHECK(parse_pytest_args({"-cx.toml"}).config_file == std::optional<std::string>("x.toml"));
  }
}

TEST_CASE("parse_pytest_args takes a plugin's option to have no value, so its value can only add a path", "[pytest_args]") {
  auto a = parse_pytest_args({"--html", "report.html", "--timeout=5", "-x", "-Z"});
  CHECK(a.unknown_options == Strings{"--html", "--timeout=5", "-Z"});
  CHECK(a.positional == Strings{"report.html"});
}

TEST_CASE("parse_pytest_args consumes the values of widespread plugins' options", "[pytest_args]") {
  auto a = parse_pytest_args({"--cov", "src", "-n", "4", "--dist", "loadfile", "--cov", "-q", "tests"});
  CHECK(a.positional == Strings{"tests"});
  CHECK(parse_pytest_args({"-n4", "tests"}).positional == Strings{"tests"});
}

TEST_CASE("parse_pytest_args reads every word after -- as a path", "[pytest_args]") {
  auto a = parse_pytest_args({"-q", "--", "-o", "tests"});
  CHECK(a.overrides.empty());
  CHECK(a.positional == Strings{"-o", "tests"});
}

TEST_CASE("pytest_plugin_args scans -p like pytest's consider_preparse", "[pytest_args]") {
  CHECK(pytest_plugin_args({"-p", "a.b", "-pc", "-p", "no:d", "-pno:e", "-q", "-p"}) == Strings{"a.b", "c"});
}

TEST_CASE("pytest_args_of_command finds where pytest's own arguments start", "[pytest_args]") {
  CHECK(pytest_args_of_command({"uv", "run", "pytest", "-o", "x=1"}) == Strings{"-o", "x=1"});
  CHECK(pytest_args_of_command({"/venv/bin/pytest", "-q"}) == Strings{"-q"});
  CHECK(pytest_args_of_command({"python3", "-m", "pytest", "-p", "x"}) == Strings{"-p", "x"});
  CHECK(pytest_args_of_command({"py.test"}).empty());
  SECTION("a wrapper that names no pytest gives pytest nothing impact can read") {
    CHECK(pytest_args_of_command({"scripts/test.sh", "-o", "x=1"}).empty());
  }
}
