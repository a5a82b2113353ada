#include "impact/decision.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::added;
using impact::testing::change_set;
using impact::testing::deleted;
using impact::testing::modified;
using impact::testing::node_ids;
using impact::testing::Project;
using impact::testing::renamed;
using impact::testing::selected_test;

namespace {

using Strings = std::vector<std::string>;

// src/app (a package under src/), tests under tests/ with two conftest.py levels.
Project shop() {
  Project p;
  p.file("pyproject.toml")
      .file("setup.py", "from setuptools import setup\nsetup()\n")
      .file("docs/index.md")
      .file("src/app/__init__.py")
      .file("src/app/db.py", "CONNECTION = None\n")
      .file("src/app/models.py", "from app import db\n\nclass User:\n    pass\n")
      .file("src/app/views.py", "from app.models import User\n")
      .file("src/app/unused.py")
      .file("tests/conftest.py")
      .file("tests/unit/conftest.py")
      .file("tests/unit/test_models.py", "from app.models import User\n\ndef test_user():\n    assert User\n")
      .file("tests/unit/test_views.py", "import app.views\n\ndef test_view():\n    pass\n")
      .file("tests/integration/test_db.py", "from app import db\n\ndef test_db():\n    pass\n");
  return p;
}

// shop() with a module that imports a computed name, and a test that loads it.
Project shop_with_loader() {
  Project p = shop();
  p.file("src/app/plugins/__init__.py")
      .file("src/app/plugins/loader.py",
            "import importlib\n\ndef load(name):\n    return importlib.import_module(name)\n")
      .file("tests/integration/test_plugins.py", "from app.plugins import loader\n\ndef test_load():\n    pass\n");
  return p;
}

struct Run {
  std::unique_ptr<testing::Built> built;
  ChangeSet changes;
  Decision decision;
};

Run decide_on(const Project& project, std::vector<ChangedFile> files, const std::vector<std::string>& ghosts = {},
              std::vector<std::string> ignore = {}, bool strict = false, Mode mode = Mode::balanced) {
  Run run;
  run.built = testing::build(project, ghosts);
  run.changes = change_set(std::move(files));
  DecisionInput input{
      .changes = run.changes, .graph = run.built->graph, .ignore = std::move(ignore), .strict = strict, .mode = mode};
  run.decision = decide(input);
  return run;
}

const FileVerdict& verdict(const Decision& d, std::string_view path) {
  for (const auto& v : d.files) {
    if (v.path.str == path) return v;
  }
  FAIL("no verdict for " << path);
  return d.files.front();
}

const Strings k_all_tests{"tests/integration/test_db.py", "tests/unit/test_models.py", "tests/unit/test_views.py"};

} // namespace

TEST_CASE("decide selects the tests that load a changed module, transitively", "[decide]") {
  auto r = decide_on(shop(), {modified("src/app/db.py")});
  CHECK(r.decision.outcome == Outcome::selected);
  CHECK(r.decision.reason == Reason::none);
  CHECK(node_ids(r.decision) == k_all_tests);
  SECTION("the verdict counts the test files reached") {
    const auto& v = verdict(r.decision, "src/app/db.py");
    CHECK(v.kind == FileKind::python);
    CHECK(v.status == FileStatus::modified);
    CHECK(v.tests == 3);
    CHECK_FALSE(v.effect.empty());
  }
  SECTION("a module further up reaches fewer tests") {
    auto s = decide_on(shop(), {modified("src/app/views.py")});
    CHECK(node_ids(s.decision) == Strings{"tests/unit/test_views.py"});
  }
}

TEST_CASE("decide chains start at the test and end at the changed file", "[decide]") {
  auto r = decide_on(shop(), {modified("src/app/db.py")});
  const auto* t = selected_test(r.decision, "tests/unit/test_views.py");
  REQUIRE(t != nullptr);
  CHECK(testing::hops(t->chain) == Strings{"tests/unit/test_views.py import 1", "src/app/views.py from_import 1",
                                           "src/app/models.py from_import 1", "src/app/db.py modified 0"});
  CHECK(t->note.empty());
  for (const auto& test : r.decision.selected) {
    INFO(test.node_id);
    REQUIRE_FALSE(test.chain.empty());
    CHECK(test.chain.front().path == test.node_id);
    CHECK(test.chain.back().path == "src/app/db.py");
  }
}

TEST_CASE("decide selects a changed test file itself", "[decide]") {
  SECTION("modified") {
    auto r = decide_on(shop(), {modified("tests/unit/test_models.py")});
    CHECK(r.decision.outcome == Outcome::selected);
    CHECK(node_ids(r.decision) == Strings{"tests/unit/test_models.py"});
    CHECK(testing::hops(r.decision.selected[0].chain) == Strings{"tests/unit/test_models.py modified 0"});
    const auto& v = verdict(r.decision, "tests/unit/test_models.py");
    CHECK(v.kind == FileKind::test);
    CHECK(v.tests == 1);
  }
  SECTION("added") {
    auto p = shop();
    p.file("tests/unit/test_new.py", "def test_new():\n    pass\n");
    auto r = decide_on(p, {added("tests/unit/test_new.py")});
    CHECK(node_ids(r.decision) == Strings{"tests/unit/test_new.py"});
    CHECK(r.decision.selected[0].chain.back().relation == Relation::added);
  }
}

TEST_CASE("decide selects the subtree of a changed conftest.py", "[decide]") {
  SECTION("a nested conftest.py: the tests below it") {
    auto r = decide_on(shop(), {modified("tests/unit/conftest.py")});
    CHECK(node_ids(r.decision) == Strings{"tests/unit/test_models.py", "tests/unit/test_views.py"});
    CHECK(verdict(r.decision, "tests/unit/conftest.py").kind == FileKind::conftest);
  }
  SECTION("the top conftest.py: every test below it, through the nested one") {
    auto r = decide_on(shop(), {modified("tests/conftest.py")});
    CHECK(node_ids(r.decision) == k_all_tests);
    const auto* t = selected_test(r.decision, "tests/unit/test_models.py");
    REQUIRE(t != nullptr);
    CHECK(testing::hops(t->chain) == Strings{"tests/unit/test_models.py conftest 0",
                                             "tests/unit/conftest.py conftest 0", "tests/conftest.py modified 0"});
  }
}

TEST_CASE("decide selects the subtree of a deleted conftest.py", "[decide]") {
  auto p = shop();
  Project without;
  without.config = p.config;
  for (const auto& [path, content] : p.files) {
    if (path != "tests/unit/conftest.py") without.file(path, content);
  }
  auto r = decide_on(without, {deleted("tests/unit/conftest.py")}, {"tests/unit/conftest.py"});
  CHECK(r.decision.outcome == Outcome::selected);
  CHECK(node_ids(r.decision) == Strings{"tests/unit/test_models.py", "tests/unit/test_views.py"});
  const auto& v = verdict(r.decision, "tests/unit/conftest.py");
  CHECK(v.kind == FileKind::conftest);
  CHECK(v.status == FileStatus::deleted);
  for (const auto& t : r.decision.selected)
    CHECK(testing::hop_text(t.chain.back()) == "tests/unit/conftest.py deleted 0");
}

TEST_CASE("decide reaches the importers of a deleted module through its ghost", "[decide]") {
  Project without;
  for (const auto& [path, content] : shop().files) {
    if (path != "src/app/db.py") without.file(path, content);
  }
  auto r = decide_on(without, {deleted("src/app/db.py")}, {"src/app/db.py"});
  CHECK(r.decision.outcome == Outcome::selected);
  CHECK(node_ids(r.decision) == k_all_tests);
  const auto* t = selected_test(r.decision, "tests/integration/test_db.py");
  REQUIRE(t != nullptr);
  CHECK(testing::hop_text(t->chain.back()) == "src/app/db.py deleted 0");
}

TEST_CASE("decide reaches every module of a package whose __init__.py was deleted", "[decide]") {
  Project without;
  for (const auto& [path, content] : shop().files) {
    if (path != "src/app/__init__.py") without.file(path, content);
  }
  auto r = decide_on(without, {deleted("src/app/__init__.py")}, {"src/app/__init__.py"});
  CHECK(r.decision.outcome == Outcome::selected);
  CHECK(node_ids(r.decision) == k_all_tests);
}

TEST_CASE("decide reaches the importers of a renamed module's old name", "[decide]") {
  Project p;
  for (const auto& [path, content] : shop().files) {
    if (path != "src/app/db.py") p.file(path, content);
  }
  p.file("src/app/database.py", "CONNECTION = None\n");
  auto r = decide_on(p, {renamed("src/app/db.py", "src/app/database.py")}, {"src/app/db.py"});
  CHECK(node_ids(r.decision) == k_all_tests);
  const auto& v = verdict(r.decision, "src/app/database.py");
  CHECK(v.old_path.str == "src/app/db.py");
  CHECK(v.status == FileStatus::renamed);
  const auto* t = selected_test(r.decision, "tests/integration/test_db.py");
  REQUIRE(t != nullptr);
  REQUIRE_FALSE(t->chain.empty());
  CHECK(testing::hop_text(t->chain.back()) == "src/app/db.py renamed_away 0");
}

TEST_CASE("decide runs everything when a configuration file changes", "[decide]") {
  SECTION("pyproject.toml") {
    auto r = decide_on(shop(), {modified("pyproject.toml"), modified("src/app/db.py")});
    CHECK(r.decision.outcome == Outcome::run_all);
    CHECK(r.decision.reason == Reason::config_changed);
    CHECK_THAT(r.decision.detail, Catch::Contains("pyproject.toml changed"));
    CHECK(r.decision.selected.empty());
    CHECK(verdict(r.decision, "pyproject.toml").kind == FileKind::config);
    CHECK_THAT(verdict(r.decision, "pyproject.toml").effect, Catch::Contains("config_changed"));
  }
  SECTION("setup.py, a Python file that configures the project") {
    auto r = decide_on(shop(), {modified("setup.py")});
    CHECK(r.decision.outcome == Outcome::run_all);
    CHECK(r.decision.reason == Reason::config_changed);
  }
  SECTION("a requirements file that is new") {
    auto r = decide_on(shop(), {added("requirements-dev.txt")});
    CHECK(r.decision.outcome == Outcome::run_all);
    CHECK(r.decision.reason == Reason::config_changed);
  }
}

TEST_CASE("decide runs everything when a file that is not Python changes", "[decide]") {
  auto r = decide_on(shop(), {modified("assets/prices.json")});
  CHECK(r.decision.outcome == Outcome::run_all);
  CHECK(r.decision.reason == Reason::non_python_changed);
  CHECK_THAT(r.decision.detail, Catch::Contains("assets/prices.json"));
  CHECK(verdict(r.decision, "assets/prices.json").kind == FileKind::non_python);
  SECTION("with several triggers the first names the reason and the detail lists them all") {
    auto s = decide_on(shop(), {modified("assets/prices.json"), modified("pyproject.toml")});
    CHECK(s.decision.reason == Reason::non_python_changed);
    CHECK_THAT(s.decision.detail, Catch::Contains("assets/prices.json") && Catch::Contains("pyproject.toml"));
  }
}

TEST_CASE("decide leaves out files matched by the ignore globs", "[decide]") {
  SECTION("only ignored files: nothing to run") {
    auto r = decide_on(shop(), {modified("docs/index.md")}, {}, {"docs/"});
    CHECK(r.decision.outcome == Outcome::nothing);
    CHECK(r.decision.reason == Reason::only_ignored_files);
    CHECK(verdict(r.decision, "docs/index.md").kind == FileKind::ignored);
  }
  SECTION("ignored files next to a Python change") {
    auto r = decide_on(shop(), {modified("docs/index.md"), modified("src/app/views.py")}, {}, {"*.md"});
    CHECK(r.decision.outcome == Outcome::selected);
    CHECK(node_ids(r.decision) == Strings{"tests/unit/test_views.py"});
  }
  SECTION("an ignored Python file") {
    auto r = decide_on(shop(), {modified("src/app/db.py")}, {}, {"src/app/db.py"});
    CHECK(r.decision.outcome == Outcome::nothing);
    CHECK(r.decision.reason == Reason::only_ignored_files);
  }
}

TEST_CASE("decide runs everything when a Python file's executable bit changes", "[decide]") {
  // A test may run the file as a program (a subprocess of ./tool.py): no import shows that.
  ChangedFile chmod = modified("src/app/db.py");
  chmod.mode_changed = true;
  auto r = decide_on(shop(), {chmod});
  CHECK(r.decision.outcome == Outcome::run_all);
  CHECK(r.decision.reason == Reason::mode_changed);
  CHECK(verdict(r.decision, "src/app/db.py").kind == FileKind::mode);
  SECTION("an ignored file's mode is ignored too") {
    auto s = decide_on(shop(), {chmod}, {}, {"src/app/db.py"});
    CHECK(s.decision.reason == Reason::only_ignored_files);
  }
}

TEST_CASE("decide runs everything when a submodule changes", "[decide]") {
  ChangedFile sub = modified("vendor/lib");
  sub.submodule = true;
  auto r = decide_on(shop(), {sub});
  CHECK(r.decision.outcome == Outcome::run_all);
  CHECK(r.decision.reason == Reason::submodule_changed);
  CHECK(verdict(r.decision, "vendor/lib").kind == FileKind::submodule);
}

TEST_CASE("decide selects the tests that load an unbounded dynamic import, with a note", "[decide]") {
  auto r = decide_on(shop_with_loader(), {modified("src/app/db.py")});
  CHECK(r.decision.outcome == Outcome::selected);
  Strings expected = k_all_tests;
  expected.push_back("tests/integration/test_plugins.py");
  std::sort(expected.begin(), expected.end());
  CHECK(node_ids(r.decision) == expected);
  const auto* t = selected_test(r.decision, "tests/integration/test_plugins.py");
  REQUIRE(t != nullptr);
  CHECK_THAT(t->note, Catch::Contains("src/app/plugins/loader.py:4"));
  CHECK(testing::hops(t->chain) == Strings{"tests/integration/test_plugins.py from_import 1",
                                           "src/app/plugins/loader.py dynamic_import_may_load 4",
                                           "src/app/db.py modified 0"});
  const auto* db_test = selected_test(r.decision, "tests/integration/test_db.py");
  REQUIRE(db_test != nullptr);
  CHECK(db_test->note.empty());
  REQUIRE(r.decision.uncertainties.size() == 1);
  CHECK(r.decision.uncertainties[0].path == "src/app/plugins/loader.py");
  CHECK(r.decision.uncertainties[0].line == 4);
  CHECK_THAT(r.decision.uncertainties[0].what, Catch::Contains("importlib.import_module"));
  CHECK(r.decision.warnings.empty());
}

TEST_CASE("decide with --strict runs everything for an unbounded dynamic import", "[decide]") {
  auto r = decide_on(shop_with_loader(), {modified("src/app/db.py")}, {}, {}, true);
  CHECK(r.decision.outcome == Outcome::run_all);
  CHECK(r.decision.reason == Reason::uncertain_dynamic_import);
  CHECK_THAT(r.decision.detail, Catch::Contains("src/app/plugins/loader.py:4"));
  CHECK(r.decision.selected.empty());
}

TEST_CASE("decide in fast mode only warns about an unbounded dynamic import", "[decide]") {
  auto r = decide_on(shop_with_loader(), {modified("src/app/db.py")}, {}, {}, false, Mode::fast);
  CHECK(r.decision.outcome == Outcome::selected);
  CHECK(node_ids(r.decision) == k_all_tests);
  REQUIRE(r.decision.warnings.size() == 1);
  CHECK_THAT(r.decision.warnings[0], Catch::Contains("src/app/plugins/loader.py:4"));
  CHECK(r.decision.mode_requested == Mode::fast);
  CHECK(r.decision.mode_effective == Mode::fast);
  SECTION("fast mode wins over strict") {
    auto s = decide_on(shop_with_loader(), {modified("src/app/db.py")}, {}, {}, true, Mode::fast);
    CHECK(s.decision.outcome == Outcome::selected);
  }
}

TEST_CASE("decide adds nothing for an unbounded import the change reaches anyway or no test loads", "[decide]") {
  SECTION("the change is the loader itself") {
    auto r = decide_on(shop_with_loader(), {modified("src/app/plugins/loader.py")});
    CHECK(node_ids(r.decision) == Strings{"tests/integration/test_plugins.py"});
    CHECK(r.decision.uncertainties.empty());
    CHECK(r.decision.selected[0].note.empty());
  }
  SECTION("no test loads the loader") {
    auto p = shop_with_loader();
    p.file("tests/integration/test_plugins.py", "def test_nothing():\n    pass\n");
    auto r = decide_on(p, {modified("src/app/db.py")});
    CHECK(node_ids(r.decision) == k_all_tests);
    CHECK(r.decision.uncertainties.empty());
  }
  SECTION("no Python file changed") {
    auto r = decide_on(shop_with_loader(), {modified("docs/index.md")}, {}, {"docs/"});
    CHECK(r.decision.uncertainties.empty());
  }
}

TEST_CASE("decide says why nothing needs to run", "[decide]") {
  SECTION("no changes") {
    auto r = decide_on(shop(), {});
    CHECK(r.decision.outcome == Outcome::nothing);
    CHECK(r.decision.reason == Reason::no_changes);
    CHECK_FALSE(r.decision.detail.empty());
  }
  SECTION("no test reaches the change") {
    auto r = decide_on(shop(), {modified("src/app/unused.py")});
    CHECK(r.decision.outcome == Outcome::nothing);
    CHECK(r.decision.reason == Reason::no_tests_reached);
    const auto& v = verdict(r.decision, "src/app/unused.py");
    CHECK(v.tests == 0);
    CHECK_FALSE(v.effect.empty());
  }
  SECTION("only ignored files") {
    auto r = decide_on(shop(), {modified("docs/index.md")}, {}, {"docs/**"});
    CHECK(r.decision.outcome == Outcome::nothing);
    CHECK(r.decision.reason == Reason::only_ignored_files);
  }
}

TEST_CASE("decide sorts its selection by node id and lists every changed file", "[decide]") {
  auto r = decide_on(shop(), {modified("tests/unit/test_views.py"), modified("src/app/db.py"),
                              modified("tests/integration/test_db.py")});
  CHECK(node_ids(r.decision) == k_all_tests);
  CHECK(r.decision.files.size() == 3);
}
