// The index store: one SQLite file. A file's line map is one row of its own table (line -> test ids,
// delta-encoded), apart from the small per-file row of path and hashes, so a lookup for a one-file
// change reads that file's two rows and the names of the tests it holds, nothing else.
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
#include <unordered_map>

namespace impact {

namespace {

// 2: line maps (and content hashes) in their own table, binary hashes: the `file` table, which every
// lookup scans for drift, stays small (1 kept everything in one row per file). 3: a file's `trusted`
// flag; a schema 2 index may hold line maps read from another commit's data, so it is not read.
constexpr int k_schema = 3;
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
  if (schema < k_schema) {
    throw Error("{}: an older index schema {} (this impact reads {}); rebuild it with impact index", path.string(),
                schema, k_schema);
  }
  for (const char* table : {"test", "file", "lines"}) {
    if (!db.has_table(table)) corrupt(path, fmt::format("no {} table", table));
  }
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
              "CREATE TABLE file (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, oid BLOB NOT NULL, "
              "measured INTEGER NOT NULL, trusted INTEGER NOT NULL);"
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
      if (index.meta.environment) put("environment", nlohmann::json(*index.meta.environment).dump());
      put("tests", std::to_string(index.tests.size()));
      size_t hashed = static_cast<size_t>(
          std::count_if(index.files.begin(), index.files.end(), [](const MeasuredFile& f) { return !f.measured; }));
      put("files", std::to_string(index.files.size() - hashed));
      put("hashed", std::to_string(hashed));
      put("untrusted", std::to_string(std::count_if(index.files.begin(), index.files.end(),
                                                    [](const MeasuredFile& f) { return !f.trusted; })));
      auto test = db.prepare("INSERT INTO test (id, node_id) VALUES (?, ?)");
      for (size_t i = 0; i < index.tests.size(); ++i) {
        test.bind(1, static_cast<int64_t>(i + 1)).bind(2, index.tests[i]);
        test.step();
        test.reset();
      }
      auto file = db.prepare("INSERT INTO file (id, path, oid, measured, trusted) VALUES (?, ?, ?, ?, ?)");
      auto lines = db.prepare("INSERT INTO lines (file_id, sha256, map) VALUES (?, ?, ?)");
      for (size_t i = 0; i < index.files.size(); ++i) {
        const auto& f = index.files[i];
        auto id = static_cast<int64_t>(i + 1);
        file.bind(1, id).bind(2, f.path.str).bind_blob(3, to_bytes(f.oid)).bind(4, int64_t{f.measured ? 1 : 0});
        file.bind(5, int64_t{f.trusted ? 1 : 0});
        file.step();
        file.reset();
        lines.bind(1, id).bind_blob(2, to_bytes(f.sha256)).bind_blob(3, encode_lines(f.lines));
        lines.step();
        lines.reset();
      }
      // Built after the rows: tests_in() reads a test file's node ids as one range of this index.
      db.exec("CREATE INDEX test_node_id ON test (node_id)");
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
    auto files = db.prepare(with_lines ? "SELECT f.path, f.oid, f.measured, f.trusted, l.sha256, l.map FROM file f "
                                         "LEFT JOIN lines l ON l.file_id = f.id ORDER BY f.id"
                                       : "SELECT path, oid, measured, trusted FROM file ORDER BY id");
    while (files.step()) {
      MeasuredFile f;
      f.path = RepoPath(files.text(0));
      f.oid = util::to_hex(files.blob(1));
      f.measured = files.integer(2) != 0;
      f.trusted = files.integer(3) != 0;
      if (with_lines) f.sha256 = util::to_hex(files.blob(4));
      if (f.oid.size() != 40 || (with_lines && f.sha256.size() != 64)) {
        corrupt(path, fmt::format("the hashes of {}", f.path));
      }
      if (with_lines && (files.is_null(5) || !decode_lines(files.blob(5), f.lines))) {
        corrupt(path, fmt::format("the line map of {}", f.path));
      }
      for (const auto& [line, ids] : f.lines) {
        if (!ids.empty() && ids.back() > index.tests.size()) corrupt(path, fmt::format("the line map of {}", f.path));
      }
      index.files.push_back(std::move(f));
    }
    return index;
  });
}

CoverageIndex merge_indexes(const std::vector<CoverageIndex>& parts) {
  CoverageIndex out;
  std::unordered_map<std::string, uint32_t> test_ids;
  std::unordered_map<std::string, size_t> file_slot;
  std::vector<int64_t> file_epoch; // per out.files: when the index it came from was built
  // Newest first, so that where hashes differ the newer file is met first and kept.
  std::vector<const CoverageIndex*> order;
  for (const auto& p : parts) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const CoverageIndex* a, const CoverageIndex* b) { return a->meta.built_epoch > b->meta.built_epoch; });
  auto copy_lines = [](MeasuredFile& target, const MeasuredFile& from, const std::vector<uint32_t>& remap) {
    for (const auto& [line, tests] : from.lines) {
      auto& ids = target.lines[line];
      for (uint32_t t : tests) ids.push_back(t < remap.size() ? remap[t] : k_import_time);
    }
  };
  for (const CoverageIndex* part : order) {
    std::vector<uint32_t> remap(part->tests.size() + 1, k_import_time);
    for (size_t i = 0; i < part->tests.size(); ++i) {
      auto [it, inserted] = test_ids.emplace(part->tests[i], static_cast<uint32_t>(out.tests.size() + 1));
      if (inserted) out.tests.push_back(part->tests[i]);
      remap[i + 1] = it->second;
    }
    for (const auto& f : part->files) {
      auto slot = file_slot.find(f.path.str);
      if (slot == file_slot.end()) {
        file_slot.emplace(f.path.str, out.files.size());
        file_epoch.push_back(part->meta.built_epoch);
        MeasuredFile copy;
        copy.path = f.path;
        copy.sha256 = f.sha256;
        copy.oid = f.oid;
        copy.measured = f.measured;
        copy.trusted = f.trusted;
        copy_lines(copy, f, remap);
        out.files.push_back(std::move(copy));
        continue;
      }
      MeasuredFile& kept = out.files[slot->second];
      if (kept.sha256 == f.sha256) {
        kept.measured = kept.measured || f.measured;
        kept.trusted = kept.trusted && f.trusted;
        copy_lines(kept, f, remap);
      } else if (file_epoch[slot->second] == part->meta.built_epoch && f.sha256 > kept.sha256) {
        // Built in the same second: the greater hash wins, whatever the order of the inputs.
        kept.sha256 = f.sha256;
        kept.oid = f.oid;
        kept.measured = f.measured;
        kept.trusted = f.trusted;
        kept.lines.clear();
        copy_lines(kept, f, remap);
      }
      // Otherwise the newer content is already kept and this older map says nothing about it.
    }
    if (part == order.front()) out.meta = part->meta; // the newest part's date and commit
  }
  for (auto& f : out.files) {
    for (auto& [line, tests] : f.lines) {
      std::sort(tests.begin(), tests.end());
      tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
    }
  }
  std::sort(out.files.begin(), out.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  out.meta.schema = k_schema;
  out.meta.source = fmt::format("merge of {} index(es)", parts.size());
  // Shards each ran a share of the suite; nothing proves the shares add up to all of it.
  out.meta.whole_suite = false;
  out.meta.partial = "merged from shards";
  out.meta.tests = out.tests.size();
  out.meta.hashed = static_cast<size_t>(
      std::count_if(out.files.begin(), out.files.end(), [](const MeasuredFile& f) { return !f.measured; }));
  out.meta.files = out.files.size() - out.meta.hashed;
  out.meta.untrusted = static_cast<size_t>(
      std::count_if(out.files.begin(), out.files.end(), [](const MeasuredFile& f) { return !f.trusted; }));
  return out;
}

struct IndexReader::Impl {
  explicit Impl(const std::filesystem::path& path) : db(path, util::Database::Mode::read_only) {
    // One read transaction for the whole run: every lookup sees the same index, and SQLite keeps its
    // page cache instead of re-checking the file before each statement.
    db.exec("BEGIN");
    check_store(db);
    meta = read_meta(db);
  }
  util::Database db;
  IndexMeta meta;
  std::optional<util::Statement> test_name; // prepared once: a hot line names thousands of tests
};

IndexReader::IndexReader(const std::filesystem::path& path) {
  check_header(path);
  m_impl = guarded(path, [&] { return std::make_unique<Impl>(path); });
}
IndexReader::~IndexReader() = default;

const IndexMeta& IndexReader::meta() const { return m_impl->meta; }

std::optional<MeasuredFile> IndexReader::file(const RepoPath& path) {
  return guarded(m_impl->db.path(), [&]() -> std::optional<MeasuredFile> {
    auto s = m_impl->db.prepare("SELECT f.oid, f.measured, f.trusted, l.sha256, l.map FROM file f LEFT JOIN lines l "
                                "ON l.file_id = f.id WHERE f.path = ?");
    s.bind(1, path.str);
    if (!s.step()) return std::nullopt;
    MeasuredFile f;
    f.path = path;
    f.oid = util::to_hex(s.blob(0));
    f.measured = s.integer(1) != 0;
    f.trusted = s.integer(2) != 0;
    f.sha256 = util::to_hex(s.blob(3));
    if (f.oid.size() != 40 || f.sha256.size() != 64) corrupt(m_impl->db.path(), fmt::format("the hashes of {}", path));
    if (s.is_null(4) || !decode_lines(s.blob(4), f.lines)) corrupt(m_impl->db.path(), fmt::format("the line map of {}", path));
    return f;
  });
}

std::vector<std::pair<std::string, std::string>> IndexReader::file_oids() {
  return guarded(m_impl->db.path(), [&] {
    std::vector<std::pair<std::string, std::string>> out;
    auto s = m_impl->db.prepare("SELECT path, oid, trusted FROM file");
    while (s.step()) out.emplace_back(s.text(0), s.integer(2) != 0 ? util::to_hex(s.blob(1)) : std::string());
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
