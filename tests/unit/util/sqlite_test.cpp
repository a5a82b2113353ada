#include "util/sqlite.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using impact::util::Database;
using impact::util::SqliteError;

TEST_CASE("SqliteError names the file in what() and keeps SQLite's own words apart", "[sqlite]") {
  impact::testing::TempDir dir;
  auto path = dir.path() / "db.sqlite";
  Database db(path, Database::Mode::create);
  try {
    db.exec("CREATE TABLE t (x); SELEC nonsense");
    FAIL("no error");
  } catch (const SqliteError& e) {
    CHECK_THAT(e.sqlite_message(), Catch::Contains("syntax error"));
    CHECK(std::string(e.what()) == path.string() + ": " + e.sqlite_message());
  }
  CHECK_THROWS_AS(db.prepare("SELECT * FROM missing"), SqliteError);
  auto s = db.prepare("INSERT INTO t (x) VALUES (1)");
  db.exec("DROP TABLE t");
  CHECK_THROWS_AS(s.step(), SqliteError);
}

TEST_CASE("an unopenable database is a SqliteError naming the file", "[sqlite]") {
  impact::testing::TempDir dir;
  auto path = dir.path() / "no" / "such" / "db.sqlite";
  try {
    Database db(path, Database::Mode::read_only);
    FAIL("no error");
  } catch (const SqliteError& e) {
    CHECK(std::string(e.what()) == "cannot open " + path.string() + ": " + e.sqlite_message());
    CHECK_FALSE(e.sqlite_message().empty());
  }
}
