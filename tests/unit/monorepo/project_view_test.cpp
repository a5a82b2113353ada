#include "fake_repository.hpp"
#include "impact/monorepo.hpp"

#include <catch2/catch.hpp>

using impact::testing::FakeRepository;
using namespace impact;
using namespace impact::monorepo;

namespace {

std::vector<std::string> paths_of(const std::vector<SourceFile>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.path.str);
  return out;
}

std::shared_ptr<RootSnapshot> snapshot_of(FakeRepository& repo) {
  auto snapshot = std::make_shared<RootSnapshot>();
  snapshot->changes = repo.changes(ChangeRequest{});
  return snapshot;
}

} // namespace

TEST_CASE("a ProjectView shows one project's folder as the whole repository", "[monorepo]") {
  FakeRepository repo("/mono");
  repo.add("README.md", "x\n");
  repo.add("libs/a/src/a/core.py", "X = 1\n");
  repo.add("libs/a/tests/test_core.py", "def test(): pass\n");
  repo.add("libs/ab/other.py", "Y = 1\n");
  repo.add("libs/b/b.py", "Z = 1\n");
  repo.modify("libs/a/src/a/core.py", "X = 2\n", {{1, 1, 1, 1}});
  repo.modify("libs/b/b.py", "Z = 2\n", {{1, 1, 1, 1}});
  repo.modify("README.md", "y\n", {{1, 1, 1, 1}});
  auto snapshot = snapshot_of(repo);
  ProjectView view(repo, "libs/a", snapshot);

  CHECK(view.root() == std::filesystem::path("/mono/libs/a"));
  ChangeSet changes = view.changes(ChangeRequest{});
  REQUIRE(changes.files.size() == 1);
  CHECK(changes.files[0].new_path.str == "src/a/core.py");
  CHECK(changes.files[0].old_path.str == "src/a/core.py");
  CHECK(changes.base.commit == snapshot->changes.base.commit);
  auto inventory = view.inventory(changes);
  CHECK(paths_of(inventory) == std::vector<std::string>{"src/a/core.py", "tests/test_core.py"});
  CHECK(view.read_current(inventory[0]).text == "X = 2\n");
  CHECK(view.read_base(changes, RepoPath("src/a/core.py")).text == "X = 1\n");
  CHECK(view.inside("libs/ab/other.py") == std::nullopt);
  CHECK(view.outside("tests/test_core.py") == "libs/a/tests/test_core.py");

  SECTION("the root less the projects sees only what lies outside them") {
    ProjectView root(repo, "", snapshot, {"libs/a", "libs/b"});
    ChangeSet outside = root.changes(ChangeRequest{});
    REQUIRE(outside.files.size() == 1);
    CHECK(outside.files[0].path().str == "README.md");
    CHECK(paths_of(root.inventory(outside)) == std::vector<std::string>{"README.md", "libs/ab/other.py"});
  }
}

TEST_CASE("a file renamed across a project's edge is deleted on one side and added on the other", "[monorepo]") {
  FakeRepository repo("/mono");
  auto snapshot = std::make_shared<RootSnapshot>();
  ChangedFile moved;
  moved.status = FileStatus::renamed;
  moved.old_path = RepoPath("libs/a/x.py");
  moved.new_path = RepoPath("libs/b/x.py");
  snapshot->changes.files.push_back(moved);
  ChangeSet in_a = ProjectView(repo, "libs/a", snapshot).changes(ChangeRequest{});
  ChangeSet in_b = ProjectView(repo, "libs/b", snapshot).changes(ChangeRequest{});
  REQUIRE(in_a.files.size() == 1);
  REQUIRE(in_b.files.size() == 1);
  CHECK((in_a.files[0].status == FileStatus::deleted && in_a.files[0].old_path.str == "x.py" &&
         in_a.files[0].new_path.empty()));
  CHECK((in_b.files[0].status == FileStatus::added && in_b.files[0].new_path.str == "x.py" &&
         in_b.files[0].old_path.empty()));
}
