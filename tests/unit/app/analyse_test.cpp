// analyse() over a FakeRepository: the pipeline without git, and what it does when the coverage
// index or the repository fails.
#include "app/analyse.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/cache_dir.hpp"
#include "util/sha256.hpp"

#include "fake_repository.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using impact::testing::FakeRepository;
using impact::testing::TempDir;

namespace {

const char* k_base = "def f():\n    return 1\n";
const char* k_now = "def f():\n    return 2\n";

// m.py changed inside f, which the index says tests/test_m.py::test_f ran (line 2).
void make_project(FakeRepository& repo) {
  repo.add("m.py", k_base);
  repo.add("tests/test_m.py", "from m import f\n\ndef test_f():\n    assert f()\n");
  repo.modify("m.py", k_now, {Hunk{2, 1, 2, 1}});
}

void write_index_of(const std::filesystem::path& root) {
  CoverageIndex index;
  index.meta.commit = std::string(40, 'b');
  index.meta.source = "pytest";
  index.tests = {"tests/test_m.py::test_f"};
  MeasuredFile m;
  m.path = RepoPath{"m.py"};
  m.sha256 = util::sha256_hex(k_base);
  m.oid = util::git_blob_id(k_base);
  m.lines[2] = {1};
  index.files.push_back(m);
  auto dir = util::cache_dir(root, testing::env_of({})); // as analyse() sees it: no IMPACT_CACHE
  util::ensure_cache_dir(dir);
  write_index(index, dir / index_file_name());
}

app::Analysis run(FakeRepository& repo) {
  EnvLookup env = [](const char*) { return std::optional<std::string>(); };
  cli::Options options;
  options.directory = repo.root();
  options.no_cache = true;
  options.jobs = 1;
  ImpactConfig config = load_impact_config(repo.root(), env, options.config);
  return app::analyse(repo, config, options, env);
}

} // namespace

TEST_CASE("analyse falls back to the static answer for a bad index, and stops on a failing read", "[app]") {
  TempDir dir;
  FakeRepository repo(dir.path());
  make_project(repo);

  SECTION("without an index the change is decided statically, with no warning") {
    app::Analysis a = run(repo);
    CHECK(a.warnings.empty());
    CHECK_FALSE(a.index);
    CHECK(a.decision.outcome == Outcome::selected);
  }
  SECTION("an index that is not one is a warning, and the analysis goes on without it") {
    dir.write(".impact_cache/coverage-index.sqlite", "not a database");
    app::Analysis a = run(repo);
    REQUIRE(a.warnings.size() == 1);
    CHECK_THAT(a.warnings[0], Catch::Contains("selecting without the coverage index"));
    CHECK(a.decision.warnings == a.warnings);
    CHECK(a.decision.outcome == Outcome::selected);
  }
  SECTION("a repository read that fails while the index is consulted is an error, not \"no index\"") {
    write_index_of(dir.path());
    repo.fail_base_read("m.py", 1); // the semantic diff's read succeeds, the coverage stage's fails
    CHECK_THROWS_WITH(run(repo), Catch::Contains("the repository is damaged"));
  }
  SECTION("a good index is used, and the warnings stay empty") {
    write_index_of(dir.path());
    app::Analysis a = run(repo);
    CHECK(a.warnings.empty());
    CHECK(a.index);
  }
}

TEST_CASE("analyse decides no_ci_base without reading the project", "[app]") {
  TempDir dir;
  FakeRepository repo(dir.path());
  make_project(repo);
  EnvLookup env = [](const char* name) {
    return std::string_view(name) == "CI" ? std::optional<std::string>("true") : std::nullopt;
  };
  cli::Options options;
  options.directory = dir.path();
  ImpactConfig config = load_impact_config(dir.path(), env, options.config);
  app::Analysis a = app::analyse(repo, config, options, env);
  CHECK(a.decision.outcome == Outcome::run_all);
  CHECK(a.decision.reason == Reason::no_ci_base);
}

TEST_CASE("analyse widens or stops on a file it cannot read, never takes it for a missing one", "[app]") {
  TempDir dir;
  FakeRepository repo(dir.path());
  make_project(repo);

  SECTION("a pin file whose new side cannot be read: its change is unknown, and every test runs") {
    repo.add("requirements.txt", "attrs==1\n");
    repo.modify("requirements.txt", "attrs==2\n", {Hunk{1, 1, 1, 1}});
    repo.fail_current_read("requirements.txt");
    app::Analysis a = run(repo);
    CHECK(a.decision.outcome == Outcome::run_all);
    // Not "attrs moved" (the old side against an empty new one), which could narrow: unknown.
    CHECK_THAT(a.decision.detail, Catch::Contains("requirements.txt changed in a way that names no distribution"));
  }
  SECTION("a text doctest that cannot be read stops the run, naming it") {
    const char* ini = "[pytest]\naddopts = --doctest-glob=*.txt\n";
    dir.write("pytest.ini", ini);
    repo.add("pytest.ini", ini);
    repo.add("guide.txt", ">>> import m\n");
    repo.fail_current_read("guide.txt");
    CHECK_THROWS_WITH(run(repo), Catch::Contains("guide.txt cannot be read") && Catch::Contains("--doctest-glob"));
  }
}
