#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// The facts of every Python file of the state under test, as the later stages read them: kept encoded
// and decoded on demand (views, headers, imports), and the FactsStore that loads them through the cache.
#include "impact/python/facts.hpp"
#include "impact/vocabulary.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact {

// One import as read from encoded facts: strings are views into the facts' storage.
struct ImportView {
  ImportKind kind = ImportKind::plain;
  uint8_t level = 0;
  uint8_t flags = 0;
  uint32_t line = 0;
  std::string_view module;
  size_t names_begin = 0, names_end = 0;     // [begin, end) in the scratch's names
  size_t aliases_begin = 0, aliases_end = 0; // [begin, end) in the scratch's aliases
};

// A contiguous run of a FactsView's string pool.
struct ViewRange {
  uint32_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};

// A symbol read as views into its file's encoded facts (see FactsView).
struct SymbolView {
  std::string_view qualname;
  std::string_view fixture;
  SymbolKind kind = SymbolKind::function;
  int32_t parent = -1;
  uint32_t first_line = 0, def_line = 0, last_line = 0;
  bool has_init = false, autouse = false, usefixtures_dynamic = false, dynamic_access = false, has_metaclass = false,
       wraps_only = false, wraps_direct = false;
  ViewRange decorators, params, bases, usefixtures, refs, aliases;
  uint32_t namespace_values = 0; // Symbol::namespace_values: the last this many of refs
  uint32_t annotation_refs = 0;  // Symbol::annotation_refs: the last this many of refs

  std::string_view name() const {
    auto dot = qualname.rfind('.');
    return dot == std::string_view::npos ? qualname : qualname.substr(dot + 1);
  }
};

// A StoredValue read as views.
struct StoredValueView {
  std::string_view name;
  uint32_t line = 0;
  ViewRange refs, wrappers;
  bool parametrize = false;
};

// Everything the symbol walk reads of one file, as views into the encoded facts: no string is copied.
// Valid while the ProjectFacts it came from lives.
struct FactsView {
  std::vector<std::string_view> strings; // the pool the ranges index
  std::vector<SymbolView> symbols;
  std::vector<std::string_view> module_names;
  std::vector<std::string_view> constant_names; // FileFacts::constant_names
  std::vector<std::string_view> doctest_modules; // FileFacts::doctest_modules
  std::vector<std::string_view> handed;          // FileFacts::handed
  ViewRange module_refs, module_usefixtures;
  uint32_t module_stored = 0; // FileFacts::module_stored: the last this many of module_refs
  uint32_t module_program = 0; // FileFacts::module_program: the this many before those
  std::vector<StoredValueView> stored_values;
  bool module_dynamic_access = false, module_usefixtures_dynamic = false, defines_module_getattr = false;

  const std::string_view* begin(ViewRange r) const { return strings.data() + r.begin; }
  const std::string_view* end(ViewRange r) const { return strings.data() + r.end; }
};

// Reusable storage for decoding one file's imports without allocating per import.
struct ImportScratch {
  std::vector<ImportView> imports;
  std::vector<std::string_view> names;
  std::vector<std::string_view> aliases;
};

// The small, always-decoded part of a file's facts.
struct FactsHeader {
  bool parse_error = false;
  bool has_doctest = false;
  bool all_dynamic = false;
  bool has_all = false;
  bool pytest_plugins_dynamic = false;
  bool defines_module_getattr = false;
  bool has_uncertain_imports = false;
  bool has_collect_ignore = false;
  bool has_dynamic_access = false; // some code reads attributes or names by computed strings
  bool oversized = false;          // too large to parse: read at file level (FileFacts::oversized)
  bool stores_globals = false;     // FileFacts::stores_globals
  bool has_path_strings = false;   // FileFacts::paths holds a string, a listing or reads_anything
  CompileCheck compile;
};

// The facts of every Python file of the state under test, kept in their encoded form (as in the
// cache) and decoded on demand: a warm run touches only what its stages read.
class ProjectFacts {
public:
  std::vector<SourceFile> files; // sorted by path
  size_t parsed = 0;             // how many were parsed this run; the others came from the cache

  size_t size() const { return files.size(); }
  // The index of `path`, or npos when it is not a Python file of the state under test.
  size_t find(std::string_view path) const;
  static constexpr size_t npos = static_cast<size_t>(-1);

  FactsHeader header(size_t i) const;
  // Decodes file i's imports into `scratch` (cleared first); the views live as long as this object.
  void imports(size_t i, ImportScratch& scratch) const;
  // Everything about file i, decoded into owning storage.
  FileFacts full(size_t i) const;
  // File i's symbols, references and module-level names as views (cheap: no strings are copied).
  void view(size_t i, FactsView& out) const;
  // What file i's strings could name on disk (reads_anything when its facts cannot be read).
  PathStrings paths(size_t i) const;
  // Whether file i's code reads `name` anywhere (a component of a reference, a fixture request):
  // a cheap test on a sorted table of name hashes, without decoding the file.
  bool mentions(size_t i, std::string_view name) const;
  // The same for a name hashed once by mention_hash(), for a search that asks many files about it.
  bool mentions_hash(size_t i, uint32_t hash) const;
  static uint32_t mention_hash(std::string_view name);
  // The files that mention `name` (as mentions() says), ascending. The first few names are looked up
  // in each file's sorted name table (a warm run usually asks about one or two), and remembered; past
  // them, a lookup in an
  // inverted index of every table, built once, so that a walk asking about many names does not scan
  // every file for each (building it costs as much as a few dozen scans: sorting every name's hash).
  std::vector<uint32_t> files_mentioning(std::string_view name) const;

  // For load_facts and tests: append a file with its encoded facts (viewed, not copied, when
  // `storage` already owns them).
  void add(SourceFile file, std::string_view encoded);
  void keep_alive(std::shared_ptr<const void> storage) { m_storage.push_back(std::move(storage)); }
  // Encodes `facts` into storage owned by this object and returns the view.
  std::string_view own(const FileFacts& facts);

private:
  std::vector<std::string_view> m_blobs;
  mutable std::vector<std::string_view> m_name_tables; // filled on first use by mentions()
  mutable std::vector<char> m_name_table_ready;
  const std::string_view& name_table(size_t i) const;
  // files_mentioning's index: the sorted distinct name hashes, where each one's files start in
  // m_mention_files (one more offset than hashes), and the files whose table cannot be read.
  mutable std::vector<uint32_t> m_mention_hashes, m_mention_offsets, m_mention_files, m_mention_all;
  mutable bool m_mention_ready = false;
  // Answers found by scanning, before the index is built (a walk asks the same name many times).
  mutable std::vector<std::pair<std::string, std::vector<uint32_t>>> m_mention_scanned;
  std::vector<std::shared_ptr<const void>> m_storage;
};

using ReadSource = std::function<FileRead(const SourceFile&)>;

namespace python {
class FactsCache;
}

// The facts cache as the pipeline uses it (the cache itself, src/python/facts_cache.hpp, is python/'s
// own): opened under a cache folder, read through by load(), saved when worth it. Lookups are safe from
// several threads; load(), save() and the rest are for one thread.
class FactsStore {
public:
  // A store that never loads or saves anything (--no-cache).
  FactsStore();
  // The facts cache file of this format under `dir`; a corrupt or older one is dropped (warning() says
  // so) and rebuilt on save.
  explicit FactsStore(const std::filesystem::path& dir);
  ~FactsStore();
  FactsStore(FactsStore&&) noexcept;
  FactsStore& operator=(FactsStore&&) noexcept;

  // Why the cache file was dropped, or "".
  const std::string& warning() const;
  // Reads the facts of `files` (Python files, sorted by path): from the cache when it has them, else by
  // parsing on `threads` threads; what was parsed is added to the cache, as views of the returned facts,
  // so save() must happen while they live. A file that cannot be read gets empty facts with parse_error set.
  ProjectFacts load(std::vector<SourceFile> files, const ReadSource& read, unsigned threads);
  // True when save() would write (python::FactsCache::worth_saving).
  bool worth_saving() const;
  // Writes the cache when worth_saving(). Throws impact::Error when it cannot be written.
  void save();

private:
  std::unique_ptr<python::FactsCache> m_cache;
};

} // namespace impact
