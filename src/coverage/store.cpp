// The index store: one SQLite file. A file's line map is one row of its own table (line -> test ids,
// delta-encoded), apart from the small per-file row of path and hashes, so a lookup for a one-file
// change reads that file's two rows and the names of the tests it holds, nothing else.
#include "coverage/versions.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/binary.hpp"
#include "util/files.hpp"
#include "util/hex.hpp"
#include "util/sqlite.hpp"
#include "util/temp_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>

namespace impact {

namespace {

// 2: line maps (and content hashes) in their own table, binary hashes: the `file` table, which every
// lookup scans for drift, stays small (1 kept everything in one row per file). 3: a file's `trusted`
// flag; a schema 2 index may hold line maps read from another commit's data, so it is not read. 4:
// several versions of one path (`file.path` no longer unique) and the runs that measured each (the
// `origin` table, `file.origins`); a schema 3 index still reads, as one run's versions.
constexpr int k_schema = 4;
constexpr int k_oldest_schema = 3;
constexpr std::string_view k_application = "impact-coverage-index";

[[noreturn]] void corrupt(const std::filesystem::path& path, std::string_view what) {
  throw Error("{}: corrupt coverage index ({}); delete it and rebuild it with impact index", path.string(), what);
}

[[noreturn]] void foreign(const std::filesystem::path& path) {
  throw Error("{}: not an impact coverage index; delete it and rebuild it with impact index", path.string());
}

// Runs `read`, turning SQLite's errors (a damaged or truncated file) into one that names the fix.
template <typename F>
auto guarded(const std::filesystem::path& path, F&& read) {
  try {
    return read();
  } catch (const util::SqliteError& e) {
    corrupt(path, e.sqlite_message());
  }
}

// Hex digests are stored as bytes: half the size in the table every lookup scans.
std::string to_bytes(std::string_view hex) {
  auto bytes = util::from_hex(hex);
  if (!bytes) throw Error("not a hex digest: {}", hex);
  return std::move(*bytes);
}

uint32_t big_endian(const unsigned char* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

// Checks the SQLite header before SQLite sees the file: a foreign file, or one cut short (the header
// says how many pages it has), is named without reading further.
void check_header(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw Error("{}: no such index; build one with impact index", path.string());
  }
  auto size = std::filesystem::file_size(path, ec);
  if (ec) throw Error("{}: cannot read the coverage index ({}); check its permissions", path.string(), ec.message());
  unsigned char header[100] = {};
  std::string head = util::read_head(path, sizeof header); // "" for a FIFO or a device: never blocks
  std::copy(head.begin(), head.end(), reinterpret_cast<char*>(header));
  if (head.size() < 100 || std::string_view(reinterpret_cast<char*>(header), 16) != std::string_view("SQLite format 3\0", 16)) {
    if (size == 0) corrupt(path, "empty file");
    foreign(path);
  }
  uint32_t page_size = big_endian(header + 16, 2);
  if (page_size == 1) page_size = 65536;
  uint32_t pages = big_endian(header + 28, 4);
  bool pages_valid = big_endian(header + 24, 4) == big_endian(header + 92, 4);
  if (pages_valid && static_cast<uint64_t>(page_size) * pages > size) {
    corrupt(path, fmt::format("truncated: {} of {} bytes", size, static_cast<uint64_t>(page_size) * pages));
  }
}

std::string encode_lines(const std::map<uint32_t, std::vector<uint32_t>>& lines) {
  util::Writer out;
  out.u64(lines.size());
  uint32_t previous_line = 0;
  for (const auto& [line, tests] : lines) {
    out.u64(line - previous_line);
    previous_line = line;
    out.u64(tests.size());
    uint32_t previous = 0;
    for (uint32_t t : tests) {
      out.u64(t - previous);
      previous = t;
    }
  }
  return std::move(out.buffer());
}

bool decode_lines(std::string_view blob, std::map<uint32_t, std::vector<uint32_t>>& lines) {
  util::Reader in(blob);
  size_t count = in.count();
  uint32_t line = 0;
  for (size_t i = 0; i < count && in.ok(); ++i) {
    line += in.u32();
    size_t n = in.count();
    std::vector<uint32_t> tests(n);
    uint32_t t = 0;
    for (auto& test : tests) {
      t += in.u32();
      test = t;
    }
    lines.emplace(line, std::move(tests));
  }
  return in.ok() && in.done();
}

void check_store(util::Database& db) {
  const auto& path = db.path();
  if (!db.has_table("meta")) foreign(path);
  auto s = db.prepare("SELECT value FROM meta WHERE key = 'application'");
  if (!s.step() || s.text(0) != k_application) foreign(path);
  auto v = db.prepare("SELECT value FROM meta WHERE key = 'schema'");
  int schema = v.step() ? std::atoi(v.text(0).c_str()) : 0;
  if (schema > k_schema) {
    throw Error("{}: written by a newer impact (index schema {}, this one reads {}); rebuild it with impact index or "
                "upgrade impact",
                path.string(), schema, k_schema);
  }
  if (schema < k_oldest_schema) {
    throw Error("{}: an older index schema {} (this impact reads {}); rebuild it with impact index", path.string(),
                schema, k_schema);
  }
  for (const char* table : {"test", "file", "lines"}) {
    if (!db.has_table(table)) corrupt(path, fmt::format("no {} table", table));
  }
  if (schema >= 4 && !db.has_table("origin")) corrupt(path, "no origin table");
}

std::string encode_origins(const std::vector<uint32_t>& origins) {
  util::Writer out;
  out.u64(origins.size());
  for (uint32_t o : origins) out.u64(o);
  return std::move(out.buffer());
}

bool decode_origins(std::string_view blob, size_t count, std::vector<uint32_t>& origins) {
  util::Reader in(blob);
  size_t n = in.count();
  for (size_t i = 0; i < n && in.ok(); ++i) origins.push_back(in.u32());
  return in.ok() && in.done() && !origins.empty() &&
         std::all_of(origins.begin(), origins.end(), [&](uint32_t o) { return o < count; });
}

// The runs of a schema 4 index (a schema 3 index is one run: the one its meta describes).
std::vector<IndexOrigin> read_origins(util::Database& db, const IndexMeta& meta) {
  if (meta.schema < 4) return {IndexOrigin{meta.commit, meta.built_epoch}};
  std::vector<IndexOrigin> out;
  auto s = db.prepare("SELECT id, commit_id, built_epoch FROM origin ORDER BY id");
  while (s.step()) {
    if (s.integer(0) != static_cast<int64_t>(out.size())) corrupt(db.path(), "origin ids out of sequence");
    out.push_back(IndexOrigin{s.text(1), s.integer(2)});
  }
  if (out.empty()) corrupt(db.path(), "no origin");
  return out;
}

// The columns of one version, in the order read_version() reads them, and the tables they come from
// (a schema 3 file has no runs; without lines, the `lines` table is not read).
std::string version_columns(int schema, bool with_lines) {
  return fmt::format("f.oid, f.measured, f.trusted, {}, {} FROM file f{}", schema >= 4 ? "f.origins" : "NULL",
                     with_lines ? "l.sha256, l.map" : "NULL, NULL",
                     with_lines ? " LEFT JOIN lines l ON l.file_id = f.id" : "");
}

// Reads one version from a statement that selected version_columns() from column `at` on.
MeasuredFile read_version(const std::filesystem::path& path, util::Statement& s, int at, RepoPath file,
                          bool with_lines, size_t origins) {
  MeasuredFile f;
  f.path = std::move(file);
  f.oid = util::to_hex(s.blob(at));
  f.measured = s.integer(at + 1) != 0;
  f.trusted = s.integer(at + 2) != 0;
  if (s.is_null(at + 3)) f.origins = {0};
  else if (!decode_origins(s.blob(at + 3), origins, f.origins)) corrupt(path, fmt::format("the runs of {}", f.path));
  if (with_lines) f.sha256 = util::to_hex(s.blob(at + 4));
  if (f.oid.size() != 40 || (with_lines && f.sha256.size() != 64)) corrupt(path, fmt::format("the hashes of {}", f.path));
  if (with_lines && (s.is_null(at + 5) || !decode_lines(s.blob(at + 5), f.lines))) {
    corrupt(path, fmt::format("the line map of {}", f.path));
  }
  return f;
}

// The recorded environment (a JSON object of name -> version); nullopt for one that cannot be read,
// which is then treated as not recorded.
std::optional<std::map<std::string, std::string>> environment_of(const std::string& value) {
  try {
    return nlohmann::json::parse(value).get<std::map<std::string, std::string>>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

IndexMeta read_meta(util::Database& db) {
  IndexMeta meta;
  auto s = db.prepare("SELECT key, value FROM meta");
  while (s.step()) {
    std::string key = s.text(0), value = s.text(1);
    if (key == "schema") meta.schema = std::atoi(value.c_str());
    else if (key == "built_at") meta.built_at = value;
    else if (key == "built_epoch") meta.built_epoch = std::atoll(value.c_str());
    else if (key == "commit") meta.commit = value;
    else if (key == "source") meta.source = value;
    else if (key == "whole_suite") meta.whole_suite = value == "1";
    else if (key == "partial") meta.partial = value;
    else if (key == "arcs") meta.arcs = value == "1";
    else if (key == "loaded") meta.loaded = value == "1";
    else if (key == "tests") meta.tests = static_cast<size_t>(std::atoll(value.c_str()));
    else if (key == "files") meta.files = static_cast<size_t>(std::atoll(value.c_str()));
    else if (key == "hashed") meta.hashed = static_cast<size_t>(std::atoll(value.c_str()));
    else if (key == "untrusted") meta.untrusted = static_cast<size_t>(std::atoll(value.c_str()));
    else if (key == "environment") meta.environment = environment_of(value);
  }
  return meta;
}

// Flushes a closed file to disk, so that the rename that follows never publishes a file whose content
// is still in flight.
void sync_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

} // namespace

std::string index_file_name() { return "coverage-index.sqlite"; }

bool is_index_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  char header[16] = {};
  std::ifstream in(path, std::ios::binary);
  in.read(header, sizeof header);
  if (in.gcount() < 16 || std::string_view(header, 16) != std::string_view("SQLite format 3\0", 16)) return false;
  try {
    util::Database db(path, util::Database::Mode::read_only);
    if (!db.has_table("meta")) return false;
    auto s = db.prepare("SELECT value FROM meta WHERE key = 'application'");
    return s.step() && s.text(0) == k_application;
  } catch (const util::SqliteError&) {
    return false; // damaged past reading its meta table: not provably an index
  }
}

void write_index(const CoverageIndex& index, const std::filesystem::path& path) {
  std::error_code ec;
  if (!path.parent_path().empty()) std::filesystem::create_directories(path.parent_path(), ec);
  std::filesystem::path temp = path;
  temp += util::temp_suffix();
  try {
    {
      util::Database db(temp, util::Database::Mode::create);
      db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
      db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
              "CREATE TABLE test (id INTEGER PRIMARY KEY, node_id TEXT NOT NULL);"
              "CREATE TABLE origin (id INTEGER PRIMARY KEY, commit_id TEXT NOT NULL, built_epoch INTEGER NOT NULL);"
              "CREATE TABLE file (id INTEGER PRIMARY KEY, path TEXT NOT NULL, oid BLOB NOT NULL, "
              "measured INTEGER NOT NULL, trusted INTEGER NOT NULL, origins BLOB NOT NULL);"
              "CREATE TABLE lines (file_id INTEGER PRIMARY KEY, sha256 BLOB NOT NULL, map BLOB NOT NULL);");
      db.exec("BEGIN");
      auto meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
      auto put = [&](std::string_view key, const std::string& value) {
        meta.bind(1, key).bind(2, value);
        meta.step();
        meta.reset();
      };
      put("application", std::string(k_application));
      put("schema", std::to_string(k_schema));
      put("built_at", index.meta.built_at);
      put("built_epoch", std::to_string(index.meta.built_epoch));
      put("commit", index.meta.commit);
      put("source", index.meta.source);
      // Absent in an index written before it was recorded: read as not whole, which only selects more.
      put("whole_suite", index.meta.whole_suite ? "1" : "0");
      put("partial", index.meta.partial);
      // Absent in an index written before it was recorded: read as line data, which only selects more.
      put("arcs", index.meta.arcs ? "1" : "0");
      put("loaded", index.meta.loaded ? "1" : "0");
      if (index.meta.environment) put("environment", nlohmann::json(*index.meta.environment).dump());
      put("tests", std::to_string(index.tests.size()));
      FileCounts counts = count_files(index.files);
      put("files", std::to_string(counts.measured));
      put("hashed", std::to_string(counts.hashed));
      put("untrusted", std::to_string(counts.untrusted));
      // An index built by impact index is its own one run.
      std::vector<IndexOrigin> origins = index.origins;
      if (origins.empty()) origins.push_back(IndexOrigin{index.meta.commit, index.meta.built_epoch});
      auto origin = db.prepare("INSERT INTO origin (id, commit_id, built_epoch) VALUES (?, ?, ?)");
      for (size_t i = 0; i < origins.size(); ++i) {
        origin.bind(1, static_cast<int64_t>(i)).bind(2, origins[i].commit).bind(3, origins[i].built_epoch);
        origin.step();
        origin.reset();
      }
      auto test = db.prepare("INSERT INTO test (id, node_id) VALUES (?, ?)");
      for (size_t i = 0; i < index.tests.size(); ++i) {
        test.bind(1, static_cast<int64_t>(i + 1)).bind(2, index.tests[i]);
        test.step();
        test.reset();
      }
      auto file =
          db.prepare("INSERT INTO file (id, path, oid, measured, trusted, origins) VALUES (?, ?, ?, ?, ?, ?)");
      auto lines = db.prepare("INSERT INTO lines (file_id, sha256, map) VALUES (?, ?, ?)");
      for (size_t i = 0; i < index.files.size(); ++i) {
        const auto& f = index.files[i];
        auto id = static_cast<int64_t>(i + 1);
        file.bind(1, id).bind(2, f.path.str).bind_blob(3, to_bytes(f.oid)).bind(4, int64_t{f.measured ? 1 : 0});
        file.bind(5, int64_t{f.trusted ? 1 : 0});
        file.bind_blob(6, encode_origins(f.origins.empty() ? std::vector<uint32_t>{0} : f.origins));
        file.step();
        file.reset();
        lines.bind(1, id).bind_blob(2, to_bytes(f.sha256)).bind_blob(3, encode_lines(f.lines));
        lines.step();
        lines.reset();
      }
      // Built after the rows: tests_in() reads a test file's node ids as one range of this index, and
      // versions() a path's versions.
      db.exec("CREATE INDEX test_node_id ON test (node_id)");
      db.exec("CREATE INDEX file_path ON file (path)");
      db.exec("COMMIT");
    }
    sync_file(temp);
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
      throw Error("cannot write {}: {}; check that its folder is writable", path.string(), std::strerror(errno));
    }
  } catch (...) {
    std::filesystem::remove(temp, ec);
    throw;
  }
}

CoverageIndex read_index(const std::filesystem::path& path, bool with_lines) {
  check_header(path);
  return guarded(path, [&] {
    util::Database db(path, util::Database::Mode::read_only);
    check_store(db);
    CoverageIndex index;
    index.meta = read_meta(db);
    auto tests = db.prepare("SELECT id, node_id FROM test ORDER BY id");
    while (tests.step()) {
      if (tests.integer(0) != static_cast<int64_t>(index.tests.size() + 1)) corrupt(path, "test ids out of sequence");
      index.tests.push_back(tests.text(1));
    }
    index.origins = read_origins(db, index.meta);
    auto files = db.prepare(fmt::format("SELECT f.path, {} ORDER BY f.id", version_columns(index.meta.schema, with_lines)));
    while (files.step()) {
      MeasuredFile f = read_version(path, files, 1, RepoPath(files.text(0)), with_lines, index.origins.size());
      for (const auto& [line, ids] : f.lines) {
        if (!ids.empty() && ids.back() > index.tests.size()) corrupt(path, fmt::format("the line map of {}", f.path));
      }
      index.files.push_back(std::move(f));
    }
    return index;
  });
}

struct IndexReader::Impl {
  explicit Impl(const std::filesystem::path& path) : db(path, util::Database::Mode::read_only) {
    // One read transaction for the whole run: every lookup sees the same index, and SQLite keeps its
    // page cache instead of re-checking the file before each statement.
    db.exec("BEGIN");
    check_store(db);
    meta = read_meta(db);
    origins = read_origins(db, meta).size();
  }
  util::Database db;
  IndexMeta meta;
  size_t origins = 0;
  std::optional<util::Statement> test_name; // prepared once: a hot line names thousands of tests
};

IndexReader::IndexReader(const std::filesystem::path& path) {
  check_header(path);
  m_impl = guarded(path, [&] { return std::make_unique<Impl>(path); });
}
IndexReader::~IndexReader() = default;

const IndexMeta& IndexReader::meta() const { return m_impl->meta; }

std::optional<MeasuredFile> IndexReader::file(const RepoPath& path) {
  auto all = versions(path);
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

std::vector<MeasuredFile> IndexReader::versions(const RepoPath& path) {
  return guarded(m_impl->db.path(), [&] {
    auto s = m_impl->db.prepare(
        fmt::format("SELECT {} WHERE f.path = ? ORDER BY f.id", version_columns(m_impl->meta.schema, true)));
    s.bind(1, path.str);
    std::vector<MeasuredFile> out;
    while (s.step()) out.push_back(read_version(m_impl->db.path(), s, 0, path, true, m_impl->origins));
    return out;
  });
}

std::vector<IndexedVersion> IndexReader::file_oids() {
  return guarded(m_impl->db.path(), [&] {
    std::vector<IndexedVersion> out;
    auto s = m_impl->db.prepare(m_impl->meta.schema >= 4 ? "SELECT path, oid, trusted, origins FROM file ORDER BY id"
                                                         : "SELECT path, oid, trusted, NULL FROM file ORDER BY id");
    while (s.step()) {
      IndexedVersion v{s.text(0), s.integer(2) != 0 ? util::to_hex(s.blob(1)) : std::string(), {}};
      if (s.is_null(3)) v.origins = {0};
      else if (!decode_origins(s.blob(3), m_impl->origins, v.origins)) {
        corrupt(m_impl->db.path(), fmt::format("the runs of {}", v.path));
      }
      out.push_back(std::move(v));
    }
    return out;
  });
}

std::string IndexReader::test_name(uint32_t id) {
  return guarded(m_impl->db.path(), [&] {
    if (!m_impl->test_name) m_impl->test_name.emplace(m_impl->db.prepare("SELECT node_id FROM test WHERE id = ?"));
    util::Statement& s = *m_impl->test_name;
    s.reset();
    s.bind(1, static_cast<int64_t>(id));
    return s.step() ? s.text(0) : std::string();
  });
}

std::vector<std::string> IndexReader::tests_in(const RepoPath& path) {
  return guarded(m_impl->db.path(), [&] {
    // "path::" up to "path:;" (';' follows ':'): one range of the node id index.
    std::vector<std::string> out;
    auto s = m_impl->db.prepare("SELECT node_id FROM test WHERE node_id >= ? AND node_id < ? ORDER BY node_id");
    s.bind(1, path.str + "::").bind(2, path.str + ":;");
    while (s.step()) out.push_back(s.text(0));
    return out;
  });
}

} // namespace impact
