// coverage_evidence(): when the index may vouch for a changed file, over fake reads (no git): the
// reads are functions, so each answer of the Repository seam (content, not found, error) is tried.
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "impact/semantic.hpp"
#include "util/sha256.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>

using namespace impact;
using impact::testing::TempDir;

namespace {

const char* k_base = "def f():\n    return 1\n";
const char* k_now = "def f():\n    return 2\n";
const char* k_test = "from m import f\n\ndef test_f():\n    assert f()\n";

// The project: m.py (changed inside f, line 2) and tests/test_m.py, which the index says ran line 2.
struct Fixture {
  TempDir dir;
  std::unique_ptr<testing::Built> built;
  std::filesystem::path index_path;
  // What the fake reads answer: path -> content; a path in `failing` is an error, one in neither is
  // not found.
  std::map<std::string, std::string> base{{"m.py", k_base}, {"tests/test_m.py", k_test}};
  std::map<std::string, std::string> now{{"m.py", k_now}, {"tests/test_m.py", k_test}};
  std::set<std::string> failing_base, failing_now;
  int base_reads = 0;

  std::vector<std::string> text_doctests; // what coverage_evidence is told pytest collects as text doctests

  // `more` adds files to the project and tests to the index (all recorded as running m.py line 2).
  explicit Fixture(bool measured_base = true,
                   const std::function<void(testing::Project&, std::vector<std::string>&)>& more = {}) {
    testing::Project project;
    project.file("m.py", k_now).file("tests/test_m.py", k_test);
    CoverageIndex index;
    index.tests = {"tests/test_m.py::test_f"};
    if (more) more(project, index.tests);
    built = testing::build(project);
    index.meta.commit = std::string(40, 'b');
    index.meta.source = "pytest";
    index.meta.whole_suite = true;
    MeasuredFile m;
    m.path = RepoPath{"m.py"};
    m.sha256 = util::sha256_hex(measured_base ? k_base : "something else\n");
    m.oid = util::git_blob_id(k_base);
    m.lines[1].push_back(k_import_time); // the `def` line, run at import
    for (uint32_t t = 1; t <= index.tests.size(); ++t) m.lines[2].push_back(t);
    index.files.push_back(m);
    index_path = dir.path() / "index.sqlite";
    write_index(index, index_path);
  }

  CoverageReads reads() {
    auto answer = [](const std::map<std::string, std::string>& files, const std::set<std::string>& failing,
                     const std::string& path) {
      if (failing.contains(path)) return FileRead::error(path + ": object not found; the repository is damaged");
      auto it = files.find(path);
      return it == files.end() ? FileRead::absent() : FileRead::found(it->second);
    };
    return CoverageReads{[this, answer](const RepoPath& p) {
                           ++base_reads;
                           return answer(base, failing_base, p.str);
                         },
                         [this, answer](const SourceFile& f) { return answer(now, failing_now, f.path.str); }};
  }

  CoverageInput evidence(const ChangeSet& changes) {
    std::vector<FileSemantics> semantics;
    for (const auto& change : changes.files) {
      std::optional<std::string> before, after;
      if (change.status == FileStatus::modified) {
        before = k_base;
        after = k_now;
      }
      semantics.push_back(diff_semantics(change, before, after));
    }
    IndexReader index(index_path);
    return coverage_evidence(changes, semantics, built->facts, *built->layout, built->graph, index, reads(),
                             text_doctests);
  }

  static ChangeSet modified_m() {
    ChangedFile change = testing::modified("m.py");
    change.hunks = {Hunk{2, 1, 2, 1}};
    return testing::change_set({change});
  }
};

} // namespace

TEST_CASE("coverage evidence vouches for a change the index measured on the base content", "[coverage]") {
  Fixture fx;
  CoverageInput in = fx.evidence(Fixture::modified_m());
  REQUIRE(in.files.size() == 1);
  const CoverageUse& use = in.files[0];
  CHECK(use.trusted);
  CHECK(use.fallback == CoverageFallback::none);
  REQUIRE(use.tests.size() == 1);
  CHECK(use.tests[0].first == "tests/test_m.py::test_f");
  CHECK(use.tests[0].second == 2);
}

TEST_CASE("coverage evidence falls back to the static rule when the index cannot speak for the base", "[coverage]") {
  SECTION("the base differs from what was measured") {
    Fixture fx(false);
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK_FALSE(use.trusted);
    CHECK(use.fallback == CoverageFallback::drift);
  }
  SECTION("the base has no such file: not found is an answer, and it is drift") {
    Fixture fx;
    fx.base.erase("m.py");
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK(use.fallback == CoverageFallback::drift);
  }
  SECTION("the current file is not there") {
    Fixture fx;
    fx.now.erase("m.py");
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK(use.fallback == CoverageFallback::not_indexed);
    CHECK_THAT(use.detail, Catch::Contains("cannot be read"));
  }
  SECTION("a file the index never measured") {
    Fixture fx;
    ChangedFile change = testing::modified("tests/test_m.py");
    change.hunks = {Hunk{4, 1, 4, 1}};
    const CoverageUse use = fx.evidence(testing::change_set({change})).files.at(0);
    CHECK(use.fallback == CoverageFallback::not_indexed);
  }
  SECTION("an added file is never judged line by line, and nothing is read for it") {
    Fixture fx;
    const CoverageUse use = fx.evidence(testing::change_set({testing::added("m.py")})).files.at(0);
    CHECK(use.fallback == CoverageFallback::added);
    CHECK(fx.base_reads == 0);
  }
}

TEST_CASE("coverage evidence stops on a read that fails: an error is never taken for a missing file", "[coverage]") {
  SECTION("at the base") {
    Fixture fx;
    fx.failing_base.insert("m.py");
    CHECK_THROWS_WITH(fx.evidence(Fixture::modified_m()), Catch::Contains("the repository is damaged"));
  }
  SECTION("in the state under test") {
    Fixture fx;
    fx.failing_now.insert("m.py");
    CHECK_THROWS_AS(fx.evidence(Fixture::modified_m()), Error);
  }
}

TEST_CASE("coverage evidence: a recorded doctest stands for its file while it is still collected", "[coverage]") {
  auto with_doctests = [](testing::Project& project, std::vector<std::string>& tests) {
    project.config.doctest_modules = true;
    project.file("pkg/__init__.py", "")
        .file("pkg/d.py", "from m import f\n\ndef g():\n    \"\"\"\n    >>> g()\n    2\n    \"\"\"\n    return f()\n")
        .file("docs/usage.txt");
    tests.push_back("pkg/d.py::pkg.d.g");
    tests.push_back("docs/usage.txt::usage.txt");
  };
  SECTION("a module's doctest and a text doctest: their files are the tests") {
    Fixture fx(true, with_doctests);
    fx.text_doctests = {"docs/usage.txt"};
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    REQUIRE(use.trusted);
    std::set<std::string> ids;
    for (const auto& [id, line] : use.tests) ids.insert(id);
    CHECK(ids == std::set<std::string>{"tests/test_m.py::test_f", "pkg/d.py", "docs/usage.txt"});
  }
  SECTION("a text doctest pytest no longer collects is a test that no longer exists") {
    Fixture fx(true, with_doctests);
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK(use.fallback == CoverageFallback::tests_missing);
    CHECK_THAT(use.detail, Catch::Contains("docs/usage.txt::usage.txt"));
  }
  SECTION("a module that is no longer collected for its doctests") {
    Fixture fx(true, [&](testing::Project& project, std::vector<std::string>& tests) {
      with_doctests(project, tests);
      project.config.doctest_modules = false;
    });
    fx.text_doctests = {"docs/usage.txt"};
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK(use.fallback == CoverageFallback::tests_missing);
    CHECK_THAT(use.detail, Catch::Contains("pkg/d.py::pkg.d.g"));
  }
  SECTION("a name the module's dotted name does not start is not taken for a doctest") {
    Fixture fx(true, [&](testing::Project& project, std::vector<std::string>& tests) {
      with_doctests(project, tests);
      tests.push_back("pkg/d.py::test_gone");
    });
    fx.text_doctests = {"docs/usage.txt"};
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK(use.fallback == CoverageFallback::tests_missing);
    CHECK_THAT(use.detail, Catch::Contains("pkg/d.py::test_gone"));
  }
}

namespace {

// A merged index of two runs: run 0 (older) measured m.py as `m_content` and tests/test_m.py as
// k_test, recording test_f; run 1 (newer) measured m.py as "def f():\n    return 9\n" and recorded
// test_other. `test_file_runs` are the runs that measured tests/test_m.py as it is now.
CoverageIndex two_runs(const Fixture& fx, const std::string& m_content, std::vector<uint32_t> test_file_runs) {
  CoverageIndex index;
  index.meta.commit = std::string(40, 'b');
  index.meta.built_epoch = 2000;
  index.meta.whole_suite = true;
  index.tests = {"tests/test_m.py::test_f", "tests/test_m.py::test_other"};
  index.origins = {IndexOrigin{std::string(40, 'a'), 1000}, IndexOrigin{std::string(40, 'b'), 2000}};
  auto version = [](std::string path, const std::string& content, uint32_t test, std::vector<uint32_t> runs) {
    MeasuredFile f;
    f.path = RepoPath{std::move(path)};
    f.sha256 = util::sha256_hex(content);
    f.oid = util::git_blob_id(content);
    f.lines[1] = {k_import_time}; // the `def` line, run at import
    f.lines[2] = {test};
    f.origins = std::move(runs);
    return f;
  };
  index.files.push_back(version("m.py", "def f():\n    return 9\n", 2, {1}));
  index.files.push_back(version("m.py", m_content, 1, {0}));
  index.files.push_back(version("tests/test_m.py", k_test, 1, std::move(test_file_runs)));
  // The fake project's blob ids are not the contents' (testing::oid).
  index.files.back().oid = fx.built->facts.files.at(fx.built->facts.find("tests/test_m.py")).oid;
  return index;
}

} // namespace

TEST_CASE("coverage evidence reads the version of a file measured on the content at the diff base", "[coverage]") {
  Fixture fx;
  SECTION("the older version matches the base: its tests answer, not the newer version's") {
    write_index(two_runs(fx, k_base, {0}), fx.index_path);
    CoverageInput in = fx.evidence(Fixture::modified_m());
    const CoverageUse& use = in.files.at(0);
    CHECK(use.trusted);
    REQUIRE(use.tests.size() == 1);
    CHECK(use.tests[0].first == "tests/test_m.py::test_f");
    CHECK(in.unmeasured_tests.empty()); // the test file is as the version's own run measured it
  }
  SECTION("no version matches the base: drift, as with one version") {
    write_index(two_runs(fx, "def f():\n    return 5\n", {0}), fx.index_path);
    const CoverageUse use = fx.evidence(Fixture::modified_m()).files.at(0);
    CHECK_FALSE(use.trusted);
    CHECK(use.fallback == CoverageFallback::drift);
    CHECK(use.detail == "m.py changed since the index was built");
  }
  SECTION("a file is compared with the run that measured the version used, not with another run") {
    // Only the newer run measured tests/test_m.py as it is: against the older run, whose m.py the
    // change uses, the test file is unmeasured, so its tests keep the static answer.
    write_index(two_runs(fx, k_base, {1}), fx.index_path);
    CoverageInput in = fx.evidence(Fixture::modified_m());
    CHECK(in.files.at(0).trusted);
    CHECK(in.unmeasured_tests == std::vector<std::string>{"tests/test_m.py"});
  }
}
