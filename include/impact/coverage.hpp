#pragma once
// Stage 4, the coverage index: which tests executed each line of each file, recorded by coverage.py
// with per-test contexts, and the SHA-256 of the content that was measured. A file's entry is trusted
// only while the file's content at the diff base still has that hash.
#include "impact/vocabulary.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace impact {

// The pseudo-test of lines executed outside any test: at import, during collection.
constexpr uint32_t k_import_time = 0;

// One measured file: line -> the ids of the tests that executed it (k_import_time included).
struct MeasuredFile {
  RepoPath path;
  std::string sha256; // of the content measured
  std::string oid;    // the git blob id of the same content
  std::map<uint32_t, std::vector<uint32_t>> lines;
};

struct IndexMeta {
  int schema = 0;
  std::string built_at; // ISO 8601, UTC
  int64_t built_epoch = 0;
  std::string commit;   // HEAD when it was built
  std::string source;   // "pytest" or the coverage file it was read from
  size_t tests = 0;
  size_t files = 0;
};

// A whole index in memory, as built or merged (lookups read the store file instead).
struct CoverageIndex {
  IndexMeta meta;
  std::vector<std::string> tests; // id - 1 -> node id (id 0 is k_import_time)
  std::vector<MeasuredFile> files;
};

// What reading a coverage.py data file found.
struct IngestStats {
  size_t contexts = 0;
  size_t tests = 0;
  size_t ignored_contexts = 0; // not a test: setup of the session, unnamed, foreign
  size_t import_time = 0;      // the empty context: code run outside any test
  size_t files = 0;
  size_t outside = 0;          // measured files outside the repository (ignored)
};

// Reads a coverage.py SQLite data file (schema 6 or 7; line or arc data) into an index, mapping each
// context to a pytest node id (pytest-cov's "path::test|phase", or coverage's test_function contexts
// "package.module.Class.test"), and hashing the files as they are now. Throws impact::Error naming the
// file and the fix for a file that is not such a database, a newer schema, or one without contexts.
CoverageIndex ingest_coverage(const std::filesystem::path& data_file, const std::filesystem::path& repo_root,
                              const std::string& rootdir, IngestStats& stats);

// The store: one SQLite file, written to a temporary file and renamed into place.
void write_index(const CoverageIndex& index, const std::filesystem::path& path);

// Reads the store without loading the line maps (for status and merge).
CoverageIndex read_index(const std::filesystem::path& path, bool with_lines);

// Unions indexes of shards of one run: files whose hashes agree union their line maps; where they
// differ, the newer index's file wins.
CoverageIndex merge_indexes(const std::vector<CoverageIndex>& parts);

// A lookup into the store for one run: opens the file, answers per-file questions reading only that
// file's row. Throws impact::Error when the file is corrupt, foreign or from a newer schema.
class IndexReader {
public:
  explicit IndexReader(const std::filesystem::path& path);
  ~IndexReader();
  IndexReader(const IndexReader&) = delete;
  IndexReader& operator=(const IndexReader&) = delete;

  const IndexMeta& meta() const;
  // The measured file at `path`, or std::nullopt when the index never measured it.
  std::optional<MeasuredFile> file(const RepoPath& path);
  // path -> git blob id of every measured file (to find test files that changed since).
  std::vector<std::pair<std::string, std::string>> file_oids();
  std::string test_name(uint32_t id);

private:
  struct Impl;
  Impl* m_impl;
};

// The store's file name under the cache folder.
std::string index_file_name();

} // namespace impact
