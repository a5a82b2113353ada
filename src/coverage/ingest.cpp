// ingest_coverage(): coverage.py's SQLite data (contexts, line_bits with numbits, or arcs) into an
// index of line -> tests, with every context mapped to a pytest node id.
#include "coverage/contexts.hpp"
#include "coverage/import_in_call.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"
#include "util/sqlite.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <unordered_map>
#include <unordered_set>

namespace impact {

namespace {

// "" for anything but a regular file: a FIFO given to --from must not block the read.
std::string file_header(const std::filesystem::path& path) { return util::read_head(path, 64); }

std::string now_iso(int64_t& epoch) {
  auto now = std::chrono::system_clock::now();
  epoch = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// Data measured in another checkout (a CI runner's /home/runner/work/x/x): the folder that, taken off
// the front of the first measured path, leaves a file of this repository. Empty when none does.
std::filesystem::path foreign_root(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& repo_root) {
  for (const auto& p : paths) {
    std::vector<std::filesystem::path> parts(p.begin(), p.end());
    for (size_t skip = 1; skip + 1 < parts.size(); ++skip) {
      std::filesystem::path rest;
      for (size_t i = skip; i < parts.size(); ++i) rest /= parts[i];
      std::error_code ec;
      if (std::filesystem::is_regular_file(repo_root / rest, ec)) {
        std::filesystem::path root;
        for (size_t i = 0; i < skip; ++i) root /= parts[i];
        return root;
      }
    }
  }
  return {};
}

void check_coverage_file(util::Database& db, const std::string& name) {
  if (!db.has_table("coverage_schema") || !db.has_table("file") || !db.has_table("context")) {
    throw Error("{}: an SQLite file but not coverage.py data; pass the .coverage file coverage.py wrote", name);
  }
  auto version = db.prepare("SELECT version FROM coverage_schema");
  int schema = version.step() ? static_cast<int>(version.integer(0)) : 0;
  if (schema < 6 || schema > 7) {
    throw Error("{}: coverage.py data schema {}, which impact does not read (it reads schemas 6 and 7, written by "
                "coverage 5.x to 7.x); re-run the suite with a supported coverage.py",
                name, schema);
  }
}

} // namespace

CoverageIndex ingest_coverage(const std::filesystem::path& data_file, const std::filesystem::path& repo_root,
                              const std::string& rootdir, const std::vector<RepoPath>& python_files,
                              IngestStats& stats) {
  std::string name = data_file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(data_file, ec)) {
    throw Error("{}: no such coverage file; run the suite under coverage first (pytest --cov --cov-context=test)", name);
  }
  std::string header = file_header(data_file);
  if (header.starts_with("!coverage.py: This is a private format")) {
    throw Error("{}: coverage.py 4.x data (JSON), which impact does not read; re-run the suite with coverage.py 5 or "
                "later, or build the index with impact index",
                name);
  }
  if (!header.starts_with(std::string_view("SQLite format 3\0", 16))) {
    throw Error("{}: not a coverage.py data file (not SQLite); pass the .coverage file coverage.py 5 or later wrote, "
                "or build the index with impact index",
                name);
  }
  CoverageIndex index;
  index.meta.built_at = now_iso(index.meta.built_epoch);
  index.meta.source = name;
  std::unordered_map<size_t, std::map<uint32_t, std::vector<uint32_t>>> child_lines; // slot -> what children ran
  try {
    util::Database db(data_file, util::Database::Mode::read_only);
    check_coverage_file(db, name);
    bool arcs = false;
    if (db.has_table("meta")) {
      auto meta = db.prepare("SELECT value FROM meta WHERE key = 'has_arcs'");
      if (meta.step()) arcs = meta.text(0) == "1" || meta.text(0) == "True" || meta.text(0) == "true";
    }
    index.meta.arcs = arcs;

    // Files: repository-relative, measured inside the repository only.
    std::vector<std::pair<int64_t, std::filesystem::path>> measured;
    bool any_inside = false;
    {
      auto files = db.prepare("SELECT id, path FROM file");
      while (files.step()) {
        std::filesystem::path p(files.text(1));
        if (p.is_relative()) p = repo_root / p;
        p = p.lexically_normal();
        auto rel = util::relative_to(p, repo_root);
        any_inside = any_inside || (rel && !rel->empty());
        measured.emplace_back(files.integer(0), std::move(p));
      }
    }
    std::filesystem::path foreign;
    if (!any_inside && !measured.empty()) {
      std::vector<std::filesystem::path> paths;
      for (const auto& [id, p] : measured) paths.push_back(p);
      foreign = foreign_root(paths, repo_root);
      stats.remapped_from = foreign.string();
    }
    std::unordered_map<int64_t, size_t> file_slot; // coverage file id -> index.files
    std::unordered_map<std::string, size_t> slot_of; // two spellings of one path share a slot
    coverage::ContextMapper mapper(rootdir);
    for (const auto& p : python_files) mapper.add_module_file(p.str);
    for (auto& [id, p] : measured) {
      std::optional<std::string> rel;
      if (!foreign.empty()) {
        if (auto under = util::relative_to(p, foreign)) rel = under;
      } else {
        rel = util::relative_to(p, repo_root);
      }
      if (!rel || rel->empty()) {
        ++stats.outside_files;
        continue;
      }
      auto [slot, inserted] = slot_of.emplace(*rel, index.files.size());
      file_slot[id] = slot->second;
      if (!inserted) continue;
      MeasuredFile f;
      f.path = RepoPath(*rel);
      index.files.push_back(std::move(f));
    }

    // Contexts -> test ids (1-based); what cannot be attributed to one test's call is k_import_time.
    std::unordered_map<int64_t, uint32_t> test_of; // coverage context id -> test id
    std::unordered_set<int64_t> child_contexts;    // a child process of a test's call
    std::unordered_map<std::string, uint32_t> ids;
    {
      auto contexts = db.prepare("SELECT id, context FROM context");
      while (contexts.step()) {
        ++stats.contexts;
        coverage::MappedContext c = mapper.map(contexts.text(1));
        stats.decorated_contexts += c.decorated ? 1 : 0;
        uint32_t test = k_import_time;
        switch (c.kind) {
        case coverage::ContextKind::test: {
          ++stats.test_contexts;
          auto [it, inserted] = ids.emplace(c.node_id, static_cast<uint32_t>(index.tests.size() + 1));
          if (inserted) index.tests.push_back(c.node_id);
          test = it->second;
          break;
        }
        case coverage::ContextKind::fixture: ++stats.fixture_contexts; break;
        case coverage::ContextKind::outside: ++stats.outside_contexts; break;
        case coverage::ContextKind::unknown: ++stats.unknown_contexts; break;
        }
        test_of[contexts.integer(0)] = test;
        if (c.child && test != k_import_time) child_contexts.insert(contexts.integer(0));
      }
    }
    if (index.tests.empty()) {
      if (stats.contexts == stats.outside_contexts) {
        throw Error("{}: no per-test contexts; record them with pytest --cov-context=test (pytest-cov), or "
                    "[run] dynamic_context = test_function in the coverage configuration",
                    name);
      }
      throw Error("{}: none of its {} context(s) names a pytest test of this repository; record them with pytest "
                  "--cov-context=test, and run impact index --from in the checkout the data comes from",
                  name, stats.contexts);
    }

    std::vector<uint32_t> lines;
    // What a child process of a test's call ran is the test's, but kept apart until the imports inside
    // calls are found: a child's imports leave nothing behind for later tests.
    auto lines_of = [&](size_t slot, int64_t context_id) -> std::map<uint32_t, std::vector<uint32_t>>& {
      return child_contexts.contains(context_id) ? child_lines[slot] : index.files[slot].lines;
    };
    auto known = [&](int64_t file_id, int64_t context_id) {
      return file_slot.contains(file_id) && test_of.contains(context_id);
    };
    if (!arcs && db.has_table("line_bits")) {
      auto rows = db.prepare("SELECT file_id, context_id, numbits FROM line_bits");
      while (rows.step()) {
        if (!known(rows.integer(0), rows.integer(1))) continue;
        lines.clear();
        coverage::decode_numbits(rows.blob(2), lines);
        auto& into = lines_of(file_slot[rows.integer(0)], rows.integer(1));
        uint32_t test = test_of[rows.integer(1)];
        for (uint32_t line : lines) {
          if (line > 0) into[line].push_back(test);
        }
      }
    } else if (db.has_table("arc")) {
      // Arcs (from, to): negative numbers are entries to and exits from code objects; every positive
      // end is a line that ran, as coverage.py's own CoverageData.lines() reads them.
      auto rows = db.prepare("SELECT file_id, context_id, fromno, tono FROM arc");
      while (rows.step()) {
        if (!known(rows.integer(0), rows.integer(1))) continue;
        auto& into = lines_of(file_slot[rows.integer(0)], rows.integer(1));
        uint32_t test = test_of[rows.integer(1)];
        for (int64_t line : {rows.integer(2), rows.integer(3)}) {
          if (line > 0) into[static_cast<uint32_t>(line)].push_back(test);
        }
      }
    }
  } catch (const util::SqliteError& e) {
    // SQLite's own complaint about a truncated or damaged file, which says no fix.
    throw Error("{}: cannot be read as coverage.py data ({}); re-run the suite under coverage", name,
                e.sqlite_message());
  }
  std::unordered_set<uint32_t> imports_in_calls; // tests whose call ran import-time code (coverage/import_in_call.hpp)
  for (size_t slot = 0; slot < index.files.size(); ++slot) {
    MeasuredFile& f = index.files[slot];
    auto sort_unique = [](std::map<uint32_t, std::vector<uint32_t>>& by_line) {
      for (auto& [line, tests] : by_line) {
        std::sort(tests.begin(), tests.end());
        tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
      }
    };
    sort_unique(f.lines);
    // The content measured: the file as it is now (run impact index in the checkout the data comes
    // from). A file measured and since deleted cannot be vouched for: it is dropped.
    auto content = util::read_file(repo_root / f.path.str);
    if (!content) {
      ++stats.missing_files;
      f.path = RepoPath();
      continue;
    }
    f.sha256 = util::sha256_hex(*content);
    f.oid = util::git_blob_id(*content);
    find_imports_in_calls(f, *content, imports_in_calls);
    if (auto child = child_lines.find(slot); child != child_lines.end()) {
      for (auto& [line, tests] : child->second) f.lines[line].insert(f.lines[line].end(), tests.begin(), tests.end());
      sort_unique(f.lines);
    }
  }
  std::erase_if(index.files, [](const MeasuredFile& f) { return f.path.empty(); });
  mark_imports_in_calls(index, imports_in_calls);
  std::sort(index.files.begin(), index.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  stats.files = index.files.size();
  index.meta.tests = index.tests.size();
  index.meta.files = index.files.size();
  return index;
}

void mark_loaded(CoverageIndex& index, const std::vector<std::string>& loaded, const std::filesystem::path& repo_root) {
  std::error_code ec;
  std::vector<std::filesystem::path> roots{repo_root.lexically_normal()};
  if (auto real = std::filesystem::weakly_canonical(repo_root, ec); !ec && real != roots.front()) roots.push_back(real);
  std::unordered_set<std::string> paths;
  for (const auto& name : loaded) {
    std::filesystem::path p = std::filesystem::path(name).lexically_normal();
    for (const auto& root : roots) {
      if (auto rel = util::relative_to(p, root); rel && !rel->empty()) paths.insert(*rel);
    }
  }
  for (auto& f : index.files) {
    if (paths.contains(f.path.str)) f.lines[k_loaded_line].push_back(k_import_time);
  }
  index.meta.loaded = true;
}

void drop_tests(CoverageIndex& index, const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::unordered_set<std::string_view> drop(names.begin(), names.end());
  constexpr uint32_t k_gone = UINT32_MAX;
  std::vector<uint32_t> remap{k_import_time}; // old id -> new id
  std::vector<std::string> kept;
  for (auto& name : index.tests) {
    bool dropped = drop.contains(name);
    if (!dropped) kept.push_back(std::move(name));
    remap.push_back(dropped ? k_gone : static_cast<uint32_t>(kept.size()));
  }
  if (kept.size() == index.tests.size()) return;
  index.tests = std::move(kept);
  for (auto& f : index.files) {
    for (auto& [line, ran] : f.lines) {
      for (auto& t : ran) t = t < remap.size() ? remap[t] : k_gone;
      std::erase(ran, k_gone);
    }
    std::erase_if(f.lines, [](const auto& l) { return l.second.empty(); });
  }
  index.meta.tests = index.tests.size();
}

void add_hashed_files(CoverageIndex& index, const std::vector<SourceFile>& inventory,
                      const std::function<FileRead(const SourceFile&)>& read) {
  std::unordered_set<std::string> held;
  for (const auto& f : index.files) held.insert(f.path.str);
  for (const auto& source : inventory) {
    if (!source.path.ends_with(".py") || source.symlink || held.contains(source.path.str)) continue;
    // One that cannot be read is left out: never measured, so a change to it follows the static rule.
    FileRead content = read(source);
    if (!content.has_content()) continue;
    MeasuredFile f;
    f.path = source.path;
    f.sha256 = util::sha256_hex(content.text);
    f.oid = util::git_blob_id(content.text);
    f.measured = false;
    index.files.push_back(std::move(f));
    ++index.meta.hashed;
  }
  std::sort(index.files.begin(), index.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
}

} // namespace impact
