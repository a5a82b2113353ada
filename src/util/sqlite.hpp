#pragma once
// A thin RAII adapter over sqlite3: the only code that includes <sqlite3.h>.
#include "impact/error.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace impact::util {

class Statement;

// Closes a database and finalizes a statement (defined beside <sqlite3.h>, in sqlite.cpp).
struct SqliteClose {
  void operator()(sqlite3* db) const noexcept;
};
struct SqliteFinalize {
  void operator()(sqlite3_stmt* stmt) const noexcept;
};

// What SQLite refused: what() names the file ("<path>: <message>", or "cannot open <path>: <message>"),
// sqlite_message() is SQLite's own words, for callers that name the file and the fix themselves.
class SqliteError : public Error {
public:
  SqliteError(std::string what, std::string sqlite_message)
      : Error(std::move(what)), m_sqlite_message(std::move(sqlite_message)) {}
  const std::string& sqlite_message() const { return m_sqlite_message; }

private:
  std::string m_sqlite_message;
};

// An open database. Throws SqliteError on failure.
class Database {
public:
  enum class Mode { read_only, create };
  Database(const std::filesystem::path& path, Mode mode);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  bool has_table(std::string_view name);
  const std::filesystem::path& path() const { return m_path; }
  sqlite3* handle() { return m_db.get(); }

private:
  std::unique_ptr<sqlite3, SqliteClose> m_db;
  std::filesystem::path m_path;
};

// A prepared statement: bind, then step() through the rows.
class Statement {
public:
  Statement(Database& db, sqlite3_stmt* stmt) : m_db(&db), m_stmt(stmt) {}
  Statement(Statement&& other) noexcept = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, std::string_view value);
  Statement& bind_blob(int index, std::string_view value);
  // Advances to the next row; false when done. Throws SqliteError on failure.
  bool step();
  void reset();
  int64_t integer(int column) const;
  std::string text(int column) const;
  std::string_view blob(int column) const; // valid until the next step()
  bool is_null(int column) const;

private:
  Database* m_db; // not owned: the database outlives its statements
  std::unique_ptr<sqlite3_stmt, SqliteFinalize> m_stmt;
};

} // namespace impact::util
