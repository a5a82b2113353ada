// The symbol walk through decide(): a project, one changed file (its text before and after), and the
// node ids the symbol level selects. No git, no pytest.
#include "impact/decision.hpp"
#include "impact/semantic.hpp"
#include "decision/rules/references.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::change_set;
using impact::testing::modified;
using impact::testing::node_ids;
using impact::testing::Project;

namespace {

using Strings = std::vector<std::string>;

// Decides at symbol level on `project`, where `path` changed from `before` to what the project holds.
Strings select(const Project& project, const std::string& path, const std::string& before) {
  auto built = testing::build(project);
  ChangeSet changes = change_set({modified(path)});
  std::string after;
  for (const auto& [p, content] : project.files) {
    if (p == path) after = content;
  }
  std::vector<FileSemantics> semantics{diff_semantics(changes.files.front(), before, after)};
  DecisionInput input{.changes = changes, .graph = built->graph, .ignore = {}};
  input.facts = &built->facts;
  input.layout = built->layout.get();
  input.semantics = &semantics;
  return node_ids(decide(input));
}

// `project` with `path` edited: `from` replaced by `to`; returns the selection.
Strings edit(Project project, const std::string& path, std::string_view from, std::string_view to) {
  std::string before;
  for (const auto& [p, content] : project.files) {
    if (p == path) before = content;
  }
  std::string after = before;
  auto at = after.find(from);
  REQUIRE(at != std::string::npos);
  after.replace(at, from.size(), to);
  project.file(path, after);
  return select(project, path, before);
}

Project calls() {
  Project p;
  p.file("app/__init__.py")
      .file("app/ops.py", "def add(a, b):\n    return a + b\n\ndef neg(a):\n    return -a\n")
      .file("tests/test_ops.py", "from app.ops import add, neg\n\ndef test_add():\n    assert add(1, 2) == 3\n\n"
                                 "def test_neg():\n    assert neg(1) == -1\n");
  return p;
}

} // namespace

TEST_CASE("the symbol walk selects only the tests that call a changed function", "[symbol_walk]") {
  CHECK(edit(calls(), "app/ops.py", "return a + b", "return b + a") == Strings{"tests/test_ops.py::test_add"});
}

TEST_CASE("the symbol walk reaches the makers of instances for methods that builtins call by protocol", "[symbol_walk]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/record.py", "class Record:\n    def keys(self):\n        return ['a']\n\n"
                             "    def __getitem__(self, k):\n        return 1\n\n    def size(self):\n        return 1\n")
      .file("tests/test_record.py", "from app.record import Record\n\ndef test_dict():\n    assert dict(Record())\n\n"
                                    "def test_size():\n    assert Record().size() == 1\n\ndef test_other():\n    pass\n");
  SECTION("keys(), read by dict(obj): the tests that make a Record") {
    CHECK(edit(p, "app/record.py", "return ['a']", "return ['a', 'b']") ==
          Strings{"tests/test_record.py::test_dict", "tests/test_record.py::test_size"});
  }
  SECTION("an ordinary method still reaches its callers only") {
    CHECK(edit(p, "app/record.py", "def size(self):\n        return 1", "def size(self):\n        return 1 + 0") ==
          Strings{"tests/test_record.py::test_size"});
  }
}

TEST_CASE("the symbol walk hands a reached class on to its subclasses, and a method to inheriting tests", "[symbol_walk]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/shapes.py", "class Shape:\n    def __init__(self, n):\n        self.n = n\n\n    def area(self):\n        return self.n\n\n"
                             "class Square(Shape):\n    pass\n")
      .file("tests/checks.py", "from app.shapes import Shape\n\nclass ShapeChecks(Shape):\n    def test_area(self):\n"
                               "        assert self.area() >= 0\n")
      .file("tests/test_square.py", "from app.shapes import Square\n\ndef test_square():\n    assert Square(2).n == 2\n\n"
                                    "def test_nothing():\n    pass\n")
      .file("tests/test_inherit.py", "from checks import ShapeChecks\n\nclass TestShape(ShapeChecks):\n    n = 1\n")
      .file("tests/test_other.py", "from app import shapes\n\ndef test_other():\n    assert shapes\n");
  p.config.pythonpath = {"tests"};
  SECTION("a changed __init__ reaches the callers of the subclasses, and the test classes deriving from it") {
    // pytest makes an instance of each test class: TestShape runs Shape.__init__ too.
    CHECK(edit(p, "app/shapes.py", "self.n = n", "self.n = int(n)") ==
          Strings{"tests/test_inherit.py", "tests/test_square.py::test_square"});
  }
  SECTION("a changed method reaches the test classes that inherit it, through a base in another module") {
    CHECK(edit(p, "app/shapes.py", "return self.n", "return self.n + 0") == Strings{"tests/test_inherit.py"});
  }
}

TEST_CASE("the symbol walk treats classes of registering hierarchies as made without their name", "[symbol_walk]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/formats.py", "REG = {}\n\nclass Format:\n    def __init_subclass__(cls, **kw):\n        REG[cls.__name__] = cls\n\n"
                              "class Hex(Format):\n    def __init__(self):\n        self.upper = False\n\n"
                              "def create(name):\n    return REG[name]()\n")
      .file("tests/test_formats.py", "from app.formats import create\n\ndef test_hex():\n    assert create('Hex')\n")
      .file("tests/test_other.py", "def test_other():\n    pass\n");
  CHECK(edit(p, "app/formats.py", "self.upper = False", "self.upper = True") == Strings{"tests/test_formats.py"});
}

TEST_CASE("the symbol walk tells a project's own decorator from the known wrapper of that name", "[symbol_walk]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/registry.py", "TABLE = {}\n\ndef cache(fn):\n    TABLE[fn.__name__] = fn\n    return fn\n")
      .file("app/handlers.py", "import functools\nfrom app.registry import cache\n\n@cache\ndef shout(s):\n    return s.upper()\n\n"
                               "@functools.lru_cache(maxsize=None)\ndef width(s):\n    return len(s)\n")
      .file("tests/test_handlers.py", "import app.handlers\nfrom app.registry import TABLE\n\ndef test_shout():\n"
                                      "    assert TABLE['shout']('a') == 'A'\n\ndef test_width():\n"
                                      "    assert app.handlers.width('ab') == 2\n");
  SECTION("the project's `cache` registers: every importer") {
    CHECK(edit(p, "app/handlers.py", "return s.upper()", "return s.upper() + ''") == Strings{"tests/test_handlers.py"});
  }
  SECTION("functools.lru_cache is the wrapper: the callers") {
    CHECK(edit(p, "app/handlers.py", "return len(s)", "return len(s) + 0") == Strings{"tests/test_handlers.py::test_width"});
  }
}

TEST_CASE("the symbol walk counts module.__dict__ and inspect.getmembers as reading every name", "[symbol_walk]") {
  Project p = calls();
  p.file("app/table.py", "from app import ops\n\nBY_NAME = dict(ops.__dict__)\n")
      .file("app/members.py", "import inspect\nfrom app import ops\n\ndef functions():\n"
                              "    return dict(inspect.getmembers(ops, inspect.isfunction))\n")
      .file("tests/test_table.py", "from app.table import BY_NAME\n\ndef test_by_name():\n    assert BY_NAME['neg'](1) == -1\n")
      .file("tests/test_members.py", "from app.members import functions\n\ndef test_functions():\n    assert functions()\n\n"
                                     "def test_nothing():\n    pass\n");
  CHECK(edit(p, "app/ops.py", "return -a", "return 0 - a") ==
        Strings{"tests/test_members.py::test_functions", "tests/test_ops.py::test_neg", "tests/test_table.py"});
}

TEST_CASE("the symbol walk keeps a reference a later star import may rebind", "[symbol_walk]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/fast.py", "def run(x):\n    return x\n")
      .file("app/api.py", "def run(x):\n    return x + 0\n\nfrom app.fast import *\n")
      .file("tests/test_api.py", "from app import api\n\ndef test_run():\n    assert api.run(1) == 1\n");
  CHECK(edit(p, "app/fast.py", "return x", "return x * 1") == Strings{"tests/test_api.py::test_run"});
  SECTION("a star import before the definition cannot rebind it") {
    p.file("app/api.py", "from app.fast import *\n\ndef run(x):\n    return x + 0\n");
    CHECK(edit(p, "app/fast.py", "return x", "return x * 1").empty());
  }
}

TEST_CASE("the symbol walk follows fixtures into inherited tests and installed plugins", "[symbol_walk]") {
  Project p;
  p.config.pythonpath = {"tests"};
  p.file("tests/conftest.py", "import pytest\n\n@pytest.fixture\ndef db():\n    return 1\n\n"
                              "@pytest.fixture\ndef backend():\n    return 'x'\n")
      .file("tests/checks.py", "class DbChecks:\n    def test_db(self, db):\n        assert db\n")
      .file("tests/test_inherits.py", "from checks import DbChecks\n\nclass TestDb(DbChecks):\n    pass\n")
      .file("tests/test_plain.py", "def test_plain():\n    pass\n");
  SECTION("a test inherited from a class in another module requests the fixture") {
    CHECK(edit(p, "tests/conftest.py", "return 1", "return 2") == Strings{"tests/test_inherits.py"});
  }
  SECTION("a fixture nothing here requests is an installed plugin's: every test in scope") {
    CHECK(edit(p, "tests/conftest.py", "return 'x'", "return 'y'") ==
          Strings{"tests/test_inherits.py", "tests/test_plain.py"});
  }
}

TEST_CASE("a computed getattr with a literal start looks up only members that start so, and __getattr__",
          "[symbol_walk]") {
  // docs/selection.md `dynamic-access`: getattr(self, "visit_" + kind).
  using decision::rules::ReferenceRules;
  CHECK(ReferenceRules::looks_up("", "anything"));
  CHECK(ReferenceRules::looks_up("visit_", "visit_Name"));
  CHECK(ReferenceRules::looks_up("visit_", "visit_"));
  CHECK_FALSE(ReferenceRules::looks_up("visit_", "generic_visit"));
  CHECK_FALSE(ReferenceRules::looks_up("visit_", "visit"));
  CHECK(ReferenceRules::looks_up("visit_", "__getattr__"));      // a name no member has lands there
  CHECK(ReferenceRules::looks_up("visit_", "__getattribute__")); // every lookup runs it
}

TEST_CASE("a renamed import is followed after the walk has indexed many modules' renames", "[symbol_walk]") {
  // f0 <- f1 <- ... <- f39, one module each: the aliases of f39 are asked after 32 modules were indexed
  // (ReferenceRules::k_modules_before_renamed_names), when names nobody renames skip the index.
  Project p;
  p.file("app/__init__.py").file("app/m0.py", "def f0():\n    return 0\n");
  for (int i = 1; i < 40; ++i) {
    p.file("app/m" + std::to_string(i) + ".py", "from app.m" + std::to_string(i - 1) + " import f" +
                                                    std::to_string(i - 1) + "\n\ndef f" + std::to_string(i) +
                                                    "():\n    return f" + std::to_string(i - 1) + "()\n");
  }
  p.file("tests/test_last.py", "from app.m39 import f39 as run\n\ndef test_renamed():\n    assert run() == 0\n\n"
                               "def test_other():\n    assert True\n");
  CHECK(edit(p, "app/m0.py", "return 0", "return 0 + 0") == Strings{"tests/test_last.py::test_renamed"});
}
