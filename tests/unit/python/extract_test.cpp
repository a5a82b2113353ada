#include "impact/python/facts.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::extract;

namespace {

using Strings = std::vector<std::string>;

// The imports of `kind` whose module is `module`.
std::vector<ImportFact> imports_of(const FileFacts& facts, std::string_view module,
                                   std::optional<ImportKind> kind = std::nullopt) {
  std::vector<ImportFact> out;
  for (const auto& i : facts.imports) {
    if (i.module == module && (!kind || i.kind == *kind)) out.push_back(i);
  }
  return out;
}

// The one import of `module` with `kind`.
ImportFact the_import(const FileFacts& facts, std::string_view module, ImportKind kind) {
  auto found = imports_of(facts, module, kind);
  INFO("module '" << module << "' kind " << to_string(kind));
  REQUIRE(found.size() == 1);
  return found.front();
}

// The imports that are statements (not string references or dynamic imports).
std::vector<ImportFact> statement_imports(const FileFacts& facts) {
  std::vector<ImportFact> out;
  for (const auto& i : facts.imports) {
    if (i.kind == ImportKind::plain || i.kind == ImportKind::from || i.kind == ImportKind::star) out.push_back(i);
  }
  return out;
}

const Symbol& symbol(const FileFacts& facts, std::string_view qualname) {
  for (const auto& s : facts.symbols) {
    if (s.qualname == qualname) return s;
  }
  FAIL("no symbol " << qualname);
  return facts.symbols.front();
}

bool has_string_ref(const FileFacts& facts, std::string_view module) {
  return !imports_of(facts, module, ImportKind::string_ref).empty();
}

} // namespace

TEST_CASE("FactsExtractor reads plain imports", "[extract]") {
  SECTION("import a.b.c") {
    auto facts = extract("import a.b.c\n");
    auto i = the_import(facts, "a.b.c", ImportKind::plain);
    CHECK(i.level == 0);
    CHECK(i.flags == 0);
    CHECK(i.line == 1);
    CHECK(i.names.empty());
    CHECK(i.aliases == Strings{""});
  }
  SECTION("import a.b as c") {
    auto facts = extract("\nimport a.b as c\n");
    auto i = the_import(facts, "a.b", ImportKind::plain);
    CHECK(i.aliases == Strings{"c"});
    CHECK(i.line == 2);
  }
  SECTION("several modules in one statement make one fact each") {
    auto facts = extract("import os, app.models as m, json\n");
    auto found = statement_imports(facts);
    REQUIRE(found.size() == 3);
    CHECK(found[0].module == "os");
    CHECK(found[1].module == "app.models");
    CHECK(found[1].aliases == Strings{"m"});
    CHECK(found[2].module == "json");
    for (const auto& i : found) CHECK(i.line == 1);
  }
}

TEST_CASE("FactsExtractor reads from-imports with names and aliases", "[extract]") {
  SECTION("from a.b import c as d, e") {
    auto facts = extract("from a.b import c as d, e\n");
    auto i = the_import(facts, "a.b", ImportKind::from);
    CHECK(i.level == 0);
    CHECK(i.names == Strings{"c", "e"});
    CHECK(i.aliases == Strings{"d", "e"});
  }
  SECTION("a parenthesised list over several lines") {
    auto facts = extract("from app import (\n    models,\n    views as v,\n)\n");
    auto i = the_import(facts, "app", ImportKind::from);
    CHECK(i.names == Strings{"models", "views"});
    CHECK(i.aliases == Strings{"models", "v"});
    CHECK(i.line == 1);
  }
  SECTION("from a import *") {
    auto facts = extract("from a.b import *\n");
    auto i = the_import(facts, "a.b", ImportKind::star);
    CHECK(i.names.empty());
    CHECK(i.level == 0);
  }
}

TEST_CASE("FactsExtractor reads relative imports at every level", "[extract]") {
  SECTION("from . import x") {
    auto facts = extract("from . import x\n");
    auto i = the_import(facts, "", ImportKind::from);
    CHECK(i.level == 1);
    CHECK(i.names == Strings{"x"});
  }
  SECTION("from .mod import y") {
    auto i = the_import(extract("from .mod import y\n"), "mod", ImportKind::from);
    CHECK(i.level == 1);
    CHECK(i.names == Strings{"y"});
  }
  SECTION("from .. import *") {
    auto i = the_import(extract("from .. import *\n"), "", ImportKind::star);
    CHECK(i.level == 2);
  }
  SECTION("from ..pkg.sub import z as w") {
    auto i = the_import(extract("from ..pkg.sub import z as w\n"), "pkg.sub", ImportKind::from);
    CHECK(i.level == 2);
    CHECK(i.names == Strings{"z"});
    CHECK(i.aliases == Strings{"w"});
  }
  SECTION("from ...deep import q") {
    auto i = the_import(extract("from ...deep import q\n"), "deep", ImportKind::from);
    CHECK(i.level == 3);
  }
  SECTION("from .... import r") {
    auto i = the_import(extract("from .... import r\n"), "", ImportKind::from);
    CHECK(i.level == 4);
  }
}

TEST_CASE("FactsExtractor flags imports by where they sit", "[extract]") {
  SECTION("module level: no flags") { CHECK(the_import(extract("import a\n"), "a", ImportKind::plain).flags == 0); }
  SECTION("inside a function") {
    auto facts = extract("def f():\n    import a\n    from b import c\n");
    CHECK(the_import(facts, "a", ImportKind::plain).flags == k_import_in_function);
    CHECK(the_import(facts, "b", ImportKind::from).flags == k_import_in_function);
  }
  SECTION("inside a method") {
    auto facts = extract("class C:\n    def m(self):\n        import a\n");
    CHECK(the_import(facts, "a", ImportKind::plain).flags == k_import_in_function);
  }
  SECTION("a class body runs at import time") {
    auto facts = extract("class C:\n    import a\n");
    CHECK(the_import(facts, "a", ImportKind::plain).flags == 0);
  }
  SECTION("inside if / elif / else") {
    auto facts = extract("if X:\n    import a\nelif Y:\n    import b\nelse:\n    import c\n");
    CHECK(the_import(facts, "a", ImportKind::plain).flags == k_import_conditional);
    CHECK(the_import(facts, "b", ImportKind::plain).flags == k_import_conditional);
    CHECK(the_import(facts, "c", ImportKind::plain).flags == k_import_conditional);
  }
  SECTION("inside try / except ImportError") {
    auto facts = extract("try:\n    import ujson as json\nexcept ImportError:\n    import json\n");
    CHECK(the_import(facts, "ujson", ImportKind::plain).flags == k_import_guarded);
    CHECK(the_import(facts, "json", ImportKind::plain).flags == k_import_guarded);
  }
  SECTION("under if TYPE_CHECKING, and not in its else") {
    auto facts = extract("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.models import User\n"
                         "else:\n    User = None\n");
    auto i = the_import(facts, "app.models", ImportKind::from);
    CHECK((i.flags & k_import_type_checking) != 0);
    CHECK((i.flags & k_import_in_function) == 0);
    CHECK((i.flags & k_import_guarded) == 0);
  }
  SECTION("under if typing.TYPE_CHECKING") {
    auto facts = extract("import typing\nif typing.TYPE_CHECKING:\n    import app.models\n");
    CHECK((the_import(facts, "app.models", ImportKind::plain).flags & k_import_type_checking) != 0);
  }
  SECTION("the else of if TYPE_CHECKING is not type-checking only") {
    auto facts = extract("if TYPE_CHECKING:\n    import a\nelse:\n    import b\n");
    CHECK((the_import(facts, "b", ImportKind::plain).flags & k_import_type_checking) == 0);
    CHECK((the_import(facts, "b", ImportKind::plain).flags & k_import_conditional) != 0);
  }
  SECTION("flags accumulate through nesting") {
    auto facts = extract("def f():\n    try:\n        import a\n    except ImportError:\n        pass\n");
    CHECK(the_import(facts, "a", ImportKind::plain).flags == (k_import_in_function | k_import_guarded));
  }
  SECTION("with / for / while bodies are conditional") {
    auto facts = extract("with x:\n    import a\nfor i in y:\n    import b\nwhile z:\n    import c\n");
    CHECK(the_import(facts, "a", ImportKind::plain).flags == k_import_conditional);
    CHECK(the_import(facts, "b", ImportKind::plain).flags == k_import_conditional);
    CHECK(the_import(facts, "c", ImportKind::plain).flags == k_import_conditional);
  }
}

TEST_CASE("FactsExtractor reads __all__ in its literal and incremental forms", "[extract]") {
  SECTION("no __all__") {
    auto facts = extract("x = 1\n");
    CHECK_FALSE(facts.all_names.has_value());
    CHECK_FALSE(facts.all_dynamic);
  }
  SECTION("a list literal") {
    auto facts = extract("__all__ = ['a', \"b\"]\n");
    REQUIRE(facts.all_names.has_value());
    CHECK(*facts.all_names == Strings{"a", "b"});
    CHECK_FALSE(facts.all_dynamic);
  }
  SECTION("a tuple literal") {
    auto facts = extract("__all__ = ('a',)\n");
    CHECK(facts.all_names == Strings{"a"});
  }
  SECTION("an empty list is present and empty") {
    auto facts = extract("__all__ = []\n");
    REQUIRE(facts.all_names.has_value());
    CHECK(facts.all_names->empty());
  }
  SECTION("+=, .extend and .append add names") {
    auto facts = extract("__all__ = ['a']\n__all__ += ['b']\n__all__.extend(['c', 'd'])\n__all__.append('e')\n");
    CHECK(facts.all_names == Strings{"a", "b", "c", "d", "e"});
    CHECK_FALSE(facts.all_dynamic);
  }
  SECTION("a later plain assignment replaces the names") {
    auto facts = extract("__all__ = ['a']\n__all__ = ['b']\n");
    CHECK(facts.all_names == Strings{"b"});
  }
  SECTION("a computed __all__ is dynamic") {
    auto facts = extract("__all__ = [name for name in dir() if not name.startswith('_')]\n");
    CHECK(facts.all_dynamic);
  }
  SECTION("extending with something computed is dynamic") {
    auto facts = extract("from .models import __all__ as models_all\n__all__ = ['a']\n__all__ += models_all\n");
    CHECK(facts.all_dynamic);
  }
}

TEST_CASE("FactsExtractor reads pytest_plugins as plugin imports", "[extract]") {
  SECTION("a single string") {
    auto facts = extract("\npytest_plugins = 'app.fixtures'\n");
    auto i = the_import(facts, "app.fixtures", ImportKind::plugin);
    CHECK(i.line == 2);
    CHECK_FALSE(facts.pytest_plugins_dynamic);
  }
  SECTION("a list") {
    auto facts = extract("pytest_plugins = [\n    'app.fixtures.db',\n    'app.fixtures.web',\n]\n");
    CHECK(imports_of(facts, "app.fixtures.db", ImportKind::plugin).size() == 1);
    CHECK(imports_of(facts, "app.fixtures.web", ImportKind::plugin).size() == 1);
    CHECK_FALSE(facts.pytest_plugins_dynamic);
  }
  SECTION("a tuple") {
    auto facts = extract("pytest_plugins = ('a.b', 'c')\n");
    CHECK(imports_of(facts, "a.b", ImportKind::plugin).size() == 1);
    CHECK(imports_of(facts, "c", ImportKind::plugin).size() == 1);
  }
  SECTION("a computed value is dynamic") {
    auto facts = extract("pytest_plugins = load_plugins()\n");
    CHECK(facts.pytest_plugins_dynamic);
    for (const auto& i : facts.imports) CHECK(i.kind != ImportKind::plugin);
  }
}

TEST_CASE("FactsExtractor reads a literal collect_ignore", "[extract]") {
  SECTION("collect_ignore and collect_ignore_glob lists") {
    auto facts = extract("collect_ignore = ['setup.py', 'legacy']\ncollect_ignore_glob = ['*_old.py']\n");
    CHECK(facts.collect_ignore == Strings{"setup.py", "legacy"});
    CHECK(facts.collect_ignore_glob == Strings{"*_old.py"});
  }
  SECTION("none") {
    auto facts = extract("x = 1\n");
    CHECK(facts.collect_ignore.empty());
    CHECK(facts.collect_ignore_glob.empty());
  }
}

TEST_CASE("FactsExtractor records symbols with qualnames, kinds and parents", "[extract]") {
  auto facts = extract("import pytest\n"                                             // 1
                       "\n"                                                          // 2
                       "@pytest.fixture(autouse=True)\n"                             // 3
                       "def setup(tmp_path, *args, flag: bool = False, **kwargs):\n" // 4
                       "    return 1\n"                                              // 5
                       "\n"                                                          // 6
                       "class TestThing(Base, metaclass=Meta):\n"                    // 7
                       "    def __init__(self):\n"                                   // 8
                       "        pass\n"                                              // 9
                       "\n"                                                          // 10
                       "    class Inner:\n"                                          // 11
                       "        async def method(self, x=1):\n"                      // 12
                       "            def local():\n"                                  // 13
                       "                pass\n"                                      // 14
                       "            return local\n");                                // 15
  REQUIRE(facts.symbols.size() == 6);
  Strings qualnames;
  for (const auto& s : facts.symbols) qualnames.push_back(s.qualname);
  CHECK(qualnames == Strings{"setup", "TestThing", "TestThing.__init__", "TestThing.Inner", "TestThing.Inner.method",
                             "TestThing.Inner.method.local"});

  SECTION("a decorated module-level function") {
    const auto& s = symbol(facts, "setup");
    CHECK(s.kind == SymbolKind::function);
    CHECK(s.parent == -1);
    CHECK(s.decorators == Strings{"pytest.fixture"});
    CHECK(s.params == Strings{"tmp_path", "args", "flag", "kwargs"});
    CHECK(s.first_line == 3);
    CHECK(s.def_line == 4);
    CHECK(s.body_line == 5);
    CHECK(s.last_line == 5);
    CHECK_FALSE(s.is_async);
    CHECK(s.name() == "setup");
  }
  SECTION("a class with bases and __init__") {
    const auto& s = symbol(facts, "TestThing");
    CHECK(s.kind == SymbolKind::class_);
    CHECK(s.bases == Strings{"Base"});
    CHECK(s.has_init);
    CHECK(s.first_line == 7);
    CHECK(s.def_line == 7);
    CHECK(s.body_line == 8);
    CHECK(s.last_line == 15);
  }
  SECTION("methods and nested classes point at their parent") {
    CHECK(symbol(facts, "TestThing.__init__").kind == SymbolKind::method);
    CHECK(symbol(facts, "TestThing.__init__").parent == 1);
    CHECK(symbol(facts, "TestThing.Inner").kind == SymbolKind::class_);
    CHECK(symbol(facts, "TestThing.Inner").parent == 1);
    CHECK_FALSE(symbol(facts, "TestThing.Inner").has_init);
    const auto& m = symbol(facts, "TestThing.Inner.method");
    CHECK(m.kind == SymbolKind::method);
    CHECK(m.parent == 3);
    CHECK(m.is_async);
    CHECK(m.params == Strings{"self", "x"});
    CHECK(m.def_line == 12);
    CHECK(m.last_line == 15);
    CHECK(m.name() == "method");
  }
  SECTION("a function inside a method is a function") {
    const auto& f = symbol(facts, "TestThing.Inner.method.local");
    CHECK(f.kind == SymbolKind::function);
    CHECK(f.parent == 4);
    CHECK(f.def_line == 13);
    CHECK(f.body_line == 14);
    CHECK(f.last_line == 14);
  }
}

TEST_CASE("FactsExtractor finds what a function body defines or imports, however deep", "[extract]") {
  // The walk skips bodies that cannot hold a definition or an import; each of these must still be read.
  SECTION("a nested class, the body's only definition") {
    auto facts = extract("def make():\n    x = 1\n    class Local:\n        pass\n    return Local\n");
    CHECK(symbol(facts, "make.Local").kind == SymbolKind::class_);
  }
  SECTION("a nested async def under an if") {
    auto facts = extract("def outer(flag):\n    if flag:\n        async def inner():\n            pass\n");
    CHECK(symbol(facts, "outer.inner").is_async);
  }
  SECTION("an import after many other statements, inside a with and a try") {
    std::string source = "def load():\n";
    for (int i = 0; i < 50; ++i) source += "    v" + std::to_string(i) + " = " + std::to_string(i) + "\n";
    source += "    with lock:\n        try:\n            from app import plugins\n        except ImportError:\n"
              "            pass\n";
    auto i = the_import(extract(source), "app", ImportKind::from);
    CHECK(i.flags == (k_import_in_function | k_import_conditional | k_import_guarded));
  }
  SECTION("a body with neither still has its symbol and its lines") {
    auto facts = extract("def plain(a):\n    return a + 1\n");
    REQUIRE(facts.symbols.size() == 1);
    CHECK(facts.symbols[0].last_line == 2);
    CHECK(facts.imports.empty());
  }
}

TEST_CASE("FactsExtractor reads decorators as their callee", "[extract]") {
  auto facts = extract("@staticmethod\n"
                       "@app.route('/x', methods=['GET'])\n"
                       "@pytest.mark.parametrize('a', [1, 2])\n"
                       "def f(a):\n"
                       "    pass\n");
  const auto& s = symbol(facts, "f");
  CHECK(s.decorators == Strings{"staticmethod", "app.route", "pytest.mark.parametrize"});
  CHECK(s.first_line == 1);
  CHECK(s.def_line == 4);
}

TEST_CASE("FactsExtractor reads parameters of every shape", "[extract]") {
  auto facts = extract("def f(a, b: int, c=1, d: str = 'x', /, *args: int, e, f=2, **kw: dict):\n    pass\n"
                       "def g(*, key):\n    pass\n");
  CHECK(symbol(facts, "f").params == Strings{"a", "b", "c", "d", "args", "e", "f", "kw"});
  CHECK(symbol(facts, "g").params == Strings{"key"});
}

TEST_CASE("FactsExtractor reads base classes as written", "[extract]") {
  auto facts =
      extract("class A(unittest.TestCase, mixins.Base, metaclass=abc.ABCMeta):\n    pass\nclass B:\n    pass\n");
  CHECK(symbol(facts, "A").bases == Strings{"unittest.TestCase", "mixins.Base"});
  CHECK(symbol(facts, "B").bases.empty());
}

TEST_CASE("FactsExtractor records module-level assigned names", "[extract]") {
  auto facts = extract("X = 1\n"
                       "a, b = 1, 2\n"
                       "Y: int = 3\n"
                       "X += 1\n"
                       "obj.attr = 4\n"
                       "if True:\n    Z = 5\n"
                       "def f():\n    local = 6\n"
                       "class C:\n    member = 7\n");
  Strings names = facts.module_names;
  std::sort(names.begin(), names.end());
  CHECK(names == Strings{"X", "Y", "Z", "a", "b"});
}

TEST_CASE("FactsExtractor notices a module-level __getattr__", "[extract]") {
  CHECK(extract("def __getattr__(name):\n    return name\n").defines_module_getattr);
  CHECK_FALSE(extract("class C:\n    def __getattr__(self, name):\n        return name\n").defines_module_getattr);
}

TEST_CASE("FactsExtractor notices stores into globals()", "[extract]") {
  CHECK(extract("for n in 'ab':\n    globals()['test_' + n] = len\n").stores_globals);
  CHECK(extract("globals().update(test_a=len)\n").stores_globals);
  CHECK_FALSE(extract("x = globals()['name']\n").stores_globals); // a read
  CHECK_FALSE(extract("table = {}\ntable['test_a'] = len\n").stores_globals);
}

TEST_CASE("FactsExtractor reads dynamic imports with a literal name", "[extract]") {
  SECTION("importlib.import_module(\"a.b\")") {
    auto facts = extract("import importlib\n\nmod = importlib.import_module(\"a.b\")\n");
    auto i = the_import(facts, "a.b", ImportKind::dynamic);
    CHECK(i.line == 3);
    CHECK(i.level == 0);
    CHECK(facts.uncertain_imports.empty());
  }
  SECTION("__import__('x.y')") {
    auto facts = extract("m = __import__('x.y')\n");
    CHECK(imports_of(facts, "x.y", ImportKind::dynamic).size() == 1);
  }
  SECTION("a relative literal keeps its level") {
    auto facts = extract("from importlib import import_module\nm = import_module('.sub', __package__)\n");
    auto i = the_import(facts, "sub", ImportKind::dynamic);
    CHECK(i.level == 1);
  }
  SECTION("a two-dot relative literal") {
    auto i =
        the_import(extract("m = importlib.import_module('..pkg.mod', __package__)\n"), "pkg.mod", ImportKind::dynamic);
    CHECK(i.level == 2);
  }
}

TEST_CASE("FactsExtractor reads computed dynamic imports as uncertain, with their literal prefix", "[extract]") {
  SECTION("import_module(name): nothing known") {
    auto facts = extract("from importlib import import_module\n\ndef load(name):\n    return import_module(name)\n");
    REQUIRE(facts.uncertain_imports.size() == 1);
    const auto& u = facts.uncertain_imports.front();
    CHECK(u.line == 4);
    CHECK(u.call == "import_module");
    CHECK(u.prefix.empty());
    CHECK(u.level == 0);
    for (const auto& i : facts.imports) CHECK(i.kind != ImportKind::dynamic);
  }
  SECTION("a concatenation keeps the literal start") {
    auto facts = extract("def load(name):\n    return importlib.import_module(\"app.plugins.\" + name)\n");
    REQUIRE(facts.uncertain_imports.size() == 1);
    CHECK(facts.uncertain_imports[0].call == "importlib.import_module");
    CHECK(facts.uncertain_imports[0].prefix == "app.plugins.");
    CHECK(facts.uncertain_imports[0].level == 0);
  }
  SECTION("an f-string keeps the text before the first interpolation") {
    auto facts = extract("def load(name):\n    return importlib.import_module(f\"app.plugins.{name}\")\n");
    REQUIRE(facts.uncertain_imports.size() == 1);
    CHECK(facts.uncertain_imports[0].prefix == "app.plugins.");
  }
  SECTION("a relative literal start keeps its level") {
    auto facts = extract("def load(name):\n    return import_module('.handlers.' + name, __package__)\n");
    REQUIRE(facts.uncertain_imports.size() == 1);
    CHECK(facts.uncertain_imports[0].level == 1);
    CHECK(facts.uncertain_imports[0].prefix == "handlers.");
  }
  SECTION("inside an f-string's replacement field") {
    auto facts = extract("def load(name):\n    return f\"{importlib.import_module(name)}\"\n");
    REQUIRE(facts.uncertain_imports.size() == 1);
    CHECK(facts.uncertain_imports[0].line == 2);
  }
  SECTION("a name in a comment or a string is no call") {
    auto facts = extract("# import_module(name) is not used here\nDOC = 'see __import__(name)'\n");
    CHECK(facts.uncertain_imports.empty());
  }
  SECTION("a computed __import__") {
    auto facts = extract("m = __import__(name)\n");
    REQUIRE(facts.uncertain_imports.size() == 1);
    CHECK(facts.uncertain_imports[0].call == "__import__");
    CHECK(facts.uncertain_imports[0].prefix.empty());
  }
}

TEST_CASE("FactsExtractor records dotted string literals as string references", "[extract]") {
  SECTION("a mock.patch target") {
    auto facts = extract("def test_x():\n    with mock.patch(\"app.models.User\"):\n        pass\n");
    auto i = the_import(facts, "app.models.User", ImportKind::string_ref);
    CHECK(i.line == 2);
    CHECK(i.names.empty());
  }
  SECTION("module:attribute keeps the attribute as a name") {
    auto facts = extract("ROOT_VIEW = 'app.views:index'\n");
    auto i = the_import(facts, "app.views", ImportKind::string_ref);
    CHECK(i.names == Strings{"index"});
  }
  SECTION("line numbers count every line before the literal, whatever quotes come between") {
    auto facts = extract("a = \"it's\"\nb = 'x'  # \"quoted\"\n\n\nc = 'app.models'\nd = \"app.views\"\n");
    CHECK(the_import(facts, "app.models", ImportKind::string_ref).line == 5);
    CHECK(the_import(facts, "app.views", ImportKind::string_ref).line == 6);
  }
  SECTION("a settings value in single quotes") {
    CHECK(has_string_ref(extract("DJANGO_SETTINGS_MODULE = 'app.settings'\n"), "app.settings"));
  }
  SECTION("a module whose file name is no identifier (mock.patch imports it with importlib)") {
    auto facts = extract("mock.patch('app.round-half.apply')\nmock.patch('app.ｓｃａｌｅ.FACTOR')\n");
    CHECK(has_string_ref(facts, "app.round-half.apply"));
    CHECK(has_string_ref(facts, "app.ｓｃａｌｅ.FACTOR"));
  }
  SECTION("file names, plain words, versions and sentences are not references") {
    auto facts = extract("a = 'data.json'\nb = 'config.yaml'\nc = 'word'\nd = '1.2.3'\ne = 'v1.2'\n"
                         "f = 'not a.module'\ng = '.hidden'\nh = 'trailing.'\ni = 'a..b'\nj = '-x.y'\nk = 'x.-y'\n");
    Strings refs;
    for (const auto& i : facts.imports) {
      if (i.kind == ImportKind::string_ref) refs.push_back(i.module);
    }
    CHECK(refs.empty());
  }
}

TEST_CASE("FactsExtractor notices doctests", "[extract]") {
  CHECK(extract("def f():\n    \"\"\"\n    >>> f()\n    1\n    \"\"\"\n    return 1\n").has_doctest);
  CHECK_FALSE(extract("def f():\n    \"\"\"No examples.\"\"\"\n    return 1\n").has_doctest);
}

TEST_CASE("FactsExtractor reads what it can of a file that does not parse", "[extract]") {
  auto facts = extract("import os\n"
                       "from app import models\n"
                       "def broken(:\n"
                       "    pass\n"
                       "import app.views as v\n"
                       "from .sibling import thing\n");
  CHECK(facts.parse_error);
  CHECK_FALSE(imports_of(facts, "os", ImportKind::plain).empty());
  auto from = imports_of(facts, "app", ImportKind::from);
  REQUIRE_FALSE(from.empty());
  CHECK(from.front().names == Strings{"models"});
  auto views = imports_of(facts, "app.views", ImportKind::plain);
  REQUIRE_FALSE(views.empty());
  CHECK(views.front().line == 5);
  auto sibling = imports_of(facts, "sibling", ImportKind::from);
  REQUIRE_FALSE(sibling.empty());
  CHECK(sibling.front().level == 1);
  CHECK(sibling.front().line == 6);
}

TEST_CASE("FactsExtractor never throws, whatever the input", "[extract]") {
  SECTION("empty input") {
    auto facts = extract("");
    CHECK_FALSE(facts.parse_error);
    CHECK(facts.imports.empty());
    CHECK(facts.symbols.empty());
  }
  SECTION("binary garbage") {
    std::string garbage;
    for (int i = 0; i < 512; ++i) garbage.push_back(static_cast<char>((i * 131 + 7) % 256));
    CHECK_NOTHROW(extract(garbage));
  }
  SECTION("an unterminated string") {
    auto facts = extract("import a\nx = '''never closed\n");
    CHECK(facts.parse_error);
    CHECK_FALSE(imports_of(facts, "a", ImportKind::plain).empty());
  }
}

TEST_CASE("FactsExtractor reads CRLF sources like LF ones", "[extract]") {
  auto facts = extract("import a.b\r\n"
                       "from c import (d,\r\n"
                       "    e)\r\n"
                       "\r\n"
                       "@fixture\r\n"
                       "def test_x(tmp):\r\n"
                       "    return 'app.models.User'\r\n");
  CHECK_FALSE(facts.parse_error);
  CHECK(the_import(facts, "a.b", ImportKind::plain).line == 1);
  CHECK(the_import(facts, "c", ImportKind::from).names == Strings{"d", "e"});
  const auto& s = symbol(facts, "test_x");
  CHECK(s.first_line == 5);
  CHECK(s.def_line == 6);
  CHECK(s.body_line == 7);
  CHECK(s.last_line == 7);
  CHECK(s.params == Strings{"tmp"});
  CHECK(the_import(facts, "app.models.User", ImportKind::string_ref).line == 7);
}

TEST_CASE("FactsExtractor can be reused for many files", "[extract]") {
  FactsExtractor extractor;
  auto a = extractor.extract("import a\n");
  auto b = extractor.extract("import b\n");
  REQUIRE(a.imports.size() == 1);
  REQUIRE(b.imports.size() == 1);
  CHECK(a.imports[0].module == "a");
  CHECK(b.imports[0].module == "b");
}
