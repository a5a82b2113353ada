// The narrowed work-tree diff against libgit2's whole one, state by state: the same deltas (status,
// paths, ids, modes), before and after rename detection. Files are aged (their times set years back
// and the index written after), so that the scan's stat comparison does the narrowing instead of the
// racy-clean rule sending every path to libgit2.
#include "changes/workdir_diff.hpp"
#include "support.hpp"
#include "util/subprocess.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <functional>

using namespace impact;
using impact::testing::TempDir;

namespace {

struct Repo {
  TempDir dir;

  void sh(const std::string& script) const {
    REQUIRE(util::run_and_wait({"sh", "-c", script}, dir.path(), {}) == 0);
  }
  void git(const std::string& args) const {
    sh("git -c user.name=impact -c user.email=impact@invalid -c protocol.file.allow=always " + args +
       " >/dev/null 2>&1");
  }
  // Every file's times years back, then the index rewritten with them (git's stat data, not racy).
  void age() const {
    sh("find . -path ./.git -prune -o -print0 | xargs -0 touch -h -d '2020-01-01 00:00:00'");
    git("update-index -q --really-refresh");
  }
};

std::vector<std::string> deltas_of(git_diff* diff) {
  std::vector<std::string> out;
  for (size_t i = 0; i < git_diff_num_deltas(diff); ++i) {
    const git_diff_delta* d = git_diff_get_delta(diff, i);
    out.push_back(fmt::format("{} {} {} {} {} {:o} {:o}", static_cast<int>(d->status),
                              d->old_file.path ? d->old_file.path : "", d->new_file.path ? d->new_file.path : "",
                              git::oid_hex(d->old_file.id), git::oid_hex(d->new_file.id), d->old_file.mode,
                              d->new_file.mode));
  }
  return out;
}

struct Both {
  std::vector<std::string> whole;
  std::vector<std::string> narrowed;
  std::optional<std::vector<std::string>> candidates;
};

Both diff_both(const Repo& repo) {
  git_libgit2_init();
  git_repository* raw = nullptr;
  REQUIRE(git_repository_open(&raw, repo.dir.path().c_str()) == 0);
  git::RepositoryPtr owner(raw);
  git_object* tree = nullptr;
  REQUIRE(git_revparse_single(&tree, raw, "HEAD^{tree}") == 0);
  git::ObjectPtr tree_owner(tree);
  git_index* index = nullptr;
  REQUIRE(git_repository_index(&index, raw) == 0);
  git::IndexPtr index_owner(index);
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_ENABLE_FAST_UNTRACKED_DIRS;
  opts.ignore_submodules = GIT_SUBMODULE_IGNORE_UNTRACKED;
  Both out;
  for (bool narrow : {false, true}) {
    auto diff = git::tree_to_workdir(*raw, reinterpret_cast<git_tree*>(tree), *index, repo.dir.path(), opts, narrow);
    REQUIRE(diff != nullptr);
    auto before = deltas_of(diff.get());
    git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
    find.flags = GIT_DIFF_FIND_RENAMES;
    REQUIRE(git_diff_find_similar(diff.get(), &find) == 0);
    auto after = deltas_of(diff.get());
    before.push_back("--");
    before.insert(before.end(), after.begin(), after.end());
    (narrow ? out.narrowed : out.whole) = before;
  }
  out.candidates = git::paths_that_may_differ(*raw, *index, repo.dir.path());
  return out;
}

// A project of a few folders, committed and aged.
void base_project(const Repo& repo) {
  repo.git("init -q");
  repo.sh("mkdir -p pkg/sub docs lib/deep && printf 'z\\n' > lib/deep/z.py && printf 'x = 1\\n' > pkg/a.py && printf 'y = 2\\n' > pkg/sub/b.py && "
          "printf 'def f():\\n    return 1\\n' > pkg/sub/c.py && printf 'doc\\n' > docs/index.rst && "
          "printf 'top\\n' > README && printf '*.log\\nbuild/\\n' > .gitignore && ln -s pkg/a.py link.py");
  repo.git("add -A");
  repo.git("commit -q -m base");
  repo.age();
}

} // namespace

TEST_CASE("the narrowed work-tree diff equals libgit2's whole diff", "[workdir_diff]") {
  std::vector<std::pair<std::string, std::function<void(const Repo&)>>> states{
      {"clean", [](const Repo&) {}},
      {"a file modified", [](const Repo& r) { r.sh("printf 'x = 10\\n' > pkg/a.py"); }},
      {"same size and mtime, new content (ctime tells)",
       [](const Repo& r) { r.sh("printf 'x = 9\\n' > pkg/a.py && touch -d '2020-01-01 00:00:00' pkg/a.py"); }},
      {"touched, same content", [](const Repo& r) { r.sh("touch pkg/sub/b.py"); }},
      {"a file deleted", [](const Repo& r) { r.sh("rm pkg/sub/c.py"); }},
      {"a folder deleted", [](const Repo& r) { r.sh("rm -r pkg/sub"); }},
      {"untracked files", [](const Repo& r) { r.sh("printf 'n\\n' > new.py && printf 'n\\n' > pkg/sub/new.py"); }},
      {"an untracked folder", [](const Repo& r) { r.sh("mkdir -p fresh/deep && printf 'n\\n' > fresh/deep/x.py"); }},
      {"ignored files and folders",
       [](const Repo& r) { r.sh("printf l > pkg/run.log && mkdir -p build/x && printf o > build/x/o.py"); }},
      {"untracked in a folder that holds only folders", [](const Repo& r) { r.sh("printf 'n\\n' > lib/n.py"); }},
      {"untracked next to ignored, deep",
       [](const Repo& r) { r.sh("printf l > pkg/sub/x.log && printf n > pkg/sub/n.py && printf n > lib/deep/n.py"); }},
      {"__pycache__ in every folder, ignored",
       [](const Repo& r) { r.sh("printf '__pycache__/\\n' >> .gitignore && for d in pkg pkg/sub lib lib/deep; do mkdir -p $d/__pycache__ && printf c > $d/__pycache__/m.pyc; done"); }},
      {"__pycache__ in every folder, not ignored",
       [](const Repo& r) { r.sh("for d in pkg pkg/sub lib/deep; do mkdir -p $d/__pycache__ && printf c > $d/__pycache__/m.pyc; done"); }},
      {"new files in an ignored folder that holds tracked files",
       [](const Repo& r) { r.sh("printf 'lib/\\n!lib/deep/keep.py\\n' >> .gitignore && printf n > lib/deep/new.py && printf k > lib/deep/keep.py && printf n > lib/new.py"); }},
      {"a negated pattern re-includes a file",
       [](const Repo& r) { r.sh("printf 'pkg/sub/*.tmp\\n!pkg/sub/keep.tmp\\n' >> .gitignore && printf t > pkg/sub/a.tmp && printf k > pkg/sub/keep.tmp"); }},
      {"a tracked folder moved", [](const Repo& r) { r.sh("mv pkg/sub pkg/sub2"); }},
      {"every file edited (past the narrowing's limit)",
       [](const Repo& r) { r.sh("for f in $(git ls-files); do [ -L $f ] || printf e >> $f; done"); }},
      {"an empty untracked folder", [](const Repo& r) { r.sh("mkdir -p empty/inner"); }},
      {"staged, then reverted in the work tree",
       [](const Repo& r) {
         r.sh("printf 'x = 5\\n' > pkg/a.py");
         r.git("add pkg/a.py");
         r.sh("printf 'x = 1\\n' > pkg/a.py");
         r.age();
       }},
      {"a staged new file", [](const Repo& r) { r.sh("printf 's\\n' > staged.py"); r.git("add staged.py"); r.age(); }},
      {"intent to add", [](const Repo& r) { r.sh("printf 'i\\n' > intent.py"); r.git("add -N intent.py"); r.age(); }},
      {"made executable", [](const Repo& r) { r.sh("chmod +x pkg/sub/c.py"); }},
      {"a symlink retargeted", [](const Repo& r) { r.sh("rm link.py && ln -s pkg/sub/b.py link.py"); }},
      {"a file replaced by a folder", [](const Repo& r) { r.sh("rm README && mkdir README && printf r > README/x"); }},
      {"a folder replaced by a file", [](const Repo& r) { r.sh("rm -r docs && printf d > docs"); }},
      {"skip-worktree, file removed",
       [](const Repo& r) { r.git("update-index --skip-worktree pkg/sub/b.py"); r.sh("rm pkg/sub/b.py"); r.age(); }},
      {"assume-unchanged, file modified",
       [](const Repo& r) { r.git("update-index --assume-unchanged pkg/a.py"); r.sh("printf 'x = 77\\n' > pkg/a.py"); }},
      {"a rename without git mv", [](const Repo& r) { r.sh("mv pkg/sub/c.py pkg/sub/moved.py"); }},
      {"a nested repository", [](const Repo& r) { r.sh("mkdir inner && cd inner && git init -q && printf z > z"); }},
      {"a merge conflict",
       [](const Repo& r) {
         r.git("checkout -q -b other");
         r.sh("printf 'x = 3\\n' > pkg/a.py");
         r.git("commit -qam other");
         r.git("checkout -q -");
         r.sh("printf 'x = 4\\n' > pkg/a.py");
         r.git("commit -qam main");
         r.sh("git -c user.name=i -c user.email=i@i merge other >/dev/null 2>&1 || true");
       }},
      {"autocrlf with a CRLF file",
       [](const Repo& r) { r.git("config core.autocrlf true"); r.sh("printf 'x = 1\\r\\n' > pkg/a.py"); }},
      {"a clean filter",
       [](const Repo& r) {
         r.git("config filter.up.clean 'tr a-z A-Z'");
         r.sh("printf 'pkg/sub/*.py filter=up\\n' > .gitattributes && touch pkg/sub/b.py");
       }},
  };
  for (const auto& [name, apply] : states) {
    DYNAMIC_SECTION(name) {
      Repo repo;
      base_project(repo);
      apply(repo);
      Both both = diff_both(repo);
      CHECK(both.narrowed == both.whole);
    }
  }
}

TEST_CASE("the scan narrows: an aged, clean repository has no candidate, one edit one", "[workdir_diff]") {
  Repo repo;
  base_project(repo);
  auto clean = diff_both(repo);
  REQUIRE(clean.candidates.has_value());
  CHECK(clean.candidates->empty());
  repo.sh("printf 'y = 3\\n' > pkg/sub/b.py && printf n > new.txt");
  auto edited = diff_both(repo);
  REQUIRE(edited.candidates.has_value());
  CHECK(*edited.candidates == std::vector<std::string>{"new.txt", "pkg/sub/b.py"});
  CHECK(edited.narrowed == edited.whole);
}

TEST_CASE("an index written in the same second as a file makes it a candidate (racy clean)", "[workdir_diff]") {
  Repo repo;
  base_project(repo);
  repo.sh("printf 'x = 2\\n' > pkg/a.py");
  repo.git("add pkg/a.py");
  // The index's time set to the file's: the same second however slowly `git add` ran (a second
  // boundary between the write and the add made this case pass only by timing).
  repo.sh("touch -r pkg/a.py .git/index");
  auto both = diff_both(repo);
  REQUIRE(both.candidates.has_value());
  CHECK(std::find(both.candidates->begin(), both.candidates->end(), "pkg/a.py") != both.candidates->end());
  CHECK(both.narrowed == both.whole);
}

// A seeded random walk over work-tree states: after every step the narrowed diff must equal the
// whole one. Steps mix edits, same-second rewrites, deletions, new files and folders, ignore rules,
// staging, commits and index refreshes (which age nothing: some entries stay racily clean).
TEST_CASE("the narrowed diff equals the whole one along a random walk of edits", "[workdir_diff]") {
  Repo repo;
  base_project(repo);
  const std::vector<std::string> files{"pkg/a.py", "pkg/sub/b.py", "pkg/sub/c.py", "lib/deep/z.py", "README",
                                       "docs/index.rst", "new/x.py", "pkg/n.py", "lib/deep/more/m.py", "t.log"};
  uint32_t state = 20261203;
  auto next = [&](uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int step = 0; step < 60; ++step) {
    const std::string& f = files[next(static_cast<uint32_t>(files.size()))];
    std::string dir = f.find('/') == std::string::npos ? "." : f.substr(0, f.rfind('/'));
    switch (next(9)) {
    case 0: repo.sh(fmt::format("mkdir -p {} && printf 'v{}\\n' > {}", dir, step, f)); break;
    case 1: repo.sh(fmt::format("mkdir -p {} && printf 'v{}\\n' >> {}", dir, step, f)); break;
    case 2: repo.sh(fmt::format("rm -rf {}", f)); break;
    case 3: repo.git(fmt::format("add -A {} || true", dir)); break; // the folder may be gone
    case 4: repo.git("commit -qam step || true"); break;              // there may be nothing to commit
    case 5: repo.age(); break;
    case 6: repo.sh(fmt::format("printf '{}\\n' >> .gitignore", next(2) == 0 ? "*.log" : "new/")); break;
    case 7: repo.sh(fmt::format("[ -e {0} ] && touch -d '2020-01-01 00:00:00' {0} || true", f)); break;
    default: repo.git("update-index -q --refresh"); break;
    }
    Both both = diff_both(repo);
    INFO("step " << step);
    REQUIRE(both.narrowed == both.whole);
  }
}
