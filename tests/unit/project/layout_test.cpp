#include "impact/project.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::Project;

namespace {

using Strings = std::vector<std::string>;

// The layout of `files` (paths only, Python files with no content) under `config`.
struct Layout {
  std::unique_ptr<testing::Built> built;
  const ProjectLayout& operator*() const { return *built->layout; }
  const ProjectLayout* operator->() const { return built->layout.get(); }
};

Layout layout_of(const Strings& files, PytestConfig config = {}) {
  Project p;
  p.config = std::move(config);
  for (const auto& f : files) p.file(f);
  return Layout{testing::build(p)};
}

Layout layout_of_project(const Project& p) { return Layout{testing::build(p)}; }

bool collected(const Layout& layout, const std::string& path) { return layout->matches_test_pattern(RepoPath(path)); }

bool has_root(const Layout& layout, const std::string& root) {
  const auto& roots = layout->import_roots();
  return std::find(roots.begin(), roots.end(), root) != roots.end();
}

// Whether a test module with `source` has something pytest collects, under `config`.
bool collectible(std::string_view source, PytestConfig config = {}) {
  auto layout = layout_of(Strings{}, std::move(config));
  return layout->has_collectible_items(testing::extract(source));
}

} // namespace

TEST_CASE("ProjectLayout matches python_files like pytest", "[layout]") {
  SECTION("the default patterns test_*.py and *_test.py") {
    auto l = layout_of({"tests/test_a.py", "tests/a_test.py", "tests/helpers.py", "tests/conftest.py",
                        "src/app/test_utils.py", "README.md", "test_top.py", "tests/test_data.json"});
    CHECK(collected(l, "tests/test_a.py"));
    CHECK(collected(l, "tests/a_test.py"));
    CHECK(collected(l, "src/app/test_utils.py"));
    CHECK(collected(l, "test_top.py"));
    CHECK_FALSE(collected(l, "tests/helpers.py"));
    CHECK_FALSE(collected(l, "tests/conftest.py"));
    CHECK_FALSE(collected(l, "README.md"));
    CHECK_FALSE(collected(l, "tests/test_data.json"));
  }
  SECTION("custom patterns replace the defaults") {
    PytestConfig c;
    c.python_files = {"check_*.py"};
    auto l = layout_of({"tests/check_a.py", "tests/test_a.py"}, c);
    CHECK(collected(l, "tests/check_a.py"));
    CHECK_FALSE(collected(l, "tests/test_a.py"));
  }
  SECTION("a pattern with '/' matches the end of the path") {
    PytestConfig c;
    c.python_files = {"unit/*.py"};
    auto l = layout_of({"tests/unit/helpers.py", "tests/other/helpers.py", "unit/x.py"}, c);
    CHECK(collected(l, "tests/unit/helpers.py"));
    CHECK(collected(l, "unit/x.py"));
    CHECK_FALSE(collected(l, "tests/other/helpers.py"));
  }
}

TEST_CASE("ProjectLayout collects only under testpaths when they are set", "[layout]") {
  SECTION("a folder") {
    PytestConfig c;
    c.testpaths = {"tests"};
    auto l = layout_of({"tests/test_a.py", "src/app/test_utils.py", "tests_extra/test_b.py"}, c);
    CHECK(collected(l, "tests/test_a.py"));
    CHECK_FALSE(collected(l, "src/app/test_utils.py"));
    CHECK_FALSE(collected(l, "tests_extra/test_b.py"));
  }
  SECTION("several folders, a trailing slash and a file named directly") {
    PytestConfig c;
    c.testpaths = {"tests/unit/", "integration", "checks/smoke.py"};
    auto l = layout_of(
        {"tests/unit/test_a.py", "tests/e2e/test_b.py", "integration/test_c.py", "checks/smoke.py", "checks/other.py"},
        c);
    CHECK(collected(l, "tests/unit/test_a.py"));
    CHECK(collected(l, "integration/test_c.py"));
    CHECK(collected(l, "checks/smoke.py"));
    CHECK_FALSE(collected(l, "tests/e2e/test_b.py"));
    CHECK_FALSE(collected(l, "checks/other.py"));
  }
  SECTION("a glob expanded against the project's folders") {
    PytestConfig c;
    c.testpaths = {"packages/*/tests"};
    auto l =
        layout_of({"packages/a/tests/test_x.py", "packages/b/tests/deep/test_y.py", "packages/a/src/test_z.py"}, c);
    CHECK(collected(l, "packages/a/tests/test_x.py"));
    CHECK(collected(l, "packages/b/tests/deep/test_y.py"));
    CHECK_FALSE(collected(l, "packages/a/src/test_z.py"));
  }
}

TEST_CASE("ProjectLayout collects files below a testpaths glob by python_files only", "[layout]") {
  // pytest expands testpaths = ["tests/*"] with glob.glob: tests/unit (a folder) and tests/top.py (a file
  // named directly, collected whatever its name). tests/unit/helpers.py is reached by recursing into
  // tests/unit, where python_files decides.
  PytestConfig c;
  c.testpaths = {"tests/*"};
  auto l = layout_of({"tests/unit/test_a.py", "tests/unit/helpers.py", "tests/top.py"}, c);
  CHECK(collected(l, "tests/unit/test_a.py"));
  CHECK(collected(l, "tests/top.py"));
  CHECK_FALSE(collected(l, "tests/unit/helpers.py"));
}

TEST_CASE("ProjectLayout skips folders matching norecursedirs", "[layout]") {
  SECTION("the defaults") {
    auto l = layout_of({".tox/py311/test_a.py", ".hidden/test_b.py", "build/test_c.py", "dist/test_d.py",
                        "venv/lib/test_e.py", "node_modules/pkg/test_f.py", "thing.egg/test_g.py", "CVS/test_h.py",
                        "builder/test_ok.py", "tests/test_build.py"});
    CHECK_FALSE(collected(l, ".tox/py311/test_a.py"));
    CHECK_FALSE(collected(l, ".hidden/test_b.py"));
    CHECK_FALSE(collected(l, "build/test_c.py"));
    CHECK_FALSE(collected(l, "dist/test_d.py"));
    CHECK_FALSE(collected(l, "venv/lib/test_e.py"));
    CHECK_FALSE(collected(l, "node_modules/pkg/test_f.py"));
    CHECK_FALSE(collected(l, "thing.egg/test_g.py"));
    CHECK_FALSE(collected(l, "CVS/test_h.py"));
    CHECK(collected(l, "builder/test_ok.py"));
    CHECK(collected(l, "tests/test_build.py"));
  }
  SECTION("a virtualenv found by its pyvenv.cfg, whatever its name") {
    auto l = layout_of({"env311/pyvenv.cfg", "env311/lib/site-packages/pkg/test_x.py", "tests/test_a.py"});
    CHECK_FALSE(collected(l, "env311/lib/site-packages/pkg/test_x.py"));
    CHECK(collected(l, "tests/test_a.py"));
  }
  SECTION("a custom list replaces the defaults") {
    PytestConfig c;
    c.norecursedirs = {"legacy*"};
    auto l = layout_of({"legacy_v1/test_a.py", "build/test_b.py"}, c);
    CHECK_FALSE(collected(l, "legacy_v1/test_a.py"));
    CHECK(collected(l, "build/test_b.py"));
  }
  SECTION("a collection root itself is not matched") {
    PytestConfig c;
    c.testpaths = {"build"};
    auto l = layout_of({"build/test_a.py", "build/.cache/test_b.py"}, c);
    CHECK(collected(l, "build/test_a.py"));
    CHECK_FALSE(collected(l, "build/.cache/test_b.py"));
  }
}

TEST_CASE("ProjectLayout honours --ignore, --ignore-glob and conftest collect_ignore", "[layout]") {
  SECTION("--ignore paths, by whole components") {
    PytestConfig c;
    c.ignore_paths = {"tests/legacy", "tests/test_slow.py"};
    auto l =
        layout_of({"tests/legacy/test_a.py", "tests/legacy_new/test_b.py", "tests/test_slow.py", "tests/test_c.py"}, c);
    CHECK_FALSE(collected(l, "tests/legacy/test_a.py"));
    CHECK_FALSE(collected(l, "tests/test_slow.py"));
    CHECK(collected(l, "tests/legacy_new/test_b.py"));
    CHECK(collected(l, "tests/test_c.py"));
  }
  SECTION("--ignore-glob") {
    PytestConfig c;
    c.ignore_globs = {"*_wip.py"};
    auto l = layout_of({"tests/test_x_wip.py", "tests/test_x.py"}, c);
    CHECK_FALSE(collected(l, "tests/test_x_wip.py"));
    CHECK(collected(l, "tests/test_x.py"));
  }
  SECTION("collect_ignore and collect_ignore_glob, relative to the conftest.py") {
    Project p;
    p.file("tests/conftest.py", "collect_ignore = ['test_skip.py', 'old']\ncollect_ignore_glob = ['*_wip.py']\n")
        .file("tests/test_skip.py")
        .file("tests/old/test_a.py")
        .file("tests/test_feature_wip.py")
        .file("tests/test_ok.py")
        .file("other/test_skip.py")
        .file("other/test_more_wip.py");
    auto l = layout_of_project(p);
    CHECK_FALSE(collected(l, "tests/test_skip.py"));
    CHECK_FALSE(collected(l, "tests/old/test_a.py"));
    CHECK_FALSE(collected(l, "tests/test_feature_wip.py"));
    CHECK(collected(l, "tests/test_ok.py"));
    CHECK(collected(l, "other/test_skip.py"));
    CHECK(collected(l, "other/test_more_wip.py"));
  }
}

TEST_CASE("ProjectLayout puts the folders tests import from on its import roots", "[layout]") {
  SECTION("the repository root always") {
    auto l = layout_of({"README.md"});
    CHECK(has_root(l, ""));
  }
  SECTION("pythonpath entries") {
    PytestConfig c;
    c.pythonpath = {"lib", "tools/python"};
    auto l = layout_of({"lib/x.py"}, c);
    CHECK(has_root(l, "lib"));
    CHECK(has_root(l, "tools/python"));
  }
  SECTION("src/ folders") {
    auto l = layout_of({"src/app/__init__.py", "src/app/models.py", "services/api/src/api/__init__.py"});
    CHECK(has_root(l, "src"));
    CHECK(has_root(l, "services/api/src"));
  }
  SECTION("the folder above every top-level package, but not above nested ones") {
    auto l =
        layout_of({"libs/core/corepkg/__init__.py", "libs/core/corepkg/sub/__init__.py", "libs/core/corepkg/sub/m.py"});
    CHECK(has_root(l, "libs/core"));
    CHECK_FALSE(has_root(l, "libs/core/corepkg"));
    CHECK(l->is_package_dir("libs/core/corepkg"));
    CHECK(l->is_package_dir("libs/core/corepkg/sub"));
    CHECK_FALSE(l->is_package_dir("libs/core"));
  }
  SECTION("folders of test files and conftest.py files outside packages") {
    auto l = layout_of({"tests/unit/test_a.py", "tests/conftest.py", "pkgtests/__init__.py", "pkgtests/test_b.py"});
    CHECK(has_root(l, "tests/unit"));
    CHECK(has_root(l, "tests"));
    CHECK_FALSE(has_root(l, "pkgtests"));
  }
  SECTION("folders holding project files") {
    auto l = layout_of({"plugins/myplugin/setup.py", "plugins/myplugin/myplugin.py"});
    CHECK(has_root(l, "plugins/myplugin"));
  }
  SECTION("a package at the root makes the root an import root, and the root a package") {
    auto l = layout_of({"__init__.py", "mod.py"});
    CHECK(has_root(l, ""));
    CHECK(l->is_package_dir(""));
  }
}

TEST_CASE("ProjectLayout finds collectible test functions by python_functions", "[layout]") {
  SECTION("default prefix 'test'") {
    CHECK(collectible("def test_a():\n    pass\n"));
    CHECK(collectible("async def test_a():\n    pass\n"));
    CHECK(collectible("def testing_thing():\n    pass\n"));
    CHECK_FALSE(collectible("def helper():\n    pass\n"));
    CHECK_FALSE(collectible("def helper():\n    def test_inner():\n        pass\n"));
  }
  SECTION("custom prefixes and globs") {
    PytestConfig c;
    c.python_functions = {"check_", "*_spec"};
    CHECK(collectible("def check_a():\n    pass\n", c));
    CHECK(collectible("def login_spec():\n    pass\n", c));
    CHECK_FALSE(collectible("def test_a():\n    pass\n", c));
  }
  SECTION("is_test_name and is_test_class_name") {
    PytestConfig c;
    c.python_classes = {"Test", "*Suite"};
    auto l = layout_of(Strings{}, c);
    CHECK(l->is_test_name("test_x"));
    CHECK_FALSE(l->is_test_name("x_test"));
    CHECK(l->is_test_class_name("TestX"));
    CHECK(l->is_test_class_name("LoginSuite"));
    CHECK_FALSE(l->is_test_class_name("Helper"));
  }
}

TEST_CASE("ProjectLayout finds collectible test classes like pytest", "[layout]") {
  SECTION("a Test class with a test method") {
    CHECK(collectible("class TestA:\n    def test_m(self):\n        pass\n"));
  }
  SECTION("a Test class with only helpers") {
    CHECK_FALSE(collectible("class TestA:\n    def helper(self):\n        pass\n"));
  }
  SECTION("a Test class with __init__ is not collected") {
    CHECK_FALSE(
        collectible("class TestA:\n    def __init__(self):\n        pass\n    def test_m(self):\n        pass\n"));
  }
  SECTION("test methods of a class not named like a test class") {
    CHECK_FALSE(collectible("class Helper:\n    def test_m(self):\n        pass\n"));
  }
  SECTION("a nested Test class with a test method") {
    CHECK(collectible("class TestA:\n    class TestInner:\n        def test_m(self):\n            pass\n"));
  }
  SECTION("unittest.TestCase subclasses, whatever their name") {
    CHECK(collectible("import unittest\nclass Checks(unittest.TestCase):\n    def runTest(self):\n        pass\n"));
    CHECK(collectible("from unittest import TestCase\nclass Checks(TestCase):\n    pass\n"));
  }
  SECTION("a Test class with bases may inherit its tests") {
    CHECK(collectible("class TestA(BaseTests):\n    pass\n"));
  }
}

TEST_CASE("ProjectLayout does not count test methods of nested classes pytest does not collect", "[layout]") {
  // pytest collects a nested class only when its name matches python_classes: Inner.test_m is never run.
  CHECK_FALSE(collectible("class TestA:\n    class Inner:\n        def test_m(self):\n            pass\n"));
}

TEST_CASE("ProjectLayout counts imported and assigned test names as collectible", "[layout]") {
  SECTION("an imported test function or class") {
    CHECK(collectible("from tests.common import test_shared\n"));
    CHECK(collectible("from tests.common import TestShared\n"));
    CHECK(collectible("from tests.common import shared as test_shared\n"));
  }
  SECTION("an import inside a function does not count") {
    CHECK_FALSE(collectible("def f():\n    from tests.common import test_shared\n"));
  }
  SECTION("other imported names do not count") {
    CHECK_FALSE(collectible("from app import models\nimport test_support\n"));
  }
  SECTION("a star import may bring tests") { CHECK(collectible("from tests.common import *\n")); }
  SECTION("a module-level name bound to a test") { CHECK(collectible("test_alias = make_test()\n")); }
  SECTION("a file that does not parse may hold tests") { CHECK(collectible("def broken(:\n")); }
}

TEST_CASE("ProjectLayout collects pytest's positional paths as well as testpaths", "[layout]") {
  PytestConfig c;
  c.testpaths = {"tests"};
  c.arg_paths = {"extra", "tools/check_db.py", "missing"};
  auto l = layout_of({"tests/test_a.py", "extra/test_b.py", "tools/check_db.py", "tools/test_c.py"}, c);
  CHECK(collected(l, "tests/test_a.py"));
  CHECK(collected(l, "extra/test_b.py"));
  CHECK(collected(l, "tools/check_db.py")); // a file named is collected whatever its name
  CHECK_FALSE(collected(l, "tools/test_c.py"));
  SECTION("a file named is collected whatever --ignore says") {
    c.ignore_paths = {"tools"};
    CHECK(collected(layout_of({"tools/check_db.py"}, c), "tools/check_db.py"));
  }
  SECTION("an --ignore of the folder named, or of one above it, excludes nothing below it") {
    c.ignore_paths = {"extra", "tests/sub"};
    auto m = layout_of({"extra/test_b.py", "tests/sub/test_d.py"}, c);
    CHECK(collected(m, "extra/test_b.py"));
    CHECK_FALSE(collected(m, "tests/sub/test_d.py"));
  }
}

TEST_CASE("ProjectLayout ignores testpaths when the rootdir is not where pytest runs", "[layout]") {
  PytestConfig c;
  c.testpaths = {"tests"};
  c.rootdir = "src";
  auto l = layout_of({"tests/test_a.py", "other/test_b.py"}, c);
  CHECK(collected(l, "tests/test_a.py"));
  CHECK(collected(l, "other/test_b.py"));
}

TEST_CASE("ProjectLayout resolves --pyargs module names to every matching file or package", "[layout]") {
  PytestConfig c;
  c.testpaths = {"tests"};
  c.pyargs = true;
  c.arg_paths = {"app.checks", "app.check_one"};
  auto l = layout_of({"tests/test_a.py", "src/app/checks/test_b.py", "src/app/check_one.py", "app/checks/test_c.py"}, c);
  CHECK(collected(l, "src/app/checks/test_b.py"));
  CHECK(collected(l, "app/checks/test_c.py"));
  CHECK(collected(l, "src/app/check_one.py"));
  CHECK(collected(l, "tests/test_a.py"));
}
