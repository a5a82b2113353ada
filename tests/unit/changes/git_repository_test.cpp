// open_git_repository reads the environment through the EnvLookup it is given, not the process's: a
// temporary index of `git commit` (GIT_INDEX_FILE) is the one the lookup names.
#include "impact/changes.hpp"
#include "impact/error.hpp"
#include "support.hpp"
#include "util/sha256.hpp"
#include "util/subprocess.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::env_of;
using impact::testing::TempDir;

TEST_CASE("open_git_repository takes GIT_INDEX_FILE from the lookup it is given", "[git_repository]") {
  TempDir dir;
  REQUIRE(util::run_and_wait({"git", "init", "-q", dir.path().string()}, dir.path(), {}) == 0);
  SECTION("not named: .git/index") {
    CHECK(open_git_repository(dir.path(), env_of({}))->root() == dir.path());
  }
  SECTION("empty: as if not named") {
    CHECK_NOTHROW(open_git_repository(dir.path(), env_of({{"GIT_INDEX_FILE", ""}})));
  }
  SECTION("a missing file: stop, naming it") {
    auto missing = (dir / "missing-index").string();
    CHECK_THROWS_WITH(open_git_repository(dir.path(), env_of({{"GIT_INDEX_FILE", missing}})),
                      Catch::Contains("GIT_INDEX_FILE=" + missing + " does not exist"));
  }
}

// Reads depend on nothing but their arguments: a change set read earlier still gives its own files,
// whatever changes() was asked since (the blob id travels on each changed file, the side on each
// SourceFile).
TEST_CASE("a GitRepository's reads do not depend on the last changes() call", "[git_repository]") {
  TempDir dir;
  auto git = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{"git", "-c", "user.name=impact", "-c", "user.email=impact@invalid", "-C",
                                  dir.path().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    REQUIRE(util::run_and_wait(argv, dir.path(), {}) == 0);
  };
  git({"init", "-q"});
  dir.write("a.py", "x = 1\n");
  git({"add", "a.py"});
  git({"commit", "-q", "-m", "base"});
  dir.write("a.py", "x = 2\n");
  git({"add", "a.py"});
  dir.write("a.py", "x = 3\n"); // staged: 2; working tree: 3

  auto repo = open_git_repository(dir.path(), env_of({}));
  ChangeRequest staged_request;
  staged_request.mode = DiffMode::staged;
  ChangeSet staged = repo->changes(staged_request);
  ChangeSet worktree = repo->changes(ChangeRequest{});
  REQUIRE(staged.files.size() == 1);
  CHECK(staged.files[0].new_oid == util::git_blob_id("x = 2\n"));

  auto file_in = [](const std::vector<SourceFile>& files) {
    REQUIRE(files.size() == 1);
    return files[0];
  };
  SourceFile staged_a = file_in(repo->inventory(staged));
  SourceFile worktree_a = file_in(repo->inventory(worktree));
  CHECK(staged_a.oid == util::git_blob_id("x = 2\n"));
  CHECK(worktree_a.oid == util::git_blob_id("x = 3\n"));
  CHECK(repo->read_current(staged_a).text == "x = 2\n");
  CHECK(repo->read_current(worktree_a).text == "x = 3\n");

  FileRead base = repo->read_base(staged, RepoPath("a.py"));
  CHECK(base.has_content());
  CHECK(base.text == "x = 1\n");
  CHECK(repo->read_base(staged, RepoPath("gone.py")).status == FileRead::Status::not_found);
  SourceFile gone = worktree_a;
  gone.path = RepoPath("b.py");
  gone.oid = std::string(40, '0');
  CHECK(repo->read_current(gone).status == FileRead::Status::not_found);
}
