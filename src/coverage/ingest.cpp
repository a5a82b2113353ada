// ingest_coverage(): coverage.py's SQLite data (contexts, line_bits with numbits, or arcs) into an
// index of line -> tests, with every context mapped to a pytest node id.
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"
#include "util/sqlite.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <unordered_map>

namespace impact {

namespace {

bool is_sqlite(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char header[16] = {};
  in.read(header, sizeof header);
  return in.gcount() == 16 && std::string_view(header, 15) == "SQLite format 3";
}

// coverage.py's numbits: bit i of byte j set means line j * 8 + i ran.
void numbits_lines(std::string_view bits, std::vector<uint32_t>& out) {
  for (size_t byte = 0; byte < bits.size(); ++byte) {
    auto b = static_cast<unsigned char>(bits[byte]);
    for (int bit = 0; bit < 8; ++bit) {
      if ((b & (1u << bit)) != 0) out.push_back(static_cast<uint32_t>(byte * 8 + static_cast<size_t>(bit)));
    }
  }
}

// Maps coverage contexts to pytest node ids.
class ContextMapper {
public:
  ContextMapper(std::string rootdir, const std::filesystem::path& repo_root) : m_rootdir(std::move(rootdir)) {
    (void)repo_root;
  }

  void add_module_file(const std::string& path) {
    if (!path.ends_with(".py")) return;
    std::string dotted = path.substr(0, path.size() - 3);
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    // Every suffix is a name the module may have been imported as (its import root is unknown here).
    for (size_t start = 0;;) {
      m_modules.emplace(dotted.substr(start), path);
      size_t dot = dotted.find('.', start);
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }

  // The node id of a context, or "" when it is not a test; sets `import_time` for the empty context.
  std::string node_id(std::string context, bool& import_time) const {
    import_time = false;
    if (context.empty()) {
      import_time = true;
      return {};
    }
    auto bar = context.rfind('|');
    if (bar != std::string::npos) {
      std::string_view phase = std::string_view(context).substr(bar + 1);
      if (phase == "run" || phase == "setup" || phase == "teardown" || phase == "call") context.resize(bar);
    }
    // xdist or rerun decorations some setups append: "[gw0]" is not part of a node id.
    if (auto sp = context.find(' '); sp != std::string::npos) context.resize(sp);
    if (context.find("::") != std::string::npos) {
      std::string id = context;
      if (!m_rootdir.empty() && !id.starts_with(m_rootdir + "/")) id = m_rootdir + "/" + id;
      return id;
    }
    // coverage's dynamic_context = test_function: "package.module.Class.test_name".
    std::string best_path;
    size_t best = 0;
    for (size_t dot = context.find('.'); dot != std::string::npos; dot = context.find('.', dot + 1)) {
      auto it = m_modules.find(context.substr(0, dot));
      if (it != m_modules.end()) {
        best = dot;
        best_path = it->second;
      }
    }
    if (best == 0) return {};
    std::string rest = context.substr(best + 1);
    std::string id = best_path;
    size_t start = 0;
    for (;;) {
      size_t dot = rest.find('.', start);
      id += "::" + rest.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return id;
  }

private:
  std::string m_rootdir;
  std::unordered_map<std::string, std::string> m_modules; // dotted name -> repo path
};

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

} // namespace

CoverageIndex ingest_coverage(const std::filesystem::path& data_file, const std::filesystem::path& repo_root,
                              const std::string& rootdir, IngestStats& stats) {
  std::string name = data_file.string();
  if (!std::filesystem::exists(data_file)) throw Error("{}: no such coverage file; run your tests under coverage first", name);
  if (!is_sqlite(data_file)) {
    throw Error("{} is not a coverage.py SQLite data file (coverage 5 or later writes one); re-run the suite with "
                "coverage >= 5, or use impact index without --from",
                name);
  }
  util::Database db(data_file, util::Database::Mode::read_only);
  if (!db.has_table("coverage_schema") || !db.has_table("file") || !db.has_table("context")) {
    throw Error("{} is an SQLite file but not coverage.py data; pass the .coverage file coverage.py wrote", name);
  }
  {
    auto version = db.prepare("SELECT version FROM coverage_schema");
    int schema = version.step() ? static_cast<int>(version.integer(0)) : 0;
    if (schema < 6 || schema > 7) {
      throw Error("{} has coverage.py data schema {}, which impact does not read (schemas 6 and 7: coverage 5.x to 7.x); "
                  "re-run the suite with a supported coverage version",
                  name, schema);
    }
  }
  bool arcs = false;
  if (db.has_table("meta")) {
    auto meta = db.prepare("SELECT value FROM meta WHERE key = 'has_arcs'");
    if (meta.step()) arcs = meta.text(0) == "1" || meta.text(0) == "True" || meta.text(0) == "true";
  }

  CoverageIndex index;
  index.meta.schema = 1;
  index.meta.built_at = now_iso(index.meta.built_epoch);
  index.meta.source = name;

  // Files: repository-relative, measured inside the repository only.
  std::unordered_map<int64_t, size_t> file_slot; // coverage file id -> index.files
  ContextMapper mapper(rootdir, repo_root);
  {
    auto files = db.prepare("SELECT id, path FROM file");
    while (files.step()) {
      std::filesystem::path p(files.text(1));
      if (p.is_relative()) p = repo_root / p;
      auto rel = util::relative_to(p, repo_root);
      if (!rel || rel->empty()) {
        ++stats.outside;
        continue;
      }
      file_slot[files.integer(0)] = index.files.size();
      MeasuredFile f;
      f.path = RepoPath(*rel);
      index.files.push_back(std::move(f));
      mapper.add_module_file(*rel);
    }
  }
  // Contexts -> test ids (1-based; 0 is import time).
  std::unordered_map<int64_t, uint32_t> test_of; // coverage context id -> test id
  std::unordered_map<std::string, uint32_t> ids;
  bool any_named_context = false;
  {
    auto contexts = db.prepare("SELECT id, context FROM context");
    while (contexts.step()) {
      ++stats.contexts;
      bool import_time = false;
      std::string context = contexts.text(1);
      if (!context.empty()) any_named_context = true;
      std::string id = mapper.node_id(context, import_time);
      if (import_time) {
        test_of[contexts.integer(0)] = k_import_time;
        ++stats.import_time;
        continue;
      }
      if (id.empty()) {
        ++stats.ignored_contexts;
        continue;
      }
      auto [it, inserted] = ids.emplace(id, static_cast<uint32_t>(index.tests.size() + 1));
      if (inserted) index.tests.push_back(id);
      test_of[contexts.integer(0)] = it->second;
    }
  }
  if (!any_named_context) {
    throw Error("{} has no per-test contexts; record them with pytest --cov-context=test (pytest-cov) or "
                "[run] dynamic_context = test_function in the coverage configuration",
                name);
  }
  stats.tests = index.tests.size();

  std::vector<uint32_t> lines;
  auto known = [&](int64_t file_id, int64_t context_id) {
    return file_slot.contains(file_id) && test_of.contains(context_id);
  };
  if (!arcs && db.has_table("line_bits")) {
    auto rows = db.prepare("SELECT file_id, context_id, numbits FROM line_bits");
    while (rows.step()) {
      if (!known(rows.integer(0), rows.integer(1))) continue;
      lines.clear();
      numbits_lines(rows.blob(2), lines);
      MeasuredFile& f = index.files[file_slot[rows.integer(0)]];
      uint32_t test = test_of[rows.integer(1)];
      for (uint32_t line : lines) f.lines[line].push_back(test);
    }
  } else if (db.has_table("arc")) {
    auto rows = db.prepare("SELECT file_id, context_id, fromno, tono FROM arc");
    while (rows.step()) {
      if (!known(rows.integer(0), rows.integer(1))) continue;
      MeasuredFile& f = index.files[file_slot[rows.integer(0)]];
      uint32_t test = test_of[rows.integer(1)];
      for (int64_t line : {rows.integer(2), rows.integer(3)}) {
        if (line > 0) f.lines[static_cast<uint32_t>(line)].push_back(test);
      }
    }
  }
  for (auto& f : index.files) {
    for (auto& [line, tests] : f.lines) {
      std::sort(tests.begin(), tests.end());
      tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
    }
    // The content measured: the file as it is now (run impact index in the checkout the data comes from).
    auto content = util::read_file(repo_root / f.path.str).value_or(std::string());
    f.sha256 = util::sha256_hex(content);
    f.oid = util::git_blob_id(content);
  }
  // Files that no longer exist cannot be vouched for: drop them.
  std::erase_if(index.files, [&](const MeasuredFile& f) { return !std::filesystem::exists(repo_root / f.path.str); });
  stats.files = index.files.size();
  index.meta.tests = index.tests.size();
  index.meta.files = index.files.size();
  return index;
}

} // namespace impact
