// The index store: one SQLite file. A file's line map is one row (line -> test ids, delta-encoded), so
// a lookup for a one-file change reads that row and the names of the tests it holds, nothing else.
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/binary.hpp"
#include "util/sqlite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <unistd.h>
#include <unordered_map>

namespace impact {

namespace {

constexpr int k_schema = 1;
constexpr std::string_view k_application = "impact-coverage-index";

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
  std::string name = db.path().string();
  if (!db.has_table("meta") || !db.has_table("file") || !db.has_table("test")) {
    throw Error("{} is not an impact coverage index; delete it and rebuild it with impact index", name);
  }
  auto s = db.prepare("SELECT value FROM meta WHERE key = 'application'");
  if (!s.step() || s.text(0) != k_application) {
    throw Error("{} is not an impact coverage index; delete it and rebuild it with impact index", name);
  }
  auto v = db.prepare("SELECT value FROM meta WHERE key = 'schema'");
  int schema = v.step() ? std::atoi(v.text(0).c_str()) : 0;
  if (schema > k_schema) {
    throw Error("{} was written by a newer impact (index schema {}, this one reads {}); rebuild it with impact index or "
                "upgrade impact",
                name, schema, k_schema);
  }
  if (schema < k_schema) throw Error("{} has an old index schema {}; rebuild it with impact index", name, schema);
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
    else if (key == "tests") meta.tests = static_cast<size_t>(std::atoll(value.c_str()));
    else if (key == "files") meta.files = static_cast<size_t>(std::atoll(value.c_str()));
  }
  return meta;
}

} // namespace

std::string index_file_name() { return "coverage-index.sqlite"; }

void write_index(const CoverageIndex& index, const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::filesystem::path temp = path;
  temp += fmt::format(".tmp-{}-{:x}", ::getpid(), std::random_device{}());
  try {
    {
      util::Database db(temp, util::Database::Mode::create);
      db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
      db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
              "CREATE TABLE test (id INTEGER PRIMARY KEY, node_id TEXT NOT NULL UNIQUE);"
              "CREATE TABLE file (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, oid TEXT NOT NULL, lines BLOB NOT NULL);");
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
      put("tests", std::to_string(index.tests.size()));
      put("files", std::to_string(index.files.size()));
      auto test = db.prepare("INSERT INTO test (id, node_id) VALUES (?, ?)");
      for (size_t i = 0; i < index.tests.size(); ++i) {
        test.bind(1, static_cast<int64_t>(i + 1)).bind(2, index.tests[i]);
        test.step();
        test.reset();
      }
      auto file = db.prepare("INSERT INTO file (path, sha256, oid, lines) VALUES (?, ?, ?, ?)");
      for (const auto& f : index.files) {
        file.bind(1, f.path.str).bind(2, f.sha256).bind(3, f.oid).bind_blob(4, encode_lines(f.lines));
        file.step();
        file.reset();
      }
      db.exec("COMMIT");
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) throw Error("cannot write {}", path.string());
  } catch (...) {
    std::filesystem::remove(temp, ec);
    throw;
  }
}

CoverageIndex read_index(const std::filesystem::path& path, bool with_lines) {
  if (!std::filesystem::exists(path)) throw Error("{}: no such index; build one with impact index", path.string());
  util::Database db(path, util::Database::Mode::read_only);
  check_store(db);
  CoverageIndex index;
  index.meta = read_meta(db);
  auto tests = db.prepare("SELECT id, node_id FROM test ORDER BY id");
  while (tests.step()) index.tests.push_back(tests.text(1));
  auto files = db.prepare(with_lines ? "SELECT path, sha256, oid, lines FROM file" : "SELECT path, sha256, oid FROM file");
  while (files.step()) {
    MeasuredFile f;
    f.path = RepoPath(files.text(0));
    f.sha256 = files.text(1);
    f.oid = files.text(2);
    if (with_lines && !decode_lines(files.blob(3), f.lines)) {
      throw Error("{} is corrupt (the line map of {}); delete it and rebuild it with impact index", path.string(), f.path);
    }
    index.files.push_back(std::move(f));
  }
  return index;
}

CoverageIndex merge_indexes(const std::vector<CoverageIndex>& parts) {
  CoverageIndex out;
  std::unordered_map<std::string, uint32_t> test_ids;
  std::unordered_map<std::string, size_t> file_slot;
  std::unordered_map<std::string, int64_t> file_epoch;
  // Newest first, so that where hashes differ the newer file is met first and kept.
  std::vector<const CoverageIndex*> order;
  for (const auto& p : parts) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const CoverageIndex* a, const CoverageIndex* b) { return a->meta.built_epoch > b->meta.built_epoch; });
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
        MeasuredFile copy;
        copy.path = f.path;
        copy.sha256 = f.sha256;
        copy.oid = f.oid;
        for (const auto& [line, tests] : f.lines) {
          auto& target = copy.lines[line];
          for (uint32_t t : tests) target.push_back(remap[t]);
        }
        out.files.push_back(std::move(copy));
        continue;
      }
      MeasuredFile& kept = out.files[slot->second];
      if (kept.sha256 != f.sha256) continue; // a different content: the newer one is already kept
      for (const auto& [line, tests] : f.lines) {
        auto& target = kept.lines[line];
        for (uint32_t t : tests) target.push_back(remap[t]);
      }
    }
    if (out.meta.built_epoch == 0) out.meta = part->meta; // the newest part's metadata
  }
  for (auto& f : out.files) {
    for (auto& [line, tests] : f.lines) {
      std::sort(tests.begin(), tests.end());
      tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
    }
  }
  out.meta.schema = k_schema;
  out.meta.source = "merge";
  out.meta.tests = out.tests.size();
  out.meta.files = out.files.size();
  return out;
}

struct IndexReader::Impl {
  explicit Impl(const std::filesystem::path& path) : db(path, util::Database::Mode::read_only) {
    check_store(db);
    meta = read_meta(db);
  }
  util::Database db;
  IndexMeta meta;
};

IndexReader::IndexReader(const std::filesystem::path& path) : m_impl(new Impl(path)) {}
IndexReader::~IndexReader() { delete m_impl; }

const IndexMeta& IndexReader::meta() const { return m_impl->meta; }

std::optional<MeasuredFile> IndexReader::file(const RepoPath& path) {
  auto s = m_impl->db.prepare("SELECT sha256, oid, lines FROM file WHERE path = ?");
  s.bind(1, path.str);
  if (!s.step()) return std::nullopt;
  MeasuredFile f;
  f.path = path;
  f.sha256 = s.text(0);
  f.oid = s.text(1);
  if (!decode_lines(s.blob(2), f.lines)) {
    throw Error("{} is corrupt (the line map of {}); delete it and rebuild it with impact index",
                m_impl->db.path().string(), path);
  }
  return f;
}

std::vector<std::pair<std::string, std::string>> IndexReader::file_oids() {
  std::vector<std::pair<std::string, std::string>> out;
  auto s = m_impl->db.prepare("SELECT path, oid FROM file");
  while (s.step()) out.emplace_back(s.text(0), s.text(1));
  return out;
}

std::string IndexReader::test_name(uint32_t id) {
  auto s = m_impl->db.prepare("SELECT node_id FROM test WHERE id = ?");
  s.bind(1, static_cast<int64_t>(id));
  return s.step() ? s.text(0) : std::string();
}

} // namespace impact
