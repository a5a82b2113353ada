#pragma once
// FactsCache: encoded FileFacts by content id (git blob id), in one file under the cache folder and
// a smaller one beside it of the entries runs added since (`facts-v<N>.added.bin`), so that a run that
// parsed a few files does not write the whole cache again. Lookups return views into the loaded files
// and are safe from several threads at once; put() and save() are for one thread. Saving writes
// atomically and keeps what this run used first.
#include "impact/python/project_facts.hpp"
#include "util/files.hpp"

#include <array>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace impact::python {

class FactsCache {
public:
  // Loads `file` when it exists and is of this version; a corrupt or older file is dropped (warning()
  // says so) and rebuilt on save.
  explicit FactsCache(std::filesystem::path file);
  // A cache that never loads or saves anything (--no-cache).
  FactsCache() = default;

  // The encoded facts of `oid_hex`, loaded or added earlier in this process; the view lives as long
  // as storage() (a loaded entry) or the storage given to keep() (an added one).
  std::optional<std::string_view> find(const std::string& oid_hex) const;
  // Adds an entry. The cache keeps the view, not a copy: `encoded` must stay alive until save().
  void put(const std::string& oid_hex, std::string_view encoded);
  // Keeps `storage` (what put()'s views point into) alive as long as the cache: one cache shared by
  // several loads (a monorepo's projects) outlives each load's facts.
  void keep(std::shared_ptr<const void> storage) { m_kept.push_back(std::move(storage)); }
  // The same by the 20-byte binary key (the shared cache's exchange, facts_exchange.cpp); true when
  // the entry is new.
  bool put_raw(std::string_view oid, std::string_view encoded);
  // Counts every loaded entry as looked up, so that save() keeps them all (a merge, not a run).
  void keep_all() { m_used.assign(m_used.size(), 1); }
  // Every loaded entry as (20-byte key, encoded facts), viewing storage(); what put() added is not included.
  std::vector<std::pair<std::string_view, std::string_view>> loaded_entries() const;
  // True when save() would write: something was added, or entries this run did not look up weigh more
  // than the rest and more than dead_weight() (a deleted 50 MB file's facts, read by every run). Call
  // after the run's lookups; it costs one pass over the loaded entries' sizes.
  bool worth_saving() const;
  // Writes the cache when worth_saving(): what this run used and added, then unused entries, smallest
  // first, up to as many entries and as many bytes again (at least dead_weight() bytes). Throws
  // impact::Error when it cannot be written.
  void save();
  static constexpr size_t dead_weight() { return size_t{4} << 20; }

  // What the loaded entries view (the cache file and the file of entries added since); null without a file.
  std::shared_ptr<const void> storage() const;
  const std::string& warning() const { return m_warning; }

  using Oid = std::array<char, 20>;
  struct OidHash {
    size_t operator()(const Oid& oid) const noexcept {
      size_t h;
      std::memcpy(&h, oid.data(), sizeof h); // already uniformly distributed
      return h;
    }
  };

private:
  struct Entry {
    std::string_view payload;
    size_t ordinal = 0; // index into m_used
  };

  bool read_entries(std::string_view all); // adds a file's entries to m_index; false when it is not valid
  std::filesystem::path journal_file() const;
  bool worth_pruning() const;
  bool save_added(); // writes only the added entries, with the earlier added ones, when that is enough

  std::filesystem::path m_file;
  std::shared_ptr<const util::MappedFile> m_data; // the mapped cache file that m_index views
  std::shared_ptr<const util::MappedFile> m_journal; // the entries added since it was written whole
  size_t m_main_entries = 0, m_main_bytes = 0;       // of m_data: its entries are ordinals [0, m_main_entries)
  size_t m_journal_entries = 0, m_journal_bytes = 0;
  std::unordered_map<Oid, Entry, OidHash> m_index; // entries of the loaded file, viewing m_data
  std::unordered_map<Oid, std::string_view, OidHash> m_added; // views the caller keeps alive
  mutable std::vector<char> m_used; // per loaded entry: looked up this run (one writer per element)
  std::vector<std::shared_ptr<const void>> m_kept; // what m_added views, when keep() was called
  std::string m_warning;
};

// The cache file's name, which changes with the format and the grammar.
std::string facts_cache_file_name();
// The format of the encoded entries and the grammar behind them, as the shared cache records it.
std::string facts_format();

} // namespace impact::python

namespace impact {

// Reads the facts of `files` (Python files, sorted by path): from `cache` when it has them, else by
// parsing on `threads` threads; what was parsed is added to the cache (the caller saves it while the
// returned facts live: the cache's new entries are views of them). A file that cannot be read gets
// empty facts with parse_error set. FactsStore::load is the pipeline's way in.
ProjectFacts load_facts(std::vector<SourceFile> files, const ReadSource& read, python::FactsCache& cache,
                        unsigned threads);

} // namespace impact
