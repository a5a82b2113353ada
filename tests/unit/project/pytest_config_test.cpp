#include "impact/error.hpp"
#include "impact/project.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::TempDir;

namespace {
using Strings = std::vector<std::string>;
const Strings k_default_python_files{"test_*.py", "*_test.py"};
} // namespace

TEST_CASE("read_pytest_config without any configuration keeps pytest's defaults", "[pytest_config]") {
  TempDir dir;
  auto c = read_pytest_config(dir.path(), "");
  CHECK(c.inifile.empty());
  CHECK(c.rootdir.empty());
  CHECK(c.testpaths.empty());
  CHECK(c.python_files == k_default_python_files);
  CHECK(c.python_classes == Strings{"Test"});
  CHECK(c.python_functions == Strings{"test"});
  CHECK(c.norecursedirs == Strings{"*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}"});
  CHECK(c.addopts.empty());
  CHECK(c.plugins.empty());
  CHECK_FALSE(c.doctest_modules);
}

TEST_CASE("read_pytest_config picks the first configuration file in pytest's order", "[pytest_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"from_pyproject\"]\n");
  dir.write("tox.ini", "[pytest]\ntestpaths = from_tox\n");
  dir.write("setup.cfg", "[tool:pytest]\ntestpaths = from_setup_cfg\n");
  SECTION("pytest.ini beats pyproject.toml") {
    dir.write("pytest.ini", "[pytest]\ntestpaths = from_pytest_ini\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == "pytest.ini");
    CHECK(c.testpaths == Strings{"from_pytest_ini"});
  }
  SECTION("pytest.ini counts even without a [pytest] section") {
    dir.write("pytest.ini", "[other]\nx = 1\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == "pytest.ini");
    CHECK(c.testpaths.empty());
  }
  SECTION(".pytest.ini comes next") {
    dir.write(".pytest.ini", "[pytest]\ntestpaths = hidden\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == ".pytest.ini");
    CHECK(c.testpaths == Strings{"hidden"});
  }
  SECTION("pyproject.toml with [tool.pytest.ini_options] beats tox.ini and setup.cfg") {
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == "pyproject.toml");
    CHECK(c.testpaths == Strings{"from_pyproject"});
  }
  SECTION("pyproject.toml without the table does not count") {
    dir.write("pyproject.toml", "[project]\nname = \"x\"\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == "tox.ini");
    CHECK(c.testpaths == Strings{"from_tox"});
  }
  SECTION("tox.ini without [pytest] does not count") {
    dir.write("pyproject.toml", "[project]\nname = \"x\"\n");
    dir.write("tox.ini", "[tox]\nenvlist = py311\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == "setup.cfg");
    CHECK(c.testpaths == Strings{"from_setup_cfg"});
  }
  SECTION("setup.cfg counts only with [tool:pytest]") {
    dir.write("pyproject.toml", "[project]\nname = \"x\"\n");
    dir.write("tox.ini", "[tox]\nenvlist = py311\n");
    dir.write("setup.cfg", "[metadata]\nname = x\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile.empty());
    CHECK(c.testpaths.empty());
  }
}

TEST_CASE("read_pytest_config reads ini values as whitespace-separated lists", "[pytest_config]") {
  TempDir dir;
  dir.write("pytest.ini", "[pytest]\n"
                          "testpaths =\n    tests\n    integration\n"
                          "python_files = check_*.py *_spec.py\n"
                          "python_classes = Suite\n"
                          "python_functions = check_\n"
                          "norecursedirs = legacy .git\n"
                          "pythonpath = src ./lib/\n"
                          "DJANGO_SETTINGS_MODULE = app.settings\n");
  auto c = read_pytest_config(dir.path(), "");
  CHECK(c.testpaths == Strings{"tests", "integration"});
  CHECK(c.python_files == Strings{"check_*.py", "*_spec.py"});
  CHECK(c.python_classes == Strings{"Suite"});
  CHECK(c.python_functions == Strings{"check_"});
  CHECK(c.norecursedirs == Strings{"legacy", ".git"});
  CHECK(c.pythonpath == Strings{"src", "lib"});
  CHECK(std::find(c.values.begin(), c.values.end(), "app.settings") != c.values.end());
}

TEST_CASE("read_pytest_config reads [tool.pytest.ini_options] arrays and strings", "[pytest_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.pytest.ini_options]\n"
                              "testpaths = [\"tests\", \"integration\"]\n"
                              "python_files = [\"check_*.py\"]\n"
                              "pythonpath = [\"src\"]\n"
                              "addopts = \"-p app.plugin --doctest-modules\"\n"
                              "minversion = \"7.0\"\n"
                              "xfail_strict = true\n");
  auto c = read_pytest_config(dir.path(), "");
  CHECK(c.inifile == "pyproject.toml");
  CHECK(c.testpaths == Strings{"tests", "integration"});
  CHECK(c.python_files == Strings{"check_*.py"});
  CHECK(c.pythonpath == Strings{"src"});
  CHECK(c.addopts == Strings{"-p", "app.plugin", "--doctest-modules"});
  CHECK(c.plugins == Strings{"app.plugin"});
  CHECK(c.doctest_modules);
  SECTION("addopts as an array") {
    dir.write("pyproject.toml", "[tool.pytest.ini_options]\naddopts = [\"-p\", \"x.y\", \"--ignore=tests/old\"]\n");
    auto d = read_pytest_config(dir.path(), "");
    CHECK(d.plugins == Strings{"x.y"});
    CHECK(d.ignore_paths == Strings{"tests/old"});
  }
}

TEST_CASE("read_pytest_config reads plugins, doctests and ignores from addopts", "[pytest_config]") {
  TempDir dir;
  SECTION("-p NAME and -pNAME") {
    dir.write("pytest.ini", "[pytest]\naddopts = -p app.one -papp.two -p=app.three\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(std::find(c.plugins.begin(), c.plugins.end(), "app.one") != c.plugins.end());
    CHECK(std::find(c.plugins.begin(), c.plugins.end(), "app.two") != c.plugins.end());
  }
  SECTION("--doctest-modules") {
    dir.write("pytest.ini", "[pytest]\naddopts = -q --doctest-modules\n");
    CHECK(read_pytest_config(dir.path(), "").doctest_modules);
  }
  SECTION("--ignore=PATH and --ignore PATH, normalised") {
    dir.write("pytest.ini", "[pytest]\naddopts = --ignore=tests/legacy/ --ignore ./tests/old --ignore-glob=*_wip.py\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.ignore_paths == Strings{"tests/legacy", "tests/old"});
    CHECK(c.ignore_globs == Strings{"*_wip.py"});
  }
  SECTION("quoted arguments are split like a shell") {
    dir.write("pytest.ini", "[pytest]\naddopts = --ignore=\"tests/my dir\" -k 'a or b'\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.addopts == Strings{"--ignore=tests/my dir", "-k", "a or b"});
    CHECK(c.ignore_paths == Strings{"tests/my dir"});
  }
}

TEST_CASE("read_pytest_config does not take -p no:NAME for a plugin to load", "[pytest_config]") {
  // `-p no:cacheprovider` blocks a plugin; it loads no module.
  TempDir dir;
  dir.write("pytest.ini", "[pytest]\naddopts = -p no:cacheprovider -pno:randomly -p app.plugin\n");
  auto c = read_pytest_config(dir.path(), "");
  CHECK(c.plugins == Strings{"app.plugin"});
}

TEST_CASE("read_pytest_config appends PYTEST_ADDOPTS after the ini addopts", "[pytest_config]") {
  TempDir dir;
  dir.write("pytest.ini", "[pytest]\naddopts = -p app.one\n");
  auto c = read_pytest_config(dir.path(), "-p app.two --doctest-modules");
  CHECK(c.addopts == Strings{"-p", "app.one", "-p", "app.two", "--doctest-modules"});
  CHECK(c.plugins == Strings{"app.one", "app.two"});
  CHECK(c.doctest_modules);
  SECTION("without any ini file") {
    TempDir empty;
    auto d = read_pytest_config(empty.path(), "-p solo");
    CHECK(d.plugins == Strings{"solo"});
    CHECK(d.inifile.empty());
  }
}

TEST_CASE("read_pytest_config reads the project's pytest11 entry points", "[pytest_config]") {
  TempDir dir;
  SECTION("from pyproject.toml") {
    dir.write("pyproject.toml", "[project]\nname = \"x\"\n"
                                "[project.entry-points.pytest11]\n"
                                "myplugin = \"app.pytest_plugin\"\n"
                                "other = \"app.other:plugin_object\"\n");
    auto c = read_pytest_config(dir.path(), "");
    auto plugins = c.entry_point_plugins;
    std::sort(plugins.begin(), plugins.end());
    CHECK(plugins == Strings{"app.other", "app.pytest_plugin"});
  }
  SECTION("from setup.cfg") {
    dir.write("setup.cfg",
              "[options.entry_points]\npytest11 =\n    myplugin = app.plug:main\n    second = app.second\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.entry_point_plugins == Strings{"app.plug", "app.second"});
  }
  SECTION("while pytest.ini holds the settings") {
    dir.write("pytest.ini", "[pytest]\n");
    dir.write("pyproject.toml", "[project.entry-points.pytest11]\np = \"app.p\"\n");
    auto c = read_pytest_config(dir.path(), "");
    CHECK(c.inifile == "pytest.ini");
    CHECK(c.entry_point_plugins == Strings{"app.p"});
  }
}

TEST_CASE("read_pytest_config throws impact::Error naming a malformed file", "[pytest_config]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pytest.ini", "[pytest]\nthis is not a key\n"},
      {"tox.ini", "x = 1\n"},
      {"setup.cfg", "[tool:pytest]\n  continuation without key\n"},
      {"pyproject.toml", "[tool.pytest.ini_options\ntestpaths = [\n"},
  };
  for (const auto& [name, content] : cases) {
    INFO(name);
    TempDir dir;
    dir.write(name, content);
    CHECK_THROWS_AS(read_pytest_config(dir.path(), ""), impact::Error);
    CHECK_THROWS_WITH(read_pytest_config(dir.path(), ""), Catch::Contains(name));
  }
}

TEST_CASE("read_pytest_config applies -o from PYTEST_ADDOPTS and the command line over the ini file", "[pytest_config]") {
  TempDir dir;
  dir.write("pytest.ini", "[pytest]\npython_files = test_*.py\ntestpaths = tests\npythonpath = src\n");
  SECTION("from PYTEST_ADDOPTS") {
    auto c = read_pytest_config(dir.path(), "-o python_files=check_*.py");
    CHECK(c.python_files == Strings{"check_*.py"});
    CHECK(c.testpaths == Strings{"tests"});
  }
  SECTION("from the command line, which comes after PYTEST_ADDOPTS (the last -o wins)") {
    auto c = read_pytest_config(dir.path(), PytestInvocation{"-o python_files=a_*.py", "", {"-o", "python_files=b_*.py c_*.py"}});
    CHECK(c.python_files == Strings{"b_*.py", "c_*.py"});
  }
  SECTION("-o addopts replaces the ini file's addopts") {
    dir.write("pytest.ini", "[pytest]\naddopts = -p app.one\n");
    auto c = read_pytest_config(dir.path(), PytestInvocation{"", "", {"-o", "addopts=-p app.two"}});
    CHECK(c.plugins == Strings{"app.two"});
  }
  SECTION("-o in the ini file's own addopts is not read (pytest 7 reads -o before addopts)") {
    dir.write("pytest.ini", "[pytest]\naddopts = -o python_files=check_*.py\n");
    CHECK(read_pytest_config(dir.path(), "").python_files == k_default_python_files);
  }
  SECTION("an -o without '=' stops impact as it stops pytest") {
    CHECK_THROWS_AS(read_pytest_config(dir.path(), "-o python_files"), Error);
  }
}

TEST_CASE("read_pytest_config reads the file -c names, whose folder is the rootdir", "[pytest_config]") {
  TempDir dir;
  dir.write("pytest.ini", "[pytest]\npython_files = root_*.py\n");
  dir.write("ci/pytest-ci.ini", "[pytest]\npython_files = check_*.py\npythonpath = ../src\n");
  auto c = read_pytest_config(dir.path(), PytestInvocation{"", "", {"-c", "ci/pytest-ci.ini"}});
  CHECK(c.inifile == "ci/pytest-ci.ini");
  CHECK(c.rootdir == "ci");
  CHECK(c.python_files == Strings{"check_*.py"});
  CHECK(c.pythonpath == Strings{"src"});
  SECTION("--rootdir wins") {
    auto d = read_pytest_config(dir.path(), PytestInvocation{"--rootdir=.", "", {"-c", "ci/pytest-ci.ini"}});
    CHECK(d.rootdir.empty());
  }
  SECTION("a .toml file is read for [tool.pytest.ini_options]") {
    dir.write("ci/alt.toml", "[tool.pytest.ini_options]\ntestpaths = [\"x\"]\n");
    CHECK(read_pytest_config(dir.path(), "-c ci/alt.toml").testpaths == Strings{"x"});
  }
  SECTION("a missing file is an error") {
    CHECK_THROWS_AS(read_pytest_config(dir.path(), "-c ci/missing.ini"), Error);
  }
  SECTION("-c in the ini file's addopts is not read") {
    dir.write("pytest.ini", "[pytest]\naddopts = -c ci/pytest-ci.ini\n");
    CHECK(read_pytest_config(dir.path(), "").inifile == "pytest.ini");
  }
}

TEST_CASE("read_pytest_config reads positional paths from addopts, PYTEST_ADDOPTS and the command line", "[pytest_config]") {
  TempDir dir;
  dir.write("pytest.ini", "[pytest]\naddopts = extra -k smoke\n");
  auto c = read_pytest_config(dir.path(), PytestInvocation{"./tests/check_a.py::test_x", "", {"-m", "slow", "more/"}});
  CHECK(c.arg_paths == Strings{"extra", "tests/check_a.py", "more"});
  SECTION("absolute paths inside the repository are made relative") {
    auto d = read_pytest_config(dir.path(), PytestInvocation{"", "", {(dir.path() / "abs/x.py").string()}});
    CHECK(d.arg_paths == Strings{"extra", "abs/x.py"});
  }
  SECTION("-p and PYTEST_PLUGINS from every place") {
    auto d = read_pytest_config(dir.path(), PytestInvocation{"-p one", "two", {"-pthree"}});
    CHECK(d.plugins == Strings{"one", "three", "two"});
  }
}

TEST_CASE("read_pytest_config looks for the ini file from the common folder of the path arguments up", "[pytest_config]") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.pytest.ini_options]\npython_files = [\"root_*.py\"]\n");
  dir.write("pkg/tests/pytest.ini", "[pytest]\npython_files = pkg_*.py\n");
  dir.write("pkg/tests/unit/test_a.py", "");
  dir.write("pkg/tests/e2e/test_b.py", "");
  SECTION("two paths below the folder with the file") {
    auto c = read_pytest_config(dir.path(), PytestInvocation{"", "", {"pkg/tests/unit/test_a.py::t", "pkg/tests/e2e"}});
    CHECK(c.inifile == "pkg/tests/pytest.ini");
    CHECK(c.rootdir == "pkg/tests");
    CHECK(c.python_files == Strings{"pkg_*.py"});
  }
  SECTION("paths whose common folder is above it find the root's") {
    dir.write("other/test_c.py", "");
    auto c = read_pytest_config(dir.path(), PytestInvocation{"", "", {"pkg/tests/unit", "other"}});
    CHECK(c.inifile == "pyproject.toml");
    CHECK(c.rootdir.empty());
  }
  SECTION("a path that does not exist is not a folder to look in") {
    auto c = read_pytest_config(dir.path(), PytestInvocation{"", "", {"pkg/tests/missing.py"}});
    CHECK(c.inifile == "pyproject.toml");
  }
}
