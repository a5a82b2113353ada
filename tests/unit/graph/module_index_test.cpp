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

TEST_CASE("module_names_of leaves out names with components that are no identifiers", "[module_index]") {
  SECTION("a dash in a folder") {
    CHECK(names("my-scripts/run.py", StringSet{""}).empty());
    CHECK(names("my-scripts/run.py", StringSet{"", "my-scripts"}) == Strings{"run"});
  }
  SECTION("a dash or a dot in the file name") {
    CHECK(names("app/my-module.py", StringSet{""}).empty());
    CHECK(names("app/v1.2.py", StringSet{""}).empty());
  }
  SECTION("a leading digit") { CHECK(names("app/1st.py", StringSet{""}).empty()); }
  SECTION("underscores and digits elsewhere are fine") {
    CHECK(names("_private/mod_2.py", StringSet{""}) == Strings{"_private.mod_2"});
  }
  SECTION("non-ASCII identifiers are kept") {
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
