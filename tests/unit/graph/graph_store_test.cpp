// The stored graph: reused, relinked or built, and always the graph a full build makes.
#include "impact/error.hpp"
#include "impact/graph.hpp"
#include "util/files.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <functional>

using namespace impact;
using impact::testing::find_edge;
using impact::testing::Project;
using impact::testing::TempDir;

namespace {

// What a run sees of a project: facts and layout, each file's blob id made from its content (as git's).
struct Run {
  std::vector<SourceFile> inventory;
  ProjectFacts facts;
  std::unique_ptr<ProjectLayout> layout;
};

std::unique_ptr<Run> run_of(const Project& project) {
  auto files = project.files;
  std::sort(files.begin(), files.end());
  auto out = std::make_unique<Run>();
  for (const auto& [path, content] : files) {
    SourceFile source = testing::source_file(path, fmt::format("{:040x}", std::hash<std::string>{}(content)));
    out->inventory.push_back(source);
    if (path.ends_with(".py")) out->facts.add(source, out->facts.own(testing::extract(content)));
  }
  out->layout = std::make_unique<ProjectLayout>(project.config, out->inventory, out->facts);
  return out;
}

// One run: the graph taken from `file`, checked against a full build, then stored there.
ImportGraph stored(const std::filesystem::path& file, const Run& run, GraphOrigin& origin,
                   const std::vector<RepoPath>& ghosts = {}) {
  ImportGraph graph = stored_import_graph(read_stored_graph(file), file, *run.layout, run.facts, ghosts, 1, true, origin);
  store_import_graph(file, graph, run.facts, ghosts, origin);
  return graph;
}

Project base() {
  Project p;
  p.file("pkg/__init__.py", "__all__ = ['a']\n")
      .file("pkg/a.py", "X = 1\n")
      .file("pkg/b.py", "Y = 2\n")
      .file("main.py", "from pkg import *\n")
      .file("tool.py", "import pkg.a\n")
      .file("tests/conftest.py")
      .file("tests/test_main.py", "import main\n\ndef test_x():\n    pass\n");
  return p;
}

} // namespace

TEST_CASE("stored_import_graph builds, stores, then reuses the graph", "[graph_store]") {
  TempDir dir;
  auto file = dir / stored_graph_file_name();
  auto run = run_of(base());
  GraphOrigin first, second;
  stored(file, *run, first);
  CHECK(first.how == GraphOrigin::How::built);
  CHECK(std::filesystem::exists(file));
  ImportGraph g = stored(file, *run, second);
  CHECK(second.how == GraphOrigin::How::stored);
  CHECK(second.problem.empty());
  auto n = [&](std::string_view path) { return g.nodes[*g.find(path)]; };
  CHECK(n("tests/test_main.py").test);
  CHECK(find_edge(g, "main.py", "pkg/a.py") != nullptr);
  CHECK(g.modules_named("pkg.b") == std::vector<uint32_t>{*g.find("pkg/b.py")});
  REQUIRE(g.find("pkg/a.py"));
  CHECK(g.in[*g.find("pkg/a.py")].size() >= 2); // main.py and tool.py
}

TEST_CASE("stored_import_graph links again only the files whose content changed", "[graph_store]") {
  TempDir dir;
  auto file = dir / stored_graph_file_name();
  GraphOrigin origin;
  stored(file, *run_of(base()), origin);
  // The next run, over project `p`: how it came by its graph, and the graph.
  auto next = [&](const Project& p, GraphOrigin& again, std::vector<RepoPath> ghosts = {}) {
    return stored(file, *run_of(p), again, ghosts);
  };
  auto p = base();
  GraphOrigin again;
  SECTION("an import changed") {
    p.file("tool.py", "import pkg.b\n");
    ImportGraph g = next(p, again);
    CHECK(again.how == GraphOrigin::How::relinked);
    CHECK(again.relinked == 1);
    CHECK(find_edge(g, "tool.py", "pkg/b.py") != nullptr);
    CHECK_FALSE(find_edge(g, "tool.py", "pkg/a.py") != nullptr);
  }
  SECTION("a package's __all__ changed: its star importers are linked again") {
    p.file("pkg/__init__.py", "__all__ = ['b']\n");
    ImportGraph g = next(p, again);
    CHECK(again.how == GraphOrigin::How::relinked);
    CHECK(again.relinked >= 2); // the package and main.py (and tool.py, which imports it too)
    CHECK(find_edge(g, "main.py", "pkg/b.py") != nullptr);
    CHECK_FALSE(find_edge(g, "main.py", "pkg/a.py") != nullptr);
  }
  SECTION("a test file lost its tests") {
    p.file("tests/test_main.py", "import main\n");
    ImportGraph g = next(p, again);
    CHECK(again.how == GraphOrigin::How::relinked);
    CHECK_FALSE(g.nodes[*g.find("tests/test_main.py")].test);
  }
  SECTION("a file added, or a ghost: built anew") {
    p.file("pkg/c.py");
    next(p, again);
    CHECK(again.how == GraphOrigin::How::built);
    GraphOrigin ghost;
    next(p, ghost, {RepoPath("pkg/gone.py")});
    CHECK(ghost.how == GraphOrigin::How::built);
  }
  SECTION("the layout changed (a conftest.py ignores a file): built anew") {
    p.file("tests/conftest.py", "collect_ignore = ['test_main.py']\n");
    ImportGraph g = next(p, again);
    CHECK(again.how == GraphOrigin::How::built);
    CHECK_FALSE(g.nodes[*g.find("tests/test_main.py")].test);
  }
  SECTION("pytest's configuration changed: built anew") {
    p.config.python_files = {"check_*.py"};
    next(p, again);
    CHECK(again.how == GraphOrigin::How::built);
  }
}

TEST_CASE("stored_import_graph builds the graph when the stored one is damaged", "[graph_store]") {
  TempDir dir;
  auto file = dir / stored_graph_file_name();
  auto run = run_of(base());
  GraphOrigin origin;
  stored(file, *run, origin);
  const std::string bytes = *util::read_file(file);
  // The next two runs over the same project, with `damaged` in the file.
  auto check = [&](const std::string& damaged) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << damaged;
    GraphOrigin again;
    ImportGraph g = stored(file, *run, again);
    CHECK(again.how == GraphOrigin::How::built);
    CHECK(again.problem.find("damaged") != std::string::npos);
    CHECK(find_edge(g, "main.py", "pkg/a.py") != nullptr);
    GraphOrigin after;
    stored(file, *run, after); // stored again by the run that found it damaged
    CHECK(after.how == GraphOrigin::How::stored);
    CHECK(after.problem.empty());
  };
  SECTION("truncated") { check(bytes.substr(0, bytes.size() / 2)); }
  SECTION("a byte changed") {
    std::string changed = bytes;
    changed[changed.size() / 2] = static_cast<char>(changed[changed.size() / 2] ^ 0x5a);
    check(changed);
  }
  SECTION("empty") { check(""); }
}

TEST_CASE("store_import_graph throws when it cannot write, and leaves the graph whole", "[graph_store]") {
  TempDir dir;
  std::filesystem::create_directories(dir / "taken" / "x"); // a folder where the file would go
  auto run = run_of(base());
  GraphOrigin origin;
  ImportGraph g = stored_import_graph(read_stored_graph(dir / "taken"), dir / "taken", *run->layout, run->facts, {}, 1, true, origin);
  CHECK(origin.how == GraphOrigin::How::built);
  CHECK(origin.problem.empty()); // a folder is no stored graph: nothing was there
  CHECK_THROWS_AS(store_import_graph(dir / "taken", g, run->facts, {}, origin), Error);
  CHECK(find_edge(g, "main.py", "pkg/a.py") != nullptr);
}

TEST_CASE("the check against a full build catches a stored graph that is wrong", "[graph_store]") {
  TempDir dir;
  auto file = dir / stored_graph_file_name();
  auto run = run_of(base());
  GraphOrigin origin;
  stored(file, *run, origin);
  // The same blob ids with other content: the stored graph cannot know, and the check must see it.
  auto p = base();
  p.file("tool.py", "import pkg.b\n");
  auto other = run_of(p);
  auto lying = std::make_unique<Run>();
  for (size_t i = 0; i < other->facts.size(); ++i) {
    SourceFile f = other->facts.files[i];
    f.oid = run->facts.files[i].oid;
    lying->facts.add(f, lying->facts.own(other->facts.full(i)));
  }
  lying->layout = std::make_unique<ProjectLayout>(PytestConfig{}, run->inventory, lying->facts);
  GraphOrigin again;
  CHECK_THROWS_AS(stored(file, *lying, again), Error);
}
