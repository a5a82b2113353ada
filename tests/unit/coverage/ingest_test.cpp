#include "coverage/import_in_call.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/sqlite.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using impact::CoverageIndex;
using impact::IngestStats;
using impact::k_import_time;
using impact::MeasuredFile;
using impact::testing::TempDir;

namespace {

// The repository's Python files, as the inventory lists them.
const std::vector<impact::RepoPath> k_files{impact::RepoPath("src/app.py"), impact::RepoPath("tests/test_app.py")};

// coverage.py's schema 7, as coverage/sqldata.py creates it.
constexpr const char* k_schema = R"(
CREATE TABLE coverage_schema (version integer);
CREATE TABLE meta (key text, value text, unique (key));
CREATE TABLE file (id integer primary key, path text, unique (path));
CREATE TABLE context (id integer primary key, context text, unique (context));
CREATE TABLE line_bits (file_id integer, context_id integer, numbits blob, unique (file_id, context_id));
CREATE TABLE arc (file_id integer, context_id integer, fromno integer, tono integer,
                  unique (file_id, context_id, fromno, tono));
CREATE TABLE tracer (file_id integer primary key, tracer text);
)";

// coverage.numbits.nums_to_numbits.
std::string numbits(std::initializer_list<uint32_t> lines) {
  std::string out;
  for (uint32_t l : lines) {
    if (out.size() <= l / 8) out.resize(l / 8 + 1, '\0');
    out[l / 8] = static_cast<char>(static_cast<unsigned char>(out[l / 8]) | (1u << (l % 8)));
  }
  return out;
}

// A coverage data file under construction.
class CoverageDb {
public:
  CoverageDb(const std::filesystem::path& path, int schema = 7, bool arcs = false) : m_db(path, impact::util::Database::Mode::create) {
    m_db.exec(k_schema);
    m_db.exec(fmt::format("INSERT INTO coverage_schema VALUES ({})", schema));
    m_db.exec(fmt::format("INSERT INTO meta VALUES ('has_arcs', '{}'), ('version', '6.5.0')", arcs ? 1 : 0));
  }
  // Rows written between begin() and commit() cost one commit, not one (and one fsync) each.
  void begin() { m_db.exec("BEGIN"); }
  void commit() { m_db.exec("COMMIT"); }
  int64_t file(const std::string& path) {
    auto s = m_db.prepare("INSERT INTO file (path) VALUES (?)");
    s.bind(1, path);
    s.step();
    return last();
  }
  int64_t context(const std::string& name) {
    auto s = m_db.prepare("INSERT INTO context (context) VALUES (?)");
    s.bind(1, name);
    s.step();
    return last();
  }
  void lines(int64_t file, int64_t context, std::initializer_list<uint32_t> lines) {
    auto s = m_db.prepare("INSERT INTO line_bits VALUES (?, ?, ?)");
    s.bind(1, file).bind(2, context).bind_blob(3, numbits(lines));
    s.step();
  }
  void arc(int64_t file, int64_t context, int64_t from, int64_t to) {
    auto s = m_db.prepare("INSERT INTO arc VALUES (?, ?, ?, ?)");
    s.bind(1, file).bind(2, context).bind(3, from).bind(4, to);
    s.step();
  }

private:
  int64_t last() {
    auto s = m_db.prepare("SELECT last_insert_rowid()");
    s.step();
    return s.integer(0);
  }
  impact::util::Database m_db;
};

// A repository folder with two measured files.
struct Fixture {
  TempDir dir;
  std::filesystem::path repo;
  std::filesystem::path data;
  Fixture() {
    repo = dir / "repo";
    dir.write("repo/src/app.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n");
    dir.write("repo/tests/test_app.py", "from app import f, g\n\n\ndef test_f():\n    assert f() == 1\n");
    data = dir / "repo/.coverage";
  }
};

const MeasuredFile& file_of(const CoverageIndex& index, std::string_view path) {
  for (const auto& f : index.files) {
    if (f.path.str == path) return f;
  }
  throw std::runtime_error(fmt::format("{} not in the index", path));
}

std::vector<std::string> names(const CoverageIndex& index, const std::vector<uint32_t>& ids) {
  std::vector<std::string> out;
  for (uint32_t id : ids) out.push_back(id == k_import_time ? "<outside>" : index.tests.at(id - 1));
  return out;
}

std::string error_of(const std::filesystem::path& data, const std::filesystem::path& repo) {
  IngestStats stats;
  try {
    impact::ingest_coverage(data, repo, "", k_files, stats);
  } catch (const impact::Error& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("ingest maps pytest-cov contexts to tests and keeps what no single test owns apart", "[coverage]") {
  Fixture fx;
  {
    CoverageDb db(fx.data);
    int64_t app = db.file((fx.repo / "src/app.py").string());
    int64_t test = db.file((fx.repo / "tests/test_app.py").string());
    int64_t outside = db.file("/usr/lib/python3/dist-packages/six.py");
    int64_t none = db.context("");
    int64_t setup = db.context("tests/test_app.py::test_f|setup");
    int64_t run = db.context("tests/test_app.py::test_f|run");
    int64_t teardown = db.context("tests/test_app.py::test_f|teardown");
    int64_t param = db.context("tests/test_app.py::test_g[a b]|run");
    db.lines(app, none, {1, 5});
    db.lines(test, none, {1, 4});
    db.lines(app, setup, {6});
    db.lines(app, run, {2});
    db.lines(test, run, {5});
    db.lines(app, teardown, {6});
    db.lines(app, param, {2, 6});
    db.lines(outside, run, {1, 2, 3});
  }
  IngestStats stats;
  CoverageIndex index = impact::ingest_coverage(fx.data, fx.repo, "", k_files, stats);
  CHECK(index.tests == std::vector<std::string>{"tests/test_app.py::test_f", "tests/test_app.py::test_g[a b]"});
  CHECK(stats.contexts == 5);
  CHECK(stats.test_contexts == 2);
  CHECK(stats.fixture_contexts == 2);
  CHECK(stats.outside_contexts == 1);
  CHECK(stats.outside_files == 1);
  CHECK(stats.files == 2);
  const MeasuredFile& app = file_of(index, "src/app.py");
  CHECK(names(index, app.lines.at(1)) == std::vector<std::string>{"<outside>"});
  CHECK(names(index, app.lines.at(2)) ==
        std::vector<std::string>{"tests/test_app.py::test_f", "tests/test_app.py::test_g[a b]"});
  // Line 6 ran in a fixture phase: not vouched for per test, whoever else ran it.
  CHECK(names(index, app.lines.at(6)) == std::vector<std::string>{"<outside>", "tests/test_app.py::test_g[a b]"});
  CHECK_FALSE(app.lines.contains(3));
  CHECK(app.measured);
  CHECK(app.sha256.size() == 64);
  CHECK(app.oid.size() == 40);
  CHECK(index.meta.tests == 2);
  CHECK(index.meta.files == 2);
}

TEST_CASE("ingest reads arc data: every positive end of an arc is a line that ran", "[coverage]") {
  Fixture fx;
  {
    CoverageDb db(fx.data, 7, true);
    int64_t app = db.file((fx.repo / "src/app.py").string());
    int64_t run = db.context("tests/test_app.py::test_f|run");
    db.arc(app, run, -1, 2);
    db.arc(app, run, 2, -1);
    db.arc(app, run, 5, 6);
  }
  IngestStats stats;
  CoverageIndex index = impact::ingest_coverage(fx.data, fx.repo, "", k_files, stats);
  const MeasuredFile& app = file_of(index, "src/app.py");
  std::vector<uint32_t> lines;
  for (const auto& [line, tests] : app.lines) lines.push_back(line);
  CHECK(lines == std::vector<uint32_t>{2, 5, 6});
}

TEST_CASE("ingest reads schema 6 and relative paths, and drops files that are gone", "[coverage]") {
  Fixture fx;
  {
    CoverageDb db(fx.data, 6);
    int64_t app = db.file("src/app.py");
    int64_t gone = db.file("src/gone.py");
    // dynamic_context = test_function, with the tests outside --cov: their module is still known.
    int64_t run = db.context("tests.test_app.test_f");
    db.context("");
    db.lines(app, run, {2});
    db.lines(gone, run, {1});
  }
  IngestStats stats;
  CoverageIndex index = impact::ingest_coverage(fx.data, fx.repo, "", k_files, stats);
  CHECK(index.tests == std::vector<std::string>{"tests/test_app.py::test_f"});
  REQUIRE(index.files.size() == 1);
  CHECK(index.files[0].path.str == "src/app.py");
  CHECK(stats.missing_files == 1);
}

TEST_CASE("ingest reads data measured in another checkout under this repository's paths", "[coverage]") {
  Fixture fx;
  {
    CoverageDb db(fx.data);
    int64_t app = db.file("/home/runner/work/proj/proj/src/app.py");
    int64_t run = db.context("tests/test_app.py::test_f|run");
    db.lines(app, run, {2});
  }
  IngestStats stats;
  CoverageIndex index = impact::ingest_coverage(fx.data, fx.repo, "", k_files, stats);
  REQUIRE(index.files.size() == 1);
  CHECK(index.files[0].path.str == "src/app.py");
  CHECK(stats.remapped_from == "/home/runner/work/proj/proj");
}

TEST_CASE("ingest refuses bad input with one line naming the file and the fix", "[coverage]") {
  Fixture fx;
  std::string name = fx.data.string();
  SECTION("missing") {
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::StartsWith(name + ": no such coverage file;"));
  }
  SECTION("not SQLite") {
    fx.dir.write("repo/.coverage", "hello, world\n");
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::StartsWith(name + ": not a coverage.py data file (not SQLite);"));
  }
  SECTION("coverage 4's JSON") {
    fx.dir.write("repo/.coverage", "!coverage.py: This is a private format, don't read it directly!{\"lines\":{}}");
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::Contains("coverage.py 4.x data (JSON)"));
  }
  SECTION("an SQLite file of something else") {
    {
      impact::util::Database db(fx.data, impact::util::Database::Mode::create);
      db.exec("CREATE TABLE t (x)");
    }
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::StartsWith(name + ": an SQLite file but not coverage.py data;"));
  }
  SECTION("an unsupported schema") {
    { CoverageDb db(fx.data, 5); }
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::StartsWith(name + ": coverage.py data schema 5, which impact does not read"));
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::Contains("re-run the suite with a supported coverage.py"));
  }
  SECTION("no per-test contexts") {
    {
      CoverageDb db(fx.data);
      int64_t app = db.file((fx.repo / "src/app.py").string());
      db.lines(app, db.context(""), {1, 2});
    }
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::StartsWith(name + ": no per-test contexts; record them with pytest "
                                                                    "--cov-context=test"));
  }
  SECTION("contexts that name no test") {
    {
      CoverageDb db(fx.data);
      db.context("nightly");
    }
    CHECK_THAT(error_of(fx.data, fx.repo), Catch::Contains("none of its 1 context(s) names a pytest test"));
  }
  SECTION("truncated") {
    {
      CoverageDb db(fx.data);
      int64_t app = db.file((fx.repo / "src/app.py").string());
      // Enough rows that the file outgrows the 4096 bytes it is cut to, in one transaction.
      db.begin();
      for (int i = 0; i < 400; ++i) db.lines(app, db.context(fmt::format("tests/test_app.py::test_{}|run", i)), {1, 2});
      db.commit();
    }
    std::filesystem::resize_file(fx.data, 4096);
    std::string error = error_of(fx.data, fx.repo);
    CHECK_THAT(error, Catch::StartsWith(name + ": cannot be read as coverage.py data ("));
    CHECK_THAT(error, Catch::EndsWith("; re-run the suite under coverage"));
    CHECK(error.find(name, 1) == std::string::npos); // SQLite's own words, not its "path: " again
  }
}

TEST_CASE("import-time code run inside a test's call counts as run outside any test", "[coverage][import_in_call]") {
  using namespace impact;
  // Test 1 imported heavy.py in its call (line 3, module level, ran at no other time), and so ran
  // build_table's body; test 2 ran only use(); test 3 ran a fixture's body inside its call.
  MeasuredFile heavy;
  heavy.path = RepoPath("heavy.py");
  heavy.lines = {{1, {1}}, {2, {1}}, {3, {1}}, {5, {2}}};
  std::string heavy_text = "def build_table():\n    return {'a': 1}\nTABLE = build_table()\ndef use():\n    return TABLE\n";
  MeasuredFile fixtures;
  fixtures.path = RepoPath("conftest.py");
  fixtures.lines = {{1, {k_import_time}}, {2, {k_import_time}}, {4, {3}}};
  std::string fixtures_text = "import pytest\n@pytest.fixture(scope='session')\ndef db():\n    return connect()\n";
  MeasuredFile lambdas;
  lambdas.path = RepoPath("lam.py");
  lambdas.lines = {{1, {k_import_time, 2}}};
  std::string lambdas_text = "key = lambda v: v + 1\n";
  MeasuredFile plugin; // imported first by test 4's call, but its import ran no code: a def, a literal
  plugin.path = RepoPath("plugin.py");
  plugin.lines = {{1, {4}}, {2, {4}}, {3, {4}}, {4, {4}}};
  std::string plugin_text = "import os\nNAMES = ['a']\ndef run(x=1):\n    return os.sep\n";
  std::unordered_set<uint32_t> tests;
  find_imports_in_calls(plugin, plugin_text, tests);
  find_imports_in_calls(heavy, heavy_text, tests);
  find_imports_in_calls(fixtures, fixtures_text, tests);
  find_imports_in_calls(lambdas, lambdas_text, tests); // a line that ran at import too: no import in a call
  CHECK(tests == std::unordered_set<uint32_t>{1, 3});
  CoverageIndex index;
  index.files = {heavy, fixtures, lambdas};
  mark_imports_in_calls(index, tests);
  CHECK(index.files[0].lines[2] == std::vector<uint32_t>{k_import_time, 1}); // build_table's body: outside tests too
  CHECK(index.files[0].lines[5] == std::vector<uint32_t>{2});                // test 2's own line
  CHECK(index.files[1].lines[4] == std::vector<uint32_t>{k_import_time, 3});
}

TEST_CASE("ingest gives a child process's lines to its test, and no import inside the test's call", "[coverage][import_in_call]") {
  Fixture fx;
  fx.dir.write("repo/src/app.py", "def f():\n    return 1\n\n\nf()\n"); // line 5: module-level code, run by the child only
  {
    CoverageDb db(fx.data);
    int64_t app = db.file((fx.repo / "src/app.py").string());
    int64_t run = db.context("tests/test_app.py::test_f|run");
    int64_t child = db.context("tests/test_app.py::test_f|child");
    int64_t other = db.context("tests/test_app.py::test_g|run");
    db.lines(app, child, {1, 2, 5});
    db.lines(app, run, {2});
    db.lines(app, other, {2});
  }
  IngestStats stats;
  CoverageIndex index = impact::ingest_coverage(fx.data, fx.repo, "", k_files, stats);
  const MeasuredFile& app = file_of(index, "src/app.py");
  CHECK(names(index, app.lines.at(5)) == std::vector<std::string>{"tests/test_app.py::test_f"});
  CHECK(names(index, app.lines.at(2)) == std::vector<std::string>{"tests/test_app.py::test_f", "tests/test_app.py::test_g"});
  SECTION("the same lines run in the call itself are an import inside it") {
    Fixture in_call;
    in_call.dir.write("repo/src/app.py", "def f():\n    return 1\n\n\nf()\n");
    {
      CoverageDb db(in_call.data);
      int64_t file = db.file((in_call.repo / "src/app.py").string());
      db.lines(file, db.context("tests/test_app.py::test_f|run"), {1, 2, 5});
      db.lines(file, db.context("tests/test_app.py::test_g|run"), {2});
    }
    CoverageIndex marked = impact::ingest_coverage(in_call.data, in_call.repo, "", k_files, stats);
    CHECK(names(marked, file_of(marked, "src/app.py").lines.at(5)) ==
          std::vector<std::string>{"<outside>", "tests/test_app.py::test_f"});
  }
}

TEST_CASE("drop_tests forgets tests and their lines, renumbering the rest", "[coverage][drop_tests]") {
  using namespace impact;
  CoverageIndex index;
  index.tests = {"t.py::a", "t.py::skipped", "t.py::c"};
  MeasuredFile f;
  f.path = RepoPath("m.py");
  f.lines = {{1, {k_import_time}}, {2, {1, 2}}, {3, {2}}, {4, {3}}};
  index.files = {f};
  drop_tests(index, {"t.py::skipped"});
  CHECK(index.tests == std::vector<std::string>{"t.py::a", "t.py::c"});
  const auto& lines = index.files[0].lines;
  CHECK(lines.at(1) == std::vector<uint32_t>{k_import_time});
  CHECK(lines.at(2) == std::vector<uint32_t>{1});
  CHECK_FALSE(lines.contains(3)); // only the skipped test ran it: no test ran it
  CHECK(lines.at(4) == std::vector<uint32_t>{2});
  CHECK(index.meta.tests == 2);
}
