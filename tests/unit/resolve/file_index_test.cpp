// FileIndex::reads_denoting against its definition: the symbols of the reads whose target may_denote().
#include "impact/resolve/file_index.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace impact;

namespace {

std::vector<int32_t> sorted_unique(std::vector<int32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

} // namespace

TEST_CASE("FileIndex::reads_denoting gives the readers reads() and may_denote() give, read by read", "[file_index]") {
  testing::Project p;
  p.file("app/__init__.py")
      .file("app/a.py", "def run():\n    return 1\n\nclass Box:\n    def run(self):\n        return 2\n")
      .file("app/b.py", "def run():\n    return 3\n")
      .file("app/c.py", "from app import a, b\nfrom app.a import run as go\nimport app.a\n\n"
                        "def one():\n    return a.run()\n\ndef two():\n    return b.run()\n\n"
                        "def three(x):\n    return x.run() + go()\n\ndef four():\n    return a.Box.run(None)\n\n"
                        "def five():\n    return app.a.run() + run()\n\nrun()\n");
  auto built = testing::build(p);
  resolve::FileIndex index(built->graph, built->facts);
  uint32_t c = *built->graph.find("app/c.py");
  for (std::string name : {"run", "go", "Box", "nobody"}) {
    uint32_t id = index.intern(name);
    for (std::string_view path : {"app/a.py", "app/b.py", "app/c.py"}) {
      uint32_t g = *built->graph.find(path);
      for (std::string_view qualname : {"run", "Box", "Box.run", "go"}) {
        std::vector<int32_t> expected;
        for (const auto& r : index.reads(c, id, name)) {
          if (index.may_denote(*r.target, g, qualname)) expected.push_back(r.symbol);
        }
        std::vector<int32_t> got;
        index.reads_denoting(c, id, name, g, qualname, got);
        CHECK(sorted_unique(got) == sorted_unique(expected));
      }
    }
  }
  SECTION("a read of another module's name of the same name is not a reader") {
    std::vector<int32_t> got;
    index.reads_denoting(c, index.intern("run"), "run", *built->graph.find("app/b.py"), "run", got);
    const resolve::FileInfo* info = index.get(c);
    std::vector<std::string> names;
    for (int32_t s : sorted_unique(got)) names.emplace_back(s < 0 ? "<module>" : std::string(info->at(s).qualname));
    // two() reads b.run; three(x) and the module's bare run() read names resolution cannot follow.
    CHECK(std::find(names.begin(), names.end(), "two") != names.end());
    CHECK(std::find(names.begin(), names.end(), "one") == names.end());
  }
}

TEST_CASE("FileIndex::reads_denoting reports an attribute of a value only when asked, and says the file has one",
          "[file_index]") {
  testing::Project p;
  p.file("app/__init__.py", "def format(x):\n    return x\n")
      .file("app/c.py", "from app import format as fmt\n\n"
                        "def one(x):\n    return x.format(1)\n\ndef two():\n    return '{}'.format(2)\n\n"
                        "def three():\n    return fmt(3)\n");
  auto built = testing::build(p);
  resolve::FileIndex index(built->graph, built->facts);
  uint32_t c = *built->graph.find("app/c.py");
  uint32_t g = *built->graph.find("app/__init__.py");
  const resolve::FileInfo* info = index.get(c);
  auto names = [&](const std::vector<int32_t>& symbols) {
    std::vector<std::string> out;
    for (int32_t s : sorted_unique(symbols)) out.emplace_back(s < 0 ? "<module>" : std::string(info->at(s).qualname));
    return out;
  };
  std::vector<int32_t> with, without;
  CHECK(index.reads_denoting(c, index.intern("format"), "format", g, "format", with, true));
  CHECK(index.reads_denoting(c, index.intern("format"), "format", g, "format", without, false));
  // x.format and '{}'.format are attributes of values; `fmt` reads the function under another name.
  CHECK(names(with) == std::vector<std::string>{"one", "two"});
  CHECK(names(without).empty());
  std::vector<int32_t> plain;
  CHECK_FALSE(index.reads_denoting(c, index.intern("fmt"), "fmt", g, "format", plain, false));
}

TEST_CASE("FileIndex::resolve follows a package's import of its own submodule", "[file_index]") {
  testing::Project p;
  p.file("pkg/__init__.py", "from pkg import engine\nfrom . import tokens\n")
      .file("pkg/engine.py", "def render(x):\n    return x\n")
      .file("pkg/tokens.py", "KEYWORD = 1\n")
      .file("pkg/use.py", "from pkg import engine, tokens\nimport pkg\n");
  auto built = testing::build(p);
  resolve::FileIndex index(built->graph, built->facts);
  uint32_t use = *built->graph.find("pkg/use.py");
  uint32_t engine = *built->graph.find("pkg/engine.py");
  uint32_t tokens = *built->graph.find("pkg/tokens.py");
  resolve::Target t = index.resolve(use, "engine");
  REQUIRE(t.kind == resolve::Target::module);
  CHECK(t.modules == std::vector<uint32_t>{engine});
  t = index.resolve(use, "tokens");
  REQUIRE(t.kind == resolve::Target::module);
  CHECK(t.modules == std::vector<uint32_t>{tokens});
  t = index.resolve(use, "pkg.engine.render");
  CHECK(t.kind == resolve::Target::definition);
  CHECK(t.node == engine);
  const resolve::Binding* b = index.get(use)->binding("engine");
  REQUIRE(b != nullptr);
  CHECK(index.imported_submodules(use, *b) == std::vector<uint32_t>{engine});
}
