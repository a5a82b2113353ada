#include "graph/module_index.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using impact::graph::module_names_of;
using impact::graph::ModuleIndex;
using impact::util::StringSet;

namespace {

using Strings = std::vector<std::string>;

Strings names(std::string_view path, const StringSet& roots) {
  auto out = module_names_of(path, roots);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("module_names_of names modules and packages from the import roots", "[module_index]") {
  StringSet root{""};
  SECTION("a module") { CHECK(names("app/models.py", root) == Strings{"app.models"}); }
  SECTION("a top-level module") { CHECK(names("setup_helpers.py", root) == Strings{"setup_helpers"}); }
  SECTION("a package's __init__.py is the package") {
    CHECK(names("app/__init__.py", root) == Strings{"app"});
    CHECK(names("app/sub/__init__.py", root) == Strings{"app.sub"});
  }
  SECTION("an __init__.py at a root names nothing") { CHECK(names("__init__.py", root).empty()); }
  SECTION("a file name that is no identifier is a module to importlib") {
    CHECK(names("app/my-plugin.py", root) == Strings{"app.my-plugin"});
    CHECK(names("app/my stats/__init__.py", root) == Strings{"app.my stats"});
    CHECK(names("app/ｓｃａｌｅ.py", root) == Strings{"app.ｓｃａｌｅ"});
  }
  SECTION("a part holding a dot names nothing: the dot would split it") {
    CHECK(names("app/v1.2.py", root).empty());
    CHECK(names("app.old/x.py", root).empty());
  }
  SECTION("files that are not Python name nothing") {
    CHECK(names("app/data.json", root).empty());
    CHECK(names("app/models.pyc", root).empty());
  }
}

TEST_CASE("module_names_of gives one name per import root above the file", "[module_index]") {
  SECTION("the root and src/") { CHECK(names("src/app/x.py", StringSet{"", "src"}) == Strings{"app.x", "src.app.x"}); }
  SECTION("only roots above the file count") {
    CHECK(names("lib/util.py", StringSet{"src", "lib"}) == Strings{"util"});
  }
  SECTION("nested roots") {
    CHECK(names("tests/unit/test_a.py", StringSet{"", "tests", "tests/unit"}) ==
          Strings{"test_a", "tests.unit.test_a", "unit.test_a"});
  }
  SECTION("no root above the file: no name") { CHECK(names("scripts/run.py", StringSet{"src"}).empty()); }
  SECTION("a root's own __init__.py is not named from that root") {
    CHECK(names("src/pkg/__init__.py", StringSet{"src/pkg", "src"}) == Strings{"pkg"});
  }
}

TEST_CASE("module_names_of names files importlib can load, identifiers or not", "[module_index]") {
  // import_module("my-scripts.run") and `-p my-plugin` take any text; an import statement cannot
  // spell these names, so only a literal string reaches them.
  SECTION("a dash in a folder") {
    CHECK(names("my-scripts/run.py", StringSet{""}) == Strings{"my-scripts.run"});
    CHECK(names("my-scripts/run.py", StringSet{"", "my-scripts"}) == Strings{"my-scripts.run", "run"});
  }
  SECTION("a dash in the file name, a leading digit") {
    CHECK(names("app/my-module.py", StringSet{""}) == Strings{"app.my-module"});
    CHECK(names("app/1st.py", StringSet{""}) == Strings{"app.1st"});
  }
  SECTION("a dot in a part names nothing: importlib would split the name there") {
    CHECK(names("app/v1.2.py", StringSet{""}).empty());
  }
  SECTION("underscores and digits elsewhere are fine") {
    CHECK(names("_private/mod_2.py", StringSet{""}) == Strings{"_private.mod_2"});
  }
  SECTION("non-ASCII names are kept as written (importlib does not normalise a literal)") {
    CHECK(names("app/caf\xc3\xa9.py", StringSet{""}) == Strings{"app.caf\xc3\xa9"});
  }
}

TEST_CASE("ModuleIndex finds nodes by exact name and by prefix", "[module_index]") {
  ModuleIndex index;
  index.add("app", 0);
  index.add("app.models", 1);
  index.add("app.models", 2);
  index.add("app.plugins.a", 3);
  index.add("application", 4);
  CHECK(index.find("app") == std::vector<uint32_t>{0});
  CHECK(index.find("app.models") == std::vector<uint32_t>{1, 2});
  CHECK(index.find("app.mod").empty());
  CHECK(index.find("").empty());
  std::vector<uint32_t> found;
  index.for_each_with_prefix("app.", [&](const std::string&, const std::vector<uint32_t>& nodes) {
    found.insert(found.end(), nodes.begin(), nodes.end());
  });
  std::sort(found.begin(), found.end());
  CHECK(found == std::vector<uint32_t>{1, 2, 3});
}
