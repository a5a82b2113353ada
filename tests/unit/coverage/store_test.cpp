#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/sqlite.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using impact::CoverageIndex;
using impact::IndexReader;
using impact::MeasuredFile;
using impact::RepoPath;
using impact::testing::TempDir;

namespace {

MeasuredFile measured(std::string path, std::string sha, std::map<uint32_t, std::vector<uint32_t>> lines) {
  MeasuredFile f;
  f.path = RepoPath(std::move(path));
  f.sha256 = sha + std::string(64 - sha.size(), '0');
  f.oid = sha + std::string(40 - sha.size(), '0');
  f.lines = std::move(lines);
  return f;
}

CoverageIndex sample(int64_t epoch = 1000) {
  CoverageIndex index;
  index.meta.built_at = "2026-01-01T00:00:00Z";
  index.meta.built_epoch = epoch;
  index.meta.commit = std::string(40, 'c');
  index.meta.source = "pytest";
  index.tests = {"tests/test_a.py::test_one", "tests/test_a.py::test_two[x y]", "tests/test_a.pyi::test_no",
                 "tests/test_b.py::TestB::test_three"};
  index.files.push_back(measured("src/a.py", "aa", {{1, {0}}, {4, {1, 2}}, {5, {2}}, {900, {1, 2, 3, 4}}}));
  index.files.push_back(measured("tests/test_a.py", "bb", {{3, {1}}, {7, {2}}}));
  MeasuredFile hashed = measured("src/unused.py", "cc", {});
  hashed.measured = false;
  index.files.push_back(hashed);
  return index;
}

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_error(const std::filesystem::path& path) {
  try {
    IndexReader reader(path);
    reader.file(RepoPath("src/a.py"));
  } catch (const impact::Error& e) {
    return e.what();
  }
  return "no error";
}

const MeasuredFile& file_of(const CoverageIndex& index, std::string_view path) {
  for (const auto& f : index.files) {
    if (f.path.str == path) return f;
  }
  throw std::runtime_error(fmt::format("{} not in the index", path));
}

// The node ids of `file`'s line `line` in a merged index.
std::vector<std::string> tests_at(const CoverageIndex& index, std::string_view file, uint32_t line) {
  std::vector<std::string> out;
  for (uint32_t id : file_of(index, file).lines.at(line)) out.push_back(id == 0 ? "<outside>" : index.tests.at(id - 1));
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("the store round-trips an index, and a lookup reads one file", "[coverage]") {
  TempDir dir;
  auto path = dir / "cache/coverage-index.sqlite";
  CoverageIndex index = sample();
  impact::write_index(index, path);

  CoverageIndex back = impact::read_index(path, true);
  CHECK(back.tests == index.tests);
  CHECK(back.meta.commit == index.meta.commit);
  CHECK(back.meta.built_epoch == 1000);
  CHECK(back.meta.tests == 4);
  CHECK(back.meta.files == 2);
  CHECK(back.meta.hashed == 1);
  REQUIRE(back.files.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(back.files[i].path == index.files[i].path);
    CHECK(back.files[i].sha256 == index.files[i].sha256);
    CHECK(back.files[i].oid == index.files[i].oid);
    CHECK(back.files[i].measured == index.files[i].measured);
    CHECK(back.files[i].lines == index.files[i].lines);
  }
  CHECK(impact::read_index(path, false).files[0].lines.empty());

  IndexReader reader(path);
  CHECK(reader.meta().source == "pytest");
  auto a = reader.file(RepoPath("src/a.py"));
  REQUIRE(a.has_value());
  CHECK(a->lines == index.files[0].lines);
  CHECK(a->measured);
  CHECK_FALSE(reader.file(RepoPath("src/unused.py"))->measured);
  CHECK_FALSE(reader.file(RepoPath("src/nowhere.py")).has_value());
  CHECK(reader.test_name(2) == "tests/test_a.py::test_two[x y]");
  CHECK(reader.test_name(99).empty());
  CHECK(reader.tests_in(RepoPath("tests/test_a.py")) ==
        std::vector<std::string>{"tests/test_a.py::test_one", "tests/test_a.py::test_two[x y]"});
  CHECK(reader.tests_in(RepoPath("tests/test_b.py")) == std::vector<std::string>{"tests/test_b.py::TestB::test_three"});
  CHECK(reader.tests_in(RepoPath("tests/test_c.py")).empty());
  CHECK(reader.file_oids().size() == 3);
}

TEST_CASE("writing is atomic: a temporary file renamed into place, none left behind", "[coverage]") {
  TempDir dir;
  auto path = dir / "coverage-index.sqlite";
  impact::write_index(sample(), path);
  CHECK(entries(dir.path()) == std::vector<std::string>{"coverage-index.sqlite"});
  SECTION("a reader open on the old file keeps reading it while a new one replaces it") {
    IndexReader old_reader(path);
    CoverageIndex next = sample(2000);
    next.files[0].lines = {{42, {1}}};
    impact::write_index(next, path);
    CHECK(entries(dir.path()) == std::vector<std::string>{"coverage-index.sqlite"});
    CHECK(old_reader.file(RepoPath("src/a.py"))->lines.contains(900));
    CHECK(IndexReader(path).file(RepoPath("src/a.py"))->lines.count(42) == 1);
  }
  SECTION("a failed rename removes the temporary file") {
    auto blocked = dir / "blocked";
    std::filesystem::create_directories(blocked / "not-empty");
    CHECK_THROWS_AS(impact::write_index(sample(), blocked), impact::Error);
    CHECK(entries(dir.path()) == std::vector<std::string>{"blocked", "coverage-index.sqlite"});
  }
}

// The versions of `path` in a merged index, newest first.
std::vector<const MeasuredFile*> versions_of(const CoverageIndex& index, std::string_view path) {
  std::vector<const MeasuredFile*> out;
  for (const auto& f : index.files) {
    if (f.path.str == path) out.push_back(&f);
  }
  return out;
}

TEST_CASE("merge unions line maps where hashes agree and keeps both versions where they differ", "[coverage]") {
  CoverageIndex older = sample(1000);
  CoverageIndex newer = sample(2000);
  newer.meta.commit = std::string(40, 'd');
  // The newer shard ran other tests (ids in another order) over the same src/a.py ...
  newer.tests = {"tests/test_b.py::TestB::test_three", "tests/test_c.py::test_new"};
  newer.files[0].lines = {{4, {2}}, {6, {1}}};
  // ... and measured a different tests/test_a.py.
  newer.files[1] = measured("tests/test_a.py", "b2", {{3, {2}}});
  newer.files.pop_back();
  for (bool reversed : {false, true}) {
    std::vector<CoverageIndex> parts = reversed ? std::vector{newer, older} : std::vector{older, newer};
    CoverageIndex merged = impact::merge_indexes(parts);
    CHECK(merged.meta.commit == newer.meta.commit);
    CHECK(merged.meta.built_epoch == 2000);
    CHECK(merged.meta.source == "merge of 2 index(es)");
    CHECK(merged.meta.schema == 4);
    REQUIRE(merged.origins.size() == 2);
    CHECK(tests_at(merged, "src/a.py", 4) == std::vector<std::string>{"tests/test_a.py::test_one", "tests/test_a.py::test_two[x y]",
                                                                      "tests/test_c.py::test_new"});
    CHECK(tests_at(merged, "src/a.py", 6) == std::vector<std::string>{"tests/test_b.py::TestB::test_three"});
    CHECK(tests_at(merged, "src/a.py", 1) == std::vector<std::string>{"<outside>"});
    CHECK(tests_at(merged, "src/a.py", 900).size() == 4);
    // The same content of src/a.py is one version, measured by both runs (the newer first).
    REQUIRE(versions_of(merged, "src/a.py").size() == 1);
    const auto& runs = file_of(merged, "src/a.py").origins;
    REQUIRE(runs.size() == 2);
    CHECK(merged.origins.at(runs[0]).built_epoch == 2000);
    CHECK(merged.origins.at(runs[1]).built_epoch == 1000);
    // Two contents of tests/test_a.py: both kept, each with its own map and run, the newer first.
    auto test_a = versions_of(merged, "tests/test_a.py");
    REQUIRE(test_a.size() == 2);
    CHECK(test_a[0]->sha256 == newer.files[1].sha256);
    CHECK(test_a[0]->lines.size() == 1);
    CHECK(merged.tests.at(test_a[0]->lines.at(3).at(0) - 1) == "tests/test_c.py::test_new");
    CHECK(merged.origins.at(test_a[0]->origins.at(0)).built_epoch == 2000);
    CHECK(test_a[1]->sha256 == older.files[1].sha256);
    CHECK(test_a[1]->lines.size() == 2);
    CHECK(merged.origins.at(test_a[1]->origins.at(0)).built_epoch == 1000);
    CHECK_FALSE(file_of(merged, "src/unused.py").measured); // only the older one has it
    CHECK(merged.meta.files == 2); // files, not versions
    CHECK(merged.meta.hashed == 1);
  }
  SECTION("built in the same second, the greater hash comes first whatever the order") {
    CoverageIndex a = sample(5000), b = sample(5000);
    b.meta.commit = std::string(40, 'e');
    b.files[0] = measured("src/a.py", "ff", {{2, {1}}});
    for (bool reversed : {false, true}) {
      CoverageIndex merged = impact::merge_indexes(reversed ? std::vector{b, a} : std::vector{a, b});
      auto a_py = versions_of(merged, "src/a.py");
      REQUIRE(a_py.size() == 2);
      CHECK(a_py[0]->sha256 == b.files[0].sha256);
      CHECK(a_py[1]->sha256 == a.files[0].sha256);
    }
  }
  SECTION("a merged index round-trips through the store, versions and runs included") {
    TempDir dir;
    CoverageIndex merged = impact::merge_indexes({older, newer});
    impact::write_index(merged, dir / "merged.sqlite");
    CoverageIndex back = impact::read_index(dir / "merged.sqlite", true);
    CHECK(back.tests.size() == 5);
    CHECK(back.origins == merged.origins);
    REQUIRE(back.files.size() == merged.files.size());
    for (size_t i = 0; i < back.files.size(); ++i) {
      CHECK(back.files[i].path == merged.files[i].path);
      CHECK(back.files[i].sha256 == merged.files[i].sha256);
      CHECK(back.files[i].origins == merged.files[i].origins);
      CHECK(back.files[i].lines == merged.files[i].lines);
    }
    IndexReader reader(dir / "merged.sqlite");
    auto versions = reader.versions(RepoPath("tests/test_a.py"));
    REQUIRE(versions.size() == 2);
    CHECK(versions[0].sha256 == newer.files[1].sha256);
    CHECK(versions[1].sha256 == older.files[1].sha256);
    CHECK(reader.file(RepoPath("tests/test_a.py"))->sha256 == newer.files[1].sha256);
    CHECK(reader.file_oids().size() == 4);
  }
}

TEST_CASE("merge keeps at most four versions of a file: the oldest go, whatever the order", "[coverage]") {
  std::vector<CoverageIndex> parts;
  for (int i = 0; i < 6; ++i) {
    CoverageIndex part = sample(1000 + i);
    part.meta.commit = std::string(40, static_cast<char>('a' + i));
    part.files[0] = measured("src/a.py", std::string(1, static_cast<char>('a' + i)) + "1", {{7, {1}}});
    parts.push_back(part);
  }
  for (bool reversed : {false, true}) {
    if (reversed) std::reverse(parts.begin(), parts.end());
    CoverageIndex merged = impact::merge_indexes(parts);
    auto a_py = versions_of(merged, "src/a.py");
    REQUIRE(a_py.size() == impact::k_versions_per_file);
    for (size_t v = 0; v < a_py.size(); ++v) {
      // Newest first: runs 5, 4, 3, 2; runs 0 and 1 measured versions that were dropped.
      CHECK(a_py[v]->sha256.substr(0, 2) == std::string(1, static_cast<char>('a' + 5 - v)) + "1");
      REQUIRE(a_py[v]->origins.size() == 1);
      CHECK(merged.origins.at(a_py[v]->origins[0]).built_epoch == static_cast<int64_t>(1005 - v));
    }
    // tests/test_a.py has one content in all six runs: one version, the four newest runs kept.
    auto test_a = versions_of(merged, "tests/test_a.py");
    REQUIRE(test_a.size() == 1);
    REQUIRE(test_a[0]->origins.size() == impact::k_versions_per_file);
    CHECK(merged.origins.at(test_a[0]->origins.back()).built_epoch == 1002);
    // Runs no version names any more are gone.
    CHECK(merged.origins.size() == impact::k_versions_per_file);
    // Merging the merged index into itself changes nothing.
    CoverageIndex again = impact::merge_indexes({merged, merged});
    CHECK(versions_of(again, "src/a.py").size() == impact::k_versions_per_file);
    CHECK(again.origins == merged.origins);
  }
}

TEST_CASE("an index of schema 3 (one version per file) still reads, as one run", "[coverage]") {
  TempDir dir;
  auto path = dir / "coverage-index.sqlite";
  impact::write_index(sample(), path);
  {
    impact::util::Database db(path, impact::util::Database::Mode::create);
    db.exec("DROP INDEX file_path; ALTER TABLE file DROP COLUMN origins; DROP TABLE origin;"
            "UPDATE meta SET value = '3' WHERE key = 'schema'");
  }
  CoverageIndex back = impact::read_index(path, true);
  CHECK(back.meta.schema == 3);
  REQUIRE(back.origins.size() == 1);
  CHECK(back.origins[0].built_epoch == 1000);
  CHECK(file_of(back, "src/a.py").origins == std::vector<uint32_t>{0});
  CHECK(file_of(back, "src/a.py").lines == sample().files[0].lines);
  IndexReader reader(path);
  CHECK(reader.versions(RepoPath("src/a.py")).size() == 1);
  CHECK(reader.file_oids().size() == 3);
  CoverageIndex merged = impact::merge_indexes({back, sample(3000)});
  CHECK(merged.origins.size() == 2);
}

TEST_CASE("reading a bad index throws one error naming the file and the fix", "[coverage]") {
  TempDir dir;
  auto path = dir / "coverage-index.sqlite";
  std::string name = path.string();
  SECTION("missing") {
    CHECK_THAT(read_error(path), Catch::StartsWith(name + ": no such index; build one with impact index"));
  }
  SECTION("empty") {
    dir.write("coverage-index.sqlite", "");
    CHECK(read_error(path) == name + ": corrupt coverage index (empty file); delete it and rebuild it with impact index");
  }
  SECTION("foreign bytes") {
    dir.write("coverage-index.sqlite", std::string(4096, 'x'));
    CHECK(read_error(path) == name + ": not an impact coverage index; delete it and rebuild it with impact index");
  }
  SECTION("another program's SQLite file") {
    {
      impact::util::Database db(path, impact::util::Database::Mode::create);
      db.exec("CREATE TABLE meta (key TEXT, value TEXT); INSERT INTO meta VALUES ('application', 'else')");
    }
    CHECK(read_error(path) == name + ": not an impact coverage index; delete it and rebuild it with impact index");
  }
  SECTION("a newer schema") {
    impact::write_index(sample(), path);
    {
      impact::util::Database db(path, impact::util::Database::Mode::create);
      db.exec("UPDATE meta SET value = '99' WHERE key = 'schema'");
    }
    CHECK_THAT(read_error(path), Catch::StartsWith(name + ": written by a newer impact (index schema 99"));
    CHECK_THAT(read_error(path), Catch::EndsWith("rebuild it with impact index or upgrade impact"));
  }
  SECTION("truncated") {
    CoverageIndex big = sample();
    for (uint32_t i = 0; i < 2000; ++i) big.files[0].lines[1000 + i] = {1, 2, 3};
    impact::write_index(big, path);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    CHECK_THAT(read_error(path), Catch::StartsWith(name + ": corrupt coverage index (truncated: "));
    CHECK_THROWS_WITH(impact::read_index(path, true), Catch::Contains("delete it and rebuild it with impact index"));
  }
  SECTION("a damaged line map") {
    impact::write_index(sample(), path);
    {
      impact::util::Database db(path, impact::util::Database::Mode::create);
      db.exec("UPDATE lines SET map = x'ffffffff' WHERE file_id = 1");
    }
    CHECK(read_error(path) ==
          name + ": corrupt coverage index (the line map of src/a.py); delete it and rebuild it with impact index");
    CHECK_THROWS_WITH(impact::read_index(path, true), Catch::Contains("(the line map of src/a.py)"));
  }
  SECTION("damaged pages") {
    impact::write_index(sample(), path);
    {
      // Keep the header (and so the page count) but overwrite every page after the first.
      auto size = std::filesystem::file_size(path);
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(4096);
      std::string junk(size - 4096, '\x5a');
      f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    CHECK_THAT(read_error(path), Catch::StartsWith(name + ": corrupt coverage index ("));
    CHECK_THAT(read_error(path), Catch::EndsWith("); delete it and rebuild it with impact index"));
    CHECK(read_error(path).find(name, 1) == std::string::npos); // SQLite's own words, not its "path: " again
  }
}

TEST_CASE("an untrusted file round-trips, matches no content and makes a merge with it untrusted", "[coverage]") {
  TempDir dir;
  auto path = dir / "coverage-index.sqlite";
  CoverageIndex index = sample();
  index.files[1].trusted = false; // tests/test_a.py
  index.files[1].lines.clear();
  impact::write_index(index, path);
  CoverageIndex back = impact::read_index(path, true);
  CHECK(back.meta.untrusted == 1);
  CHECK(file_of(back, "src/a.py").trusted);
  CHECK_FALSE(file_of(back, "tests/test_a.py").trusted);
  IndexReader reader(path);
  CHECK_FALSE(reader.file(RepoPath("tests/test_a.py"))->trusted);
  CHECK(reader.file(RepoPath("src/a.py"))->trusted);
  for (const auto& v : reader.file_oids()) CHECK(v.oid.empty() == (v.path == "tests/test_a.py"));

  SECTION("a union with an untrusted shard of the same content is untrusted, whatever the order") {
    CoverageIndex other = sample(1000);
    other.files[0].trusted = false; // src/a.py, same hash as the trusted one
    for (bool reversed : {false, true}) {
      CoverageIndex merged = impact::merge_indexes(reversed ? std::vector{other, sample(1000)} : std::vector{sample(1000), other});
      CHECK_FALSE(file_of(merged, "src/a.py").trusted);
      CHECK(file_of(merged, "tests/test_a.py").trusted);
      CHECK(merged.meta.untrusted == 1);
    }
  }
}

TEST_CASE("only an impact index is taken for one: what merge -o may overwrite", "[coverage]") {
  TempDir dir;
  impact::write_index(sample(), dir / "index.sqlite");
  CHECK(impact::is_index_file(dir / "index.sqlite"));
  CHECK_FALSE(impact::is_index_file(dir / "absent.sqlite"));
  CHECK_FALSE(impact::is_index_file(dir.write("src/calc.py", "def f():\n    return 1\n")));
  CHECK_FALSE(impact::is_index_file(dir.write("src/__init__.py", "")));
  CHECK_FALSE(impact::is_index_file(dir.path()));
  {
    impact::util::Database db(dir / "other.sqlite", impact::util::Database::Mode::create);
    db.exec("CREATE TABLE meta (key TEXT, value TEXT); INSERT INTO meta VALUES ('application', 'else')");
  }
  CHECK_FALSE(impact::is_index_file(dir / "other.sqlite"));
}
