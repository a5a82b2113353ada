#include "util/sqlite.hpp"

#include <sqlite3.h>

namespace impact::util {

void SqliteClose::operator()(sqlite3* db) const noexcept { sqlite3_close(db); }
void SqliteFinalize::operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }

namespace {

[[noreturn]] void refused(const std::filesystem::path& path, std::string message) {
  std::string what = fmt::format("{}: {}", path.string(), message);
  throw SqliteError(std::move(what), std::move(message));
}

} // namespace

Database::Database(const std::filesystem::path& path, Mode mode) : m_path(path) {
  // SQLite would open a FIFO or a device and then block or read without end.
  std::error_code ec;
  auto type = std::filesystem::status(path, ec).type();
  if (type != std::filesystem::file_type::regular && type != std::filesystem::file_type::not_found) {
    refused(path, "not a regular file (a FIFO, socket, device or folder); give the path of a database file");
  }
  int flags = mode == Mode::read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  m_db.reset(db); // closed even when the open failed (SQLite may return a handle then)
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    std::string what = fmt::format("cannot open {}: {}", path.string(), message);
    throw SqliteError(std::move(what), std::move(message));
  }
  sqlite3_busy_timeout(db, 5000);
}

void Database::exec(std::string_view sql) {
  char* message = nullptr;
  if (sqlite3_exec(m_db.get(), std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    refused(m_path, std::move(text));
  }
}

Statement Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
    refused(m_path, sqlite3_errmsg(m_db.get()));
  }
  return Statement(*this, stmt);
}

bool Database::has_table(std::string_view name) {
  auto s = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  s.bind(1, name);
  return s.step();
}


Statement& Statement::bind(int index, int64_t value) {
  sqlite3_bind_int64(m_stmt.get(), index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(m_stmt.get(), index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view value) {
  sqlite3_bind_blob(m_stmt.get(), index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(m_stmt.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  refused(m_db->path(), sqlite3_errmsg(m_db->handle()));
}

void Statement::reset() {
  sqlite3_reset(m_stmt.get());
  sqlite3_clear_bindings(m_stmt.get());
}

int64_t Statement::integer(int column) const { return sqlite3_column_int64(m_stmt.get(), column); }

std::string Statement::text(int column) const {
  const auto* p = sqlite3_column_text(m_stmt.get(), column);
  return p != nullptr ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt.get(), column)))
                      : std::string();
}

std::string_view Statement::blob(int column) const {
  const void* p = sqlite3_column_blob(m_stmt.get(), column);
  return p != nullptr ? std::string_view(static_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt.get(), column)))
                      : std::string_view();
}

bool Statement::is_null(int column) const { return sqlite3_column_type(m_stmt.get(), column) == SQLITE_NULL; }

} // namespace impact::util
