#include "impact/graph.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::find_edge;
using impact::testing::has_edge;
using impact::testing::Project;
using impact::testing::targets;

namespace {

using Strings = std::vector<std::string>;

// A package `app` at the root with a few modules.
Project app_project() {
  Project p;
  p.file("app/__init__.py")
      .file("app/models.py", "class User:\n    pass\n")
      .file("app/views.py")
      .file("app/sub/__init__.py")
      .file("app/sub/deep.py");
  return p;
}

} // namespace

TEST_CASE("build_import_graph makes a node per Python file, ghosts last", "[import_graph]") {
  auto p = app_project();
  p.file("README.md").file("tests/test_a.py", "def test_a():\n    pass\n").file("tests/conftest.py");
  auto b = testing::build(p, {"app/old.py", "app/models.py"});
  const auto& g = b->graph;
  CHECK(g.nodes.size() == 8); // 7 Python files and one new ghost (app/models.py still exists)
  CHECK(g.out.size() == g.nodes.size());
  CHECK(g.in.size() == g.nodes.size());
  CHECK_FALSE(g.find("README.md").has_value());
  CHECK(g.find("app/old.py") == 7u);
  CHECK(g.nodes[7].ghost);
  CHECK_FALSE(b->node("app/models.py").ghost);
  SECTION("roles") {
    CHECK(b->node("tests/test_a.py").test);
    CHECK(b->node("tests/test_a.py").test_pattern);
    CHECK(b->node("tests/conftest.py").conftest);
    CHECK_FALSE(b->node("tests/conftest.py").test);
    CHECK_FALSE(b->node("app/models.py").test);
  }
  SECTION("module names") {
    CHECK(b->node("app/models.py").module_names == Strings{"app.models"});
    CHECK(b->node("app/__init__.py").module_names == Strings{"app"});
    CHECK(b->node("app/old.py").module_names == Strings{"app.old"});
  }
}

TEST_CASE("build_import_graph resolves absolute imports and their packages", "[import_graph]") {
  auto p = app_project();
  p.file("main.py", "import os\n\nimport app.sub.deep\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "main.py", "app/sub/deep.py", EdgeKind::import_));
  CHECK(has_edge(g, "main.py", "app/sub/__init__.py", EdgeKind::import_));
  CHECK(has_edge(g, "main.py", "app/__init__.py", EdgeKind::import_));
  CHECK(find_edge(g, "main.py", "app/sub/deep.py")->line == 3);
  CHECK(targets(g, "main.py") == Strings{"app/__init__.py", "app/sub/__init__.py", "app/sub/deep.py"});
  SECTION("the reverse edges mirror the forward ones") {
    auto deep = *g.find("app/sub/deep.py");
    auto main = *g.find("main.py");
    bool found = false;
    for (const auto& [from, edge] : g.in[deep]) {
      if (from == main && edge.kind == EdgeKind::import_ && edge.line == 3) found = true;
    }
    CHECK(found);
  }
}

TEST_CASE("build_import_graph links from-imports to the submodules they name", "[import_graph]") {
  auto p = app_project();
  p.file("main.py", "from app import models, helper_function\nfrom app.models import User\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "main.py", "app/__init__.py", EdgeKind::from_import));
  CHECK(has_edge(g, "main.py", "app/models.py", EdgeKind::from_import));
  CHECK(find_edge(g, "main.py", "app/models.py")->line == 1); // the first evidence is kept
  CHECK_FALSE(find_edge(g, "main.py", "app/views.py"));
}

TEST_CASE("build_import_graph resolves relative imports from the file's package", "[import_graph]") {
  auto p = app_project();
  p.file("app/sub/rel.py", "from . import deep\nfrom .. import views\nfrom ..models import User\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "app/sub/rel.py", "app/sub/deep.py", EdgeKind::from_import));
  CHECK(has_edge(g, "app/sub/rel.py", "app/views.py", EdgeKind::from_import));
  CHECK(has_edge(g, "app/sub/rel.py", "app/models.py", EdgeKind::from_import));
  CHECK(find_edge(g, "app/sub/rel.py", "app/sub/__init__.py") != nullptr);
  CHECK(find_edge(g, "app/sub/rel.py", "app/__init__.py") != nullptr);
  SECTION("inside a package's __init__.py, '.' is the package itself") {
    auto q = app_project();
    q.file("app/sub/__init__.py", "from .deep import thing\n");
    auto c = testing::build(q);
    CHECK(has_edge(c->graph, "app/sub/__init__.py", "app/sub/deep.py", EdgeKind::from_import));
  }
}

TEST_CASE("build_import_graph follows star imports into the submodules __all__ names", "[import_graph]") {
  Project p;
  p.file("pkg/__init__.py", "__all__ = ['a', 'b', 'some_function']\n")
      .file("pkg/a.py")
      .file("pkg/b.py")
      .file("pkg/c.py")
      .file("user.py", "from pkg import *\n")
      .file("pkg/inner/__init__.py")
      .file("pkg/inner/rel.py", "from .. import *\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "user.py", "pkg/__init__.py", EdgeKind::star_import));
  CHECK(has_edge(g, "user.py", "pkg/a.py", EdgeKind::star_import));
  CHECK(has_edge(g, "user.py", "pkg/b.py", EdgeKind::star_import));
  CHECK_FALSE(find_edge(g, "user.py", "pkg/c.py"));
  SECTION("a relative star import too") {
    CHECK(has_edge(g, "pkg/inner/rel.py", "pkg/a.py", EdgeKind::star_import));
    CHECK(has_edge(g, "pkg/inner/rel.py", "pkg/b.py", EdgeKind::star_import));
    CHECK_FALSE(find_edge(g, "pkg/inner/rel.py", "pkg/c.py"));
  }
}

TEST_CASE("build_import_graph resolves a script's imports from its own folder", "[import_graph]") {
  Project p;
  p.file("scripts/run.py", "import helpers\nfrom tools import fmt\nimport requests\n")
      .file("scripts/helpers.py")
      .file("scripts/tools/__init__.py")
      .file("scripts/tools/fmt.py");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "scripts/run.py", "scripts/helpers.py", EdgeKind::import_));
  CHECK(has_edge(g, "scripts/run.py", "scripts/tools/__init__.py", EdgeKind::from_import));
  CHECK(has_edge(g, "scripts/run.py", "scripts/tools/fmt.py", EdgeKind::from_import));
  CHECK(targets(g, "scripts/run.py").size() == 3);
}

TEST_CASE("build_import_graph ignores third-party imports", "[import_graph]") {
  auto p = app_project();
  p.file("main.py", "import os.path\nimport requests\nfrom django.db import models\nimport application\n");
  auto b = testing::build(p);
  CHECK(targets(b->graph, "main.py").empty());
}

TEST_CASE("build_import_graph links a name found under several import roots to every match", "[import_graph]") {
  Project p;
  p.config.pythonpath = {"lib"};
  p.file("src/shared/__init__.py")
      .file("src/shared/util.py")
      .file("lib/shared/__init__.py")
      .file("lib/shared/util.py")
      .file("main.py", "import shared.util\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "main.py", "src/shared/util.py", EdgeKind::import_));
  CHECK(has_edge(g, "main.py", "lib/shared/util.py", EdgeKind::import_));
  CHECK(has_edge(g, "main.py", "src/shared/__init__.py", EdgeKind::import_));
  CHECK(has_edge(g, "main.py", "lib/shared/__init__.py", EdgeKind::import_));
}

TEST_CASE("build_import_graph resolves relative imports across a namespace package's portions in several roots", "[import_graph]") {
  Project p;
  p.config.pythonpath = {"src", "lib"};
  p.file("src/nsp/a.py", "from . import b\nfrom .c import f\n")
      .file("src/nsp/deep/x.py", "from ..b import g\n")
      .file("lib/nsp/b.py")
      .file("lib/nsp/c.py");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "src/nsp/a.py", "lib/nsp/b.py", EdgeKind::from_import));
  CHECK(has_edge(g, "src/nsp/a.py", "lib/nsp/c.py", EdgeKind::from_import));
  CHECK(has_edge(g, "src/nsp/deep/x.py", "lib/nsp/b.py", EdgeKind::from_import));
}

TEST_CASE("relative_module_names climbs the importer's dotted names", "[import_graph]") {
  GraphNode module;
  module.path = RepoPath("src/nsp/sub/a.py");
  module.module_names = {"nsp.sub.a", "src.nsp.sub.a"};
  CHECK(relative_module_names(module, 1, "") == Strings{"nsp.sub", "src.nsp.sub"});
  CHECK(relative_module_names(module, 2, "b.c") == Strings{"nsp.b.c", "src.nsp.b.c"});
  CHECK(relative_module_names(module, 3, "b") == Strings{"src.b"}); // above the top of `nsp`
  GraphNode package;
  package.path = RepoPath("src/nsp/sub/__init__.py");
  package.module_names = {"nsp.sub"};
  CHECK(relative_module_names(package, 1, "x") == Strings{"nsp.sub.x"});
  CHECK(relative_module_names(package, 2, "") == Strings{"nsp"});
}

TEST_CASE("build_import_graph adds the edges Python implies to package __init__.py files", "[import_graph]") {
  auto b = testing::build(app_project());
  const auto& g = b->graph;
  CHECK(has_edge(g, "app/models.py", "app/__init__.py", EdgeKind::package_init));
  CHECK(find_edge(g, "app/models.py", "app/__init__.py")->line == 0);
  CHECK(has_edge(g, "app/sub/deep.py", "app/sub/__init__.py", EdgeKind::package_init));
  CHECK(has_edge(g, "app/sub/__init__.py", "app/__init__.py", EdgeKind::package_init));
  CHECK(targets(g, "app/__init__.py").empty());
}

TEST_CASE("build_import_graph links test modules and conftest.py files to the nearest conftest.py above",
          "[import_graph]") {
  Project p;
  p.file("conftest.py")
      .file("tests/conftest.py")
      .file("tests/unit/conftest.py")
      .file("tests/unit/test_a.py", "def test_a():\n    pass\n")
      .file("tests/other/test_b.py", "def test_b():\n    pass\n")
      .file("tests/unit/helpers.py");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "tests/unit/test_a.py", "tests/unit/conftest.py", EdgeKind::conftest));
  CHECK_FALSE(find_edge(g, "tests/unit/test_a.py", "tests/conftest.py"));
  CHECK(has_edge(g, "tests/unit/conftest.py", "tests/conftest.py", EdgeKind::conftest));
  CHECK(has_edge(g, "tests/conftest.py", "conftest.py", EdgeKind::conftest));
  CHECK(has_edge(g, "tests/other/test_b.py", "tests/conftest.py", EdgeKind::conftest));
  CHECK(targets(g, "conftest.py").empty());
  CHECK_FALSE(find_edge(g, "tests/unit/helpers.py", "tests/unit/conftest.py"));
}

TEST_CASE("build_import_graph keeps deleted files as ghosts that importers link to", "[import_graph]") {
  auto p = app_project();
  p.file("main.py", "import app.old\nfrom app import gone\n");
  auto b = testing::build(p, {"app/old.py", "app/gone/__init__.py"});
  const auto& g = b->graph;
  CHECK(b->node("app/old.py").ghost);
  CHECK(has_edge(g, "main.py", "app/old.py", EdgeKind::import_));
  CHECK(has_edge(g, "main.py", "app/gone/__init__.py", EdgeKind::from_import));
  CHECK(has_edge(g, "app/old.py", "app/__init__.py", EdgeKind::package_init));
}

TEST_CASE("build_import_graph links pytest plugins", "[import_graph]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/fixtures.py")
      .file("app/session_plugin.py")
      .file("app/entry.py")
      .file("app/settings.py")
      .file("app/unused.py")
      .file("tests/conftest.py", "pytest_plugins = ['app.fixtures']\n")
      .file("tests/test_a.py", "def test_a():\n    pass\n");
  p.config.plugins = {"app.session_plugin", "no:cacheprovider"};
  p.config.entry_point_plugins = {"app.entry"};
  p.config.values = {"app.settings", "-q", "app.nothing"};
  auto b = testing::build(p);
  const auto& g = b->graph;
  SECTION("pytest_plugins in a conftest.py") {
    CHECK(has_edge(g, "tests/conftest.py", "app/fixtures.py", EdgeKind::pytest_plugin));
    CHECK(find_edge(g, "tests/conftest.py", "app/fixtures.py")->line == 1);
  }
  SECTION("-p plugins, entry points and module names in settings reach every test module") {
    CHECK(has_edge(g, "tests/test_a.py", "app/session_plugin.py", EdgeKind::pytest_plugin));
    CHECK(has_edge(g, "tests/test_a.py", "app/entry.py", EdgeKind::pytest_plugin));
    CHECK(has_edge(g, "tests/test_a.py", "app/settings.py", EdgeKind::pytest_plugin));
    CHECK(has_edge(g, "tests/test_a.py", "app/__init__.py", EdgeKind::pytest_plugin));
    CHECK_FALSE(find_edge(g, "tests/test_a.py", "app/unused.py"));
  }
  SECTION("but not modules that are no tests") {
    CHECK_FALSE(find_edge(g, "app/fixtures.py", "app/session_plugin.py"));
  }
}

TEST_CASE("build_import_graph links dynamic imports", "[import_graph]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/models.py")
      .file("app/handlers/__init__.py")
      .file("app/handlers/a.py")
      .file("app/handlers/b.py")
      .file("app/handlersx.py")
      .file("app/loader.py", "import importlib\n"
                             "def load(name):\n"
                             "    importlib.import_module('app.models')\n"
                             "    return importlib.import_module('app.handlers.' + name)\n")
      .file("app/anything.py", "import importlib\n"
                               "def load(name):\n"
                               "    return importlib.import_module(name)\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  SECTION("a literal name") { CHECK(has_edge(g, "app/loader.py", "app/models.py", EdgeKind::dynamic_import)); }
  SECTION("a bounded prefix reaches every module under it and its packages") {
    CHECK(has_edge(g, "app/loader.py", "app/handlers/a.py", EdgeKind::dynamic_prefix));
    CHECK(has_edge(g, "app/loader.py", "app/handlers/b.py", EdgeKind::dynamic_prefix));
    CHECK(has_edge(g, "app/loader.py", "app/handlers/__init__.py", EdgeKind::dynamic_prefix));
    CHECK(find_edge(g, "app/loader.py", "app/handlers/a.py")->line == 4);
    CHECK_FALSE(find_edge(g, "app/loader.py", "app/handlersx.py"));
    CHECK_FALSE(find_edge(g, "app/loader.py", "app/anything.py"));
  }
  SECTION("an unbounded import is listed, not linked") {
    REQUIRE(g.unbounded.size() == 1);
    CHECK(g.nodes[g.unbounded[0].node].path.str == "app/anything.py");
    CHECK(g.unbounded[0].line == 3);
    CHECK(g.unbounded[0].call == "importlib.import_module");
    CHECK(targets(g, "app/anything.py") == Strings{"app/__init__.py"});
  }
}

namespace {

// A relative computed import in app/plugins/, and a sibling folder whose name starts the same.
Project relative_loader_project() {
  Project p;
  p.file("app/__init__.py")
      .file("app/plugins/__init__.py")
      .file("app/plugins/one.py")
      .file("app/plugins/loader.py", "from importlib import import_module\n"
                                     "def load(name):\n"
                                     "    return import_module('.' + name, __package__)\n")
      .file("app/pluginsextra/__init__.py")
      .file("app/pluginsextra/other.py")
      .file("app/core.py");
  return p;
}

} // namespace

TEST_CASE("build_import_graph bounds a relative computed import by its package", "[import_graph]") {
  auto b = testing::build(relative_loader_project());
  const auto& g = b->graph;
  CHECK(g.unbounded.empty());
  CHECK(has_edge(g, "app/plugins/loader.py", "app/plugins/one.py", EdgeKind::dynamic_prefix));
  CHECK_FALSE(find_edge(g, "app/plugins/loader.py", "app/core.py"));
}

TEST_CASE("build_import_graph keeps a relative computed import out of sibling folders with a longer name",
          "[import_graph]") {
  // import_module('.' + name, 'app.plugins') can only load app.plugins.<name>, never app/pluginsextra/.
  auto b = testing::build(relative_loader_project());
  const auto& g = b->graph;
  CHECK_FALSE(find_edge(g, "app/plugins/loader.py", "app/pluginsextra/other.py"));
  CHECK_FALSE(find_edge(g, "app/plugins/loader.py", "app/pluginsextra/__init__.py"));
}

TEST_CASE("build_import_graph links string references to the longest module prefix", "[import_graph]") {
  auto p = app_project();
  p.file("tests/test_refs.py", "def test_x():\n"
                               "    patch('app.models.User')\n"
                               "    route('app.views:index')\n"
                               "    patch('os.path.join')\n"
                               "    patch('app.thing')\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "tests/test_refs.py", "app/models.py", EdgeKind::string_ref));
  CHECK(find_edge(g, "tests/test_refs.py", "app/models.py")->line == 2);
  CHECK(has_edge(g, "tests/test_refs.py", "app/views.py", EdgeKind::string_ref));
  CHECK_FALSE(find_edge(g, "tests/test_refs.py", "app/sub/deep.py"));
}

TEST_CASE("build_import_graph keeps one edge per pair and none to the file itself", "[import_graph]") {
  auto p = app_project();
  p.file("app/self_ref.py", "import app.self_ref\nimport app.models\nfrom app import models\nx = 'app.models.User'\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  auto self = *g.find("app/self_ref.py");
  size_t to_models = 0;
  for (const auto& e : g.out[self]) {
    CHECK(e.target != self);
    if (g.nodes[e.target].path.str == "app/models.py") ++to_models;
  }
  CHECK(to_models == 1);
  CHECK(find_edge(g, "app/self_ref.py", "app/models.py")->kind == EdgeKind::import_);
}

TEST_CASE("build_import_graph marks doctest modules as tests under --doctest-modules", "[import_graph]") {
  Project p;
  p.file("app/calc.py", "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return a + b\n")
      .file("setup.py", "'''\n>>> 1\n'''\n")
      .file("app/plain.py", "x = 1\n");
  SECTION("off") { CHECK_FALSE(testing::build(p)->node("app/calc.py").test); }
  SECTION("on") {
    p.config.doctest_modules = true;
    auto b = testing::build(p);
    CHECK(b->node("app/calc.py").test);
    CHECK_FALSE(b->node("app/plain.py").test);
    CHECK_FALSE(b->node("setup.py").test);
  }
}

TEST_CASE("to_string(EdgeKind) gives the relation names chains use", "[import_graph]") {
  CHECK(to_string(EdgeKind::import_) == "import");
  CHECK(to_string(EdgeKind::from_import) == "from_import");
  CHECK(to_string(EdgeKind::star_import) == "star_import");
  CHECK(to_string(EdgeKind::dynamic_import) == "dynamic_import");
  CHECK(to_string(EdgeKind::dynamic_prefix) == "dynamic_prefix");
  CHECK(to_string(EdgeKind::pytest_plugin) == "pytest_plugin");
  CHECK(to_string(EdgeKind::string_ref) == "string_ref");
  CHECK(to_string(EdgeKind::package_init) == "package_init");
  CHECK(to_string(EdgeKind::conftest) == "conftest");
}

TEST_CASE("build_import_graph gives the same graph on any number of threads", "[import_graph]") {
  // Every kind of link, spread over enough files that each thread gets several.
  Project p;
  p.file("app/__init__.py", "__all__ = ['m0', 'm1']\n");
  for (int i = 0; i < 40; ++i) {
    std::string body = fmt::format(
        "import app.m{0}\nfrom app import m{1}\nfrom . import m{2}\nfrom .m{3} import f\nfrom app import *\n"
        "import importlib\nimportlib.import_module('app.m{4}')\nimportlib.import_module('app.' + name)\n"
        "importlib.import_module(name)\nPATCH = 'app.m{5}.f'\nimport neighbour{6}\n",
        (i + 1) % 40, (i + 7) % 40, (i + 3) % 40, (i + 11) % 40, (i + 5) % 40, (i + 13) % 40, i % 3);
    p.file(fmt::format("app/m{}.py", i), body + "def f():\n    pass\n");
    p.file(fmt::format("tests/test_m{}.py", i), fmt::format("from app.m{} import f\n\n\ndef test_f():\n    f()\n", i));
  }
  p.file("scripts/neighbour0.py").file("scripts/neighbour1.py").file("tests/conftest.py", "pytest_plugins = ['app.m3']\n");
  auto built = testing::build(p, {"app/gone.py"});
  auto edges = [](const ImportGraph& g) {
    std::vector<std::tuple<uint32_t, uint32_t, int, uint32_t>> out;
    for (uint32_t a = 0; a < g.out.size(); ++a) {
      for (const auto& e : g.out[a]) out.emplace_back(a, e.target, static_cast<int>(e.kind), e.line);
    }
    return out;
  };
  auto unbounded = [](const ImportGraph& g) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto& u : g.unbounded) out.emplace_back(u.node, u.line);
    return out;
  };
  std::vector<RepoPath> ghosts{RepoPath("app/gone.py")};
  // One thread per file at most, so that this small project is split as a large one would be.
  ImportGraph one = build_import_graph(*built->layout, built->facts, ghosts, 1, 1);
  REQUIRE(edges(one).size() > 400);
  REQUIRE(unbounded(one).size() == 40);
  for (unsigned threads : {2u, 3u, 7u, 1000u}) {
    ImportGraph many = build_import_graph(*built->layout, built->facts, ghosts, threads, 1);
    CHECK(edges(many) == edges(one));
    CHECK(unbounded(many) == unbounded(one));
    REQUIRE(many.in.size() == one.in.size());
    for (size_t b = 0; b < one.in.size(); ++b) {
      CHECK(many.in[b].size() == one.in[b].size());
    }
  }
}

TEST_CASE("build_import_graph links a literal dynamic import of a file whose name is no identifier",
          "[import_graph]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/my-plugin.py")
      .file("app/plugins/__init__.py")
      .file("app/plugins/my stats.py")
      .file("app/ｓｃａｌｅ.py")
      .file("app/loader.py", "import importlib\n"
                             "def load():\n"
                             "    importlib.import_module('app.my-plugin')\n"
                             "    importlib.import_module('.plugins.my stats', package='app')\n"
                             "    importlib.import_module('app.ｓｃａｌｅ')\n"
                             "    __import__('json')\n")
      .file("app/missing.py", "import importlib\n"
                              "def load():\n"
                              "    return importlib.import_module('app.not-here')\n")
      .file("app/relative_missing.py", "import importlib\n"
                                       "def load():\n"
                                       "    return importlib.import_module('.gone away', package=__name__)\n");
  auto b = testing::build(p);
  const auto& g = b->graph;
  SECTION("the file of that name") {
    CHECK(has_edge(g, "app/loader.py", "app/my-plugin.py", EdgeKind::dynamic_import));
    CHECK(has_edge(g, "app/loader.py", "app/plugins/my stats.py", EdgeKind::dynamic_import));
    CHECK(has_edge(g, "app/loader.py", "app/ｓｃａｌｅ.py", EdgeKind::dynamic_import));
  }
  SECTION("a name no file has is unbounded, unless it is a plain identifier (third-party)") {
    REQUIRE(g.unbounded.size() == 2);
    CHECK(g.nodes[g.unbounded[0].node].path.str == "app/missing.py");
    CHECK(g.unbounded[0].literal == "app.not-here");
    CHECK(g.unbounded[0].line == 3);
    CHECK(g.nodes[g.unbounded[1].node].path.str == "app/relative_missing.py");
    CHECK(g.unbounded[1].literal == "gone away");
  }
}

TEST_CASE("build_import_graph links pytest plugins whose module names are no identifiers", "[import_graph]") {
  Project p;
  p.file("app/__init__.py")
      .file("app/my-fixtures.py")
      .file("app/session-plugin.py")
      .file("tests/conftest.py", "pytest_plugins = ['app.my-fixtures']\n")
      .file("tests/test_a.py", "def test_a():\n    pass\n");
  p.config.plugins = {"app.session-plugin"};
  auto b = testing::build(p);
  const auto& g = b->graph;
  CHECK(has_edge(g, "tests/conftest.py", "app/my-fixtures.py", EdgeKind::pytest_plugin));
  CHECK(has_edge(g, "tests/test_a.py", "app/session-plugin.py", EdgeKind::pytest_plugin));
}
