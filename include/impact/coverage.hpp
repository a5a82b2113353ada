#pragma once
#ifdef IMPACT_FORBID_COVERAGE // defined for the stages that may not use coverage (src/CMakeLists.txt)
#error "this stage may not use coverage (docs/architecture.md, allowed edges)"
#endif
// Stage 4, the coverage index: which tests executed each line of each file, recorded by coverage.py
// with per-test contexts, and the SHA-256 of the content that was measured. A file's entry is trusted
// only while the file's content at the diff base still has that hash.
#include "impact/changes.hpp"
#include "impact/vocabulary.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace impact {

struct ChangeSet;
struct FileSemantics;
class ImportGraph;
class ProjectFacts;
class ProjectLayout;

// The pseudo-test of lines executed outside any one test's own call: at import and collection, in a
// fixture's setup or teardown (which a session-, module- or class-scoped fixture runs for the first test
// only), or under a context that names no test. Such a line cannot be vouched for per test.
constexpr uint32_t k_import_time = 0;

// Line 0 of a file's line map: the suite's processes loaded the file (it was in sys.modules), whether
// or not coverage.py recorded a line of it (a module imported before coverage.py started, as a plugin
// named by -p is, runs unrecorded). An index with `loaded` set has it for every file that was loaded.
constexpr uint32_t k_loaded_line = 0;

// One file of the index: line -> the ids of the tests that executed it (k_import_time included).
struct MeasuredFile {
  RepoPath path;
  std::string sha256; // of the content measured
  std::string oid;    // the git blob id of the same content
  // False for a Python file coverage.py did not measure (outside --cov, or never imported), kept with
  // its hashes so that a later run can tell whether it changed since the index was built.
  bool measured = true;
  // False when nothing proves that the content hashed here is the content coverage.py measured (data
  // read with --from, the file changed since it was written, or changed during the run): its lines are
  // not used, and it counts as differing from every content, so the tests that load it keep their
  // static answer.
  bool trusted = true;
  std::map<uint32_t, std::vector<uint32_t>> lines;
  // The runs that measured this content (indexes into CoverageIndex::origins): one for an index built
  // by impact index, several where a merge unioned the same content of several runs. Empty means the
  // index's own run (origin 0).
  std::vector<uint32_t> origins;
};

// One run of the suite whose coverage the index holds (a merged index holds several): the commit it
// was built at and when. A version of a file is read against the other files of a run that measured
// it, never against a mixture (docs/coverage.md, "Versions").
struct IndexOrigin {
  std::string commit;
  int64_t built_epoch = 0;
  bool operator==(const IndexOrigin&) const = default;
};

// The most versions (contents) of one file a merged index keeps; the oldest go first.
constexpr size_t k_versions_per_file = 4;

struct IndexMeta {
  int schema = 0;
  std::string built_at; // ISO 8601, UTC
  int64_t built_epoch = 0;
  std::string commit;   // HEAD when it was built
  std::string source;   // "pytest" or the coverage file it was read from
  size_t tests = 0;
  size_t files = 0;  // measured files
  size_t hashed = 0; // Python files only hashed (not measured)
  size_t untrusted = 0; // files, measured or hashed, whose measured content is not proven
  // The index saw every test of the suite run (docs/coverage.md, "The whole suite"): no test was
  // deselected or left out by the arguments, no collection failed, the session was not stopped. Only
  // then does a function body that no test ran select no test.
  bool whole_suite = false;
  std::string partial; // why not, for people ("-k was given"); "" when whole_suite or unknown
  // The coverage data held arcs (branch data; `impact index` measures them): a resumed generator's
  // exit is recorded for the test that resumed it (docs/coverage.md, "Arcs").
  bool arcs = false;
  // The run reported which files its processes loaded (k_loaded_line): a file measured with no line,
  // not even line 0, never ran (docs/coverage.md, "Files the suite never loaded").
  bool loaded = false;
  // The installed distributions' versions where the suite ran (name -> version); nullopt when not
  // recorded (an index read from a coverage file, or one written before it was recorded). A later
  // run selects the importers of what moved since (docs/coverage.md, "The installed environment").
  std::optional<std::map<std::string, std::string>> environment;
};

// A whole index in memory, as built or merged (lookups read the store file instead).
struct CoverageIndex {
  IndexMeta meta;
  std::vector<std::string> tests; // id - 1 -> node id (id 0 is k_import_time)
  // One entry per version of a file: a merged index may hold up to k_versions_per_file contents of one
  // path (by path, then newest first); an index built by impact index holds one.
  std::vector<MeasuredFile> files;
  std::vector<IndexOrigin> origins; // empty: the one run the meta describes
};

// One version of a file as the drift check reads it: its git blob id ("" when untrusted, which matches
// no content) and the runs that measured it.
struct IndexedVersion {
  std::string path;
  std::string oid;
  std::vector<uint32_t> origins;
};

// What reading a coverage.py data file found.
struct IngestStats {
  size_t contexts = 0;
  size_t test_contexts = 0;      // a test's call (pytest-cov's "|run", or a test_function context)
  size_t fixture_contexts = 0;   // a test's setup or teardown phase: recorded as k_import_time
  size_t outside_contexts = 0;   // the empty context (import, collection): k_import_time
  size_t unknown_contexts = 0;   // names no test of the repository: k_import_time
  size_t decorated_contexts = 0; // a static context label or an xdist worker suffix was stripped
  size_t files = 0;
  size_t outside_files = 0;      // measured files outside the repository (ignored)
  size_t missing_files = 0;      // measured files that no longer exist (dropped)
  std::string remapped_from;     // the other checkout's root the measured paths were read under, if any
};

// Reads a coverage.py SQLite data file (schema 6 or 7; line or arc data) into an index, mapping each
// context to a pytest node id (pytest-cov's "path::test|phase", or coverage's test_function contexts
// "package.module.Class.test"), and hashing the files as they are now. Throws impact::Error naming the
// file and the fix for a file that is not such a database (coverage 4's JSON included), another schema,
// damaged data, or data without per-test contexts. `python_files` are the repository's Python files:
// a test_function context names its module, measured or not (--cov=src leaves the tests out).
CoverageIndex ingest_coverage(const std::filesystem::path& data_file, const std::filesystem::path& repo_root,
                              const std::string& rootdir, const std::vector<RepoPath>& python_files,
                              IngestStats& stats);

// Marks the files of `index` among `loaded` (absolute paths, as the suite's processes imported them
// or resolved) with k_loaded_line, and sets meta.loaded.
void mark_loaded(CoverageIndex& index, const std::vector<std::string>& loaded, const std::filesystem::path& repo_root);

// Forgets the tests `names` (node ids) and their lines: a test that skipped itself in its call ran the
// lines before its skip only, and runs them through where it is not skipped. Left with no coverage,
// such a test keeps its static answer (docs/coverage.md, "The whole suite").
void drop_tests(CoverageIndex& index, const std::vector<std::string>& names);

// Adds the Python files of the project the index does not hold yet, hashed but not measured, so that
// drift can be told from a file that was never measured. `read` gives a file's content, or nullopt.
void add_hashed_files(CoverageIndex& index, const std::vector<SourceFile>& inventory,
                      const std::function<FileRead(const SourceFile&)>& read);

// The store: one SQLite file, written to a temporary file, flushed and renamed into place. Throws
// impact::Error naming the file when it cannot be written (and leaves no temporary file behind).
void write_index(const CoverageIndex& index, const std::filesystem::path& path);

// Reads the whole store; without `with_lines`, neither the line maps nor the SHA-256 digests (the git
// blob ids tell drift as well; for status). Throws impact::Error
// naming the file and the fix when it is missing, corrupt, foreign or from another schema.
CoverageIndex read_index(const std::filesystem::path& path, bool with_lines);

// Unions indexes (shards of one run, or runs on several branches) per (file, content hash): versions
// whose hashes agree union their line maps and their runs (untrusted if any part is: a union with
// unproven lines can miss); versions that differ are kept side by side, at most k_versions_per_file
// per file: the newest (by the latest run that measured each; equal: the greater hash) are kept, so
// the order of the inputs does not matter. A version keeps at most k_versions_per_file runs, the newest.
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
  // The newest version of the file at `path`, or std::nullopt when the index never measured it.
  std::optional<MeasuredFile> file(const RepoPath& path);
  // Every version of the file at `path` the index holds, newest first (empty when none).
  std::vector<MeasuredFile> versions(const RepoPath& path);
  // Every version of every file the index holds (to find files that changed since the index).
  std::vector<IndexedVersion> file_oids();
  // The node id of test `id`, or "" when there is none.
  std::string test_name(uint32_t id);
  // The recorded node ids in test file `path` ("path::..."), sorted.
  std::vector<std::string> tests_in(const RepoPath& path);

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Why the coverage index was not used for a changed file (docs/coverage.md, per-file rules); the
// file keeps the static answer. Written by to_string, as the decision document's `fallback`.
enum class CoverageFallback {
  none,               // the index vouches for the change
  untracked,          // an untracked file: never measured
  added,              // the file's status: the index measured no such file, or not under this name
  deleted,
  renamed,
  type_changed,
  conftest,           // a conftest.py: its fixtures and hooks follow the static rule
  syntax_error,       // the new side does not compile: every import of it changes
  not_implementation, // not a change to function bodies only (runs at import, a signature, a comment, ...)
  not_indexed,        // never measured by the index, or unreadable now
  untrusted,          // nothing proves the coverage data was measured on the content the index holds
  drift,              // changed since the index was built
  line_endings,       // a lone carriage return: git's line numbers differ from Python's
  memoized,           // a cached function: its body ran for the first caller only
  insertion,          // lines inserted: no recorded coverage
  unrecorded,         // a replaced line no test ran (or coverage.py does not count)
  outside_tests,      // a replaced line also ran outside a test's own call (import, collection, fixture)
  dedent,             // code moved out of its block: no recorded coverage
  runs_later,         // a generator, coroutine or lazy generator expression: resumed where coverage may not record it
  tests_missing,      // a recorded test no longer exists
  safe_mode,          // --mode safe: the index only adds tests to the static answer (set by the decision); the last value (read_report.cpp)
};

// The word for `fallback` in text and JSON ("" for none).
std::string_view to_string(CoverageFallback fallback);

// What the coverage index says about one changed file (stage 4), made by coverage_evidence.
struct CoverageUse {
  RepoPath path;
  bool trusted = false;  // the index vouches for this file's change: `tests` replaces the static answer
  CoverageFallback fallback = CoverageFallback::none; // why not
  std::string detail;    // for people: "src/app/views.py changed since the index"
  std::vector<std::pair<std::string, uint32_t>> tests; // node id, the base line whose coverage names it
  // The base function bodies whose coverage answered (when trusted): a test not in `tests` ran none of
  // their lines in the base version ("why not selected" says so).
  std::vector<LineSpan> bodies;
};

struct CoverageInput {
  std::vector<CoverageUse> files;
  // Test files whose content is not what the index measured (changed or added since): the index cannot
  // speak for them, so the static answer applies to them. Sorted.
  std::vector<std::string> unmeasured_tests;
  // Test files the index measured as they are, some of whose tests left no coverage (skipped,
  // deselected or stopped when it was built): the static answer applies to those tests only. File ->
  // the node ids of those tests (`file::test`, `file::Class::test`), sorted.
  std::map<std::string, std::vector<std::string>> unrecorded_tests;
  // The files that are not Python and differ between the commit the index was built at and the state
  // under test (added, changed or deleted since; this change's too), with their status: data a test
  // may read, which the index's line maps knew nothing of (docs/coverage.md, "Data changed since the
  // index"). Empty when that commit is not in HEAD's history (not checked).
  std::vector<std::pair<RepoPath, FileStatus>> drifted_data;
};

// How the coverage stage reads file contents, bound by the caller to its Repository: `base` gives a
// path's content at the change set's base, `current` a file of the state under test. A file that is not
// there falls back to the static rule; a read that fails stops coverage_evidence() with the read's
// problem as an impact::Error, which the caller must report as git's error, not as a bad index.
struct CoverageReads {
  std::function<FileRead(const RepoPath&)> base;
  std::function<FileRead(const SourceFile&)> current;
};

// Reads the index for the changed Python files. A file's change is answered by the tests whose call
// phase ran any line of the base function bodies that hold it (coverage/blocks.hpp) when: the index
// measured exactly the file's content at the diff base; every changed, deleted or inserted line lies
// inside a function body (not its signature, decorators or defaults), indented at least as that body
// is; no line of such a body ran outside a test's own call (at import, in a fixture), and none is a
// generator or coroutine; a body no test ran counts only when the index saw the whole suite; and every
// test named still exists (or, in a test file unchanged since the index, was made at collection:
// generated_tests.hpp). A recorded doctest stands for its file: a text doctest while it is one of
// `text_doctests` (the paths pytest collects for their examples), a module's doctest while the module
// still has examples. Everything else, conftest.py files included,
// is left to the static analysis with the reason (CoverageUse::fallback).
//
// For the files it vouches for, it also lists the test files the index cannot speak for: those that
// differ from what was measured, those that can load a Python file that differs (drift outside the
// change), and those holding a test that left no coverage (it did not run when the index was built).
// Throws impact::Error for an index that cannot be read, and lets the reads' errors through.
CoverageInput coverage_evidence(const ChangeSet& changes, const std::vector<FileSemantics>& semantics,
                                const ProjectFacts& facts, const ProjectLayout& layout, const ImportGraph& graph,
                                IndexReader& index, const CoverageReads& reads,
                                const std::vector<std::string>& text_doctests);

// True when `path` holds an impact coverage index (of any schema, readable or not): what
// `impact index merge -o` may overwrite.
bool is_index_file(const std::filesystem::path& path);

// The store's file name under the cache folder.
std::string index_file_name();

} // namespace impact
