// Stage 4's policy: when the coverage index may vouch for a change, file by file (coverage.hpp).
#include "impact/coverage.hpp"

#include "impact/changes.hpp"
#include "impact/error.hpp"
#include "impact/graph.hpp"
#include "impact/project.hpp"
#include "impact/python/names.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/semantic.hpp"
#include "impact/node_id.hpp"

#include "coverage/blocks.hpp"
#include "coverage/generated_tests.hpp"
#include "coverage/keeping_callers.hpp"
#include "coverage/memoized.hpp"
#include "coverage/read_not_run.hpp"
#include "impact/python/source_view.hpp"
#include "impact/python/text_reads.hpp"
#include "util/ascii.hpp"
#include "util/sha256.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace impact {

namespace {

// Whether node ids still name tests: the file is a test file and the function still exists. Keeps
// each file's qualnames, since a hot line names thousands of tests in few files.
class TestNames {
public:
  TestNames(const ProjectFacts& facts, const ImportGraph& graph, const std::vector<std::string>& text_doctests,
            UnchangedTestFiles& unchanged)
      : m_facts(facts), m_graph(graph), m_text_doctests(text_doctests.begin(), text_doctests.end()), m_unchanged(unchanged) {}

  // The id that runs a recorded test now: the id itself while it names a test or one made at
  // collection; for a doctest, the file that holds its examples (below); nullopt when the test is gone.
  std::optional<std::string> current(const std::string& id) {
    if (exists(id) || generated(id)) return id;
    NodeId parts = NodeId::of(id);
    if (parts.whole_file || parts.test.find("::") != std::string_view::npos || parts.test.find('[') != std::string_view::npos) {
      return std::nullopt;
    }
    std::string file(parts.file);
    // A text doctest (--doctest-glob) is one item named for its file: `docs/x.rst::x.rst`.
    if (m_text_doctests.contains(file)) {
      auto slash = file.rfind('/');
      if (parts.test == std::string_view(file).substr(slash == std::string::npos ? 0 : slash + 1)) return file;
      return std::nullopt;
    }
    // A module's doctest (--doctest-modules) is named by the module's dotted name and the qualname
    // of the docstring: `src/pkg/m.py::pkg.m.Class.method`. Whether that docstring still has
    // examples cannot be told from the facts, so the module's whole file stands for it: it runs
    // every doctest the module has now, wherever the examples went inside it.
    auto node = m_graph.find(file);
    size_t index = m_facts.find(file);
    if (!node || !m_graph.nodes[*node].test || index == ProjectFacts::npos || !m_facts.header(index).has_doctest) {
      return std::nullopt;
    }
    for (const auto& module : m_graph.nodes[*node].module_names) {
      if (parts.test == module || (parts.test.starts_with(module) && parts.test.size() > module.size() &&
                                   parts.test[module.size()] == '.')) {
        return file;
      }
    }
    return std::nullopt;
  }

private:
  bool exists(const std::string& id) {
    NodeId parts = NodeId::of(id);
    std::string file(parts.file);
    auto node = m_graph.find(file);
    if (!node || !m_graph.nodes[*node].test) return false;
    if (parts.whole_file) return true;
    std::string qual(parts.test);
    qual = dotted_qualname(qual.substr(0, qual.find('[')));
    const auto& names = names_of(file);
    return names.contains(qual) || inherited(names, qual);
  }

  // The qualnames of a test file's symbols, and the names imported into it (k_imported in front).
  const std::unordered_set<std::string>& names_of(const std::string& file) {
    auto [it, inserted] = m_qualnames.try_emplace(file);
    if (inserted) {
      size_t index = m_facts.find(file);
      if (index != ProjectFacts::npos) {
        FactsView view;
        m_facts.view(index, view);
        for (const auto& s : view.symbols) it->second.emplace(s.qualname);
        // Names imported into the module: a test class imported there is collected there again.
        ImportScratch scratch;
        m_facts.imports(index, scratch);
        for (const auto& alias : scratch.aliases) {
          if (!alias.empty()) it->second.emplace(std::string(k_imported) + std::string(alias));
        }
      }
    }
    return it->second;
  }

  static constexpr std::string_view k_imported = "import:";

  // A test the file makes as pytest collects it (generated_tests.hpp): `name` or `Class::name` (the
  // class may be made too: `globals()["Test" + name] = cls`) in a test file whose content is what the
  // index hashed, so that collecting it again makes the same tests.
  bool generated(const std::string& id) {
    NodeId parts = NodeId::of(id);
    if (parts.whole_file || !generated_test_form(parts.test)) return false;
    std::string file(parts.file);
    auto node = m_graph.find(file);
    if (!node || !m_graph.nodes[*node].test) return false;
    return m_unchanged.unchanged(file);
  }

  // pytest collects a test method a class inherits (from a mixin, a base test class) under the
  // subclass's id, and a test class imported into a test module again under that module's path:
  // "Class.method" names a test when Class is a class of the file or a name imported into it, and some
  // class of the project defines `method`.
  bool inherited(const std::unordered_set<std::string>& names, const std::string& qual) {
    auto dot = qual.find('.');
    if (dot == std::string::npos || qual.find('.', dot + 1) != std::string::npos) return false;
    std::string cls = qual.substr(0, dot), method = qual.substr(dot + 1);
    if (!names.contains(cls) && !names.contains(std::string(k_imported) + cls)) return false;
    if (m_methods.empty()) {
      FactsView view;
      for (size_t i = 0; i < m_facts.files.size(); ++i) {
        m_facts.view(i, view);
        for (const auto& s : view.symbols) {
          if (s.kind == SymbolKind::method) m_methods.emplace(s.name());
        }
      }
      m_methods.emplace(""); // read once, even for a project without methods
    }
    return m_methods.contains(method);
  }


  const ProjectFacts& m_facts;
  const ImportGraph& m_graph;
  std::unordered_map<std::string, std::unordered_set<std::string>> m_qualnames;
  std::unordered_set<std::string> m_methods; // the names of every method of the project, read once
  std::unordered_set<std::string> m_text_doctests; // the text files pytest collects for their examples
  UnchangedTestFiles& m_unchanged;
};

// The changed files' content at the diff base, each read once: a file's change is judged on it (its
// SHA-256 against the index's), and its git blob id tells drift before the base.
// A read's content, nullopt when the file is not there. A read that failed stops the evidence
// (CoverageReads): taken for "not there", it would be a fallback that hides git's error.
std::optional<std::string> content_of(FileRead read) {
  if (read.is_error()) throw Error("{}", read.problem);
  if (!read.has_content()) return std::nullopt;
  return std::move(read.text);
}

class BaseFiles {
public:
  explicit BaseFiles(const CoverageReads& reads) : m_reads(reads) {}

  const std::optional<std::string>& read(const RepoPath& path) {
    auto [it, inserted] = m_content.try_emplace(path.str);
    if (inserted) it->second = content_of(m_reads.base(path));
    return it->second;
  }

private:
  const CoverageReads& m_reads;
  std::unordered_map<std::string, std::optional<std::string>> m_content;
};

// A file that is not modified is not judged line by line: its status is the reason.
CoverageFallback fallback_of(FileStatus status) {
  switch (status) {
  case FileStatus::added: return CoverageFallback::added;
  case FileStatus::deleted: return CoverageFallback::deleted;
  case FileStatus::renamed: return CoverageFallback::renamed;
  case FileStatus::type_changed: return CoverageFallback::type_changed;
  case FileStatus::modified: break;
  }
  return CoverageFallback::not_implementation;
}

class Evaluator {
public:
  Evaluator(const CoverageReads& reads, BaseFiles& base, const ProjectFacts& facts, const ImportGraph& graph,
            IndexReader& index, const std::vector<std::string>& text_doctests)
      : m_reads(reads), m_base(base), m_facts(facts), m_graph(graph), m_index(index),
        m_unchanged(reads, index, facts), m_names(facts, graph, text_doctests, m_unchanged) {}

  // The runs that measured the version the last trusted answer used, newest first.
  const std::vector<uint32_t>& origins() const { return m_origins; }

  CoverageUse evaluate(const ChangedFile& change, const FileSemantics* sem) {
    CoverageUse use;
    use.path = change.path();
    const std::string& path = change.path().str;
    auto fallback = [&](CoverageFallback why, std::string detail) {
      use.fallback = why;
      use.detail = std::move(detail);
      return use;
    };
    if (change.untracked) return fallback(CoverageFallback::untracked, fmt::format("{} is untracked", path));
    if (change.status != FileStatus::modified) {
      return fallback(fallback_of(change.status), fmt::format("{} is {}", path, to_string(change.status)));
    }
    auto node = m_graph.find(path);
    if (node && m_graph.nodes[*node].conftest) {
      return fallback(CoverageFallback::conftest, fmt::format("{} is a conftest.py: its fixtures and hooks follow the static rule", path));
    }
    if (sem != nullptr && sem->kind == ChangeKind::syntax_error) {
      return fallback(CoverageFallback::syntax_error, fmt::format("{}: {}; every import of it changes", path, sem->syntax));
    }
    if (never_loaded(change, node, use)) return use;
    if (sem != nullptr && sem->runs_at_import) {
      return fallback(CoverageFallback::not_implementation, fmt::format("{}: the changed code runs at import", path));
    }
    if (sem != nullptr && sem->runs_as_program) {
      return fallback(CoverageFallback::not_implementation,
                      fmt::format("{}: the changed code runs where the module runs as a program", path));
    }
    if (sem == nullptr || sem->kind == ChangeKind::unclassifiable || sem->kind == ChangeKind::comment_only ||
        sem->kind == ChangeKind::formatting_only) {
      return fallback(CoverageFallback::not_implementation, fmt::format("{}: {} change", path,
                                                        sem == nullptr ? "unknown" : std::string(to_string(sem->kind))));
    }
    for (const auto& s : sem->symbols) {
      if (s.change != ChangeKind::implementation) {
        return fallback(CoverageFallback::not_implementation, fmt::format("{}: {} of {}", path, to_string(s.change), s.qualname));
      }
    }
    std::vector<MeasuredFile> versions = m_index.versions(change.path());
    if (versions.empty()) return fallback(CoverageFallback::not_indexed, fmt::format("{} was never measured by the index", path));
    const auto& base = m_base.read(change.old_path);
    // The version measured on the content at the diff base (a merged index may hold several); without
    // one, the newest says why the index cannot answer.
    std::string base_sha = base ? util::sha256_hex(*base) : std::string();
    auto match = std::find_if(versions.begin(), versions.end(), [&](const MeasuredFile& v) { return v.sha256 == base_sha; });
    const MeasuredFile* measured = match != versions.end() ? &*match : &versions.front();
    if (!measured->measured) {
      return fallback(CoverageFallback::not_indexed, fmt::format("{} was never measured by the index", path));
    }
    if (!measured->trusted) {
      return fallback(CoverageFallback::untrusted, fmt::format("{}: nothing proves the coverage data was measured on the content the "
                                               "index holds (it changed after the data was written)",
                                               path));
    }
    if (!base || base_sha != measured->sha256) {
      return fallback(CoverageFallback::drift, fmt::format("{} changed since the index was built", path));
    }
    m_origins = measured->origins;
    size_t at = m_facts.find(path);
    auto current = at == ProjectFacts::npos ? std::nullopt : content_of(m_reads.current(m_facts.files[at]));
    if (!current) return fallback(CoverageFallback::not_indexed, fmt::format("{} cannot be read", path));
    // A lone '\r' ends a line for CPython (so for coverage.py's line numbers) but not for git's hunks.
    if (python::has_lone_carriage_return(*base) || python::has_lone_carriage_return(*current)) {
      return fallback(CoverageFallback::line_endings, fmt::format("{}: a carriage return not followed by a line feed makes git's line "
                                                  "numbers differ from Python's",
                                                  path));
    }
    auto kind_may_change = [&] { return kinds_may_differ(change.hunks, *base, *current); };
    if (auto read = read_not_run(m_facts, path, *sem, kind_may_change)) {
      return fallback(CoverageFallback::not_implementation, std::move(*read));
    }
    if (auto cached = memoized(m_facts, m_graph, at, path, *sem)) {
      return fallback(CoverageFallback::memoized, fmt::format("{}: {} is memoized ({}): its body runs for the first caller only",
                                              path, cached->first, cached->second));
    }
    BlockAnswer blocks = answer_by_blocks(path, change.hunks, *base, *current, measured->lines, m_index.meta().whole_suite,
                                          m_index.meta().arcs);
    if (blocks.fallback != CoverageFallback::none) return fallback(blocks.fallback, std::move(blocks.detail));
    auto read_current = [&](size_t file) { return content_of(m_reads.current(m_facts.files[file])); };
    if (auto outside = add_caching_callers(m_facts, at, *sem, change.hunks, measured->lines, blocks, read_current)) {
      return fallback(CoverageFallback::outside_tests, std::move(*outside));
    }
    for (const auto& k : keeping_callers(m_facts, m_graph, at, path, *sem, *current)) {
      if (k.memoized) {
        return fallback(CoverageFallback::memoized, fmt::format("{}: {} calls {}, and {}: a call that finds its result kept runs "
                                                                "neither", path, k.qualname, k.changed, k.how));
      }
      auto why = fmt::format("{} may keep what {} computed ({}), and ran outside a test", k.qualname, k.changed, k.how);
      if (auto outside = add_caller_tests(k.def_line, k.last_line, change.hunks, std::move(why), measured->lines, blocks)) {
        return fallback(CoverageFallback::outside_tests, std::move(*outside));
      }
    }
    if (auto kept = keepers_elsewhere(at, *sem, blocks)) return fallback(kept->first, std::move(kept->second));
    const auto& tests = blocks.tests;
    for (const auto& [id, line] : tests) {
      std::string name = m_index.test_name(id);
      auto now = name.empty() ? std::nullopt : m_names.current(name);
      if (!now) {
        return fallback(CoverageFallback::tests_missing, fmt::format("{}: the recorded test {} no longer exists", path,
                                                     name.empty() ? std::to_string(id) : name));
      }
      use.tests.emplace_back(std::move(*now), line);
    }
    use.bodies = std::move(blocks.bodies);
    use.trusted = true;
    return use;
  }

private:
  // The callers in other files that may keep what a changed function of file `at` computed
  // (keeping_callers.hpp, files_that_may_keep): the tests that ran them join `blocks`. Why the index
  // cannot answer when such a caller is memoized, ran outside a test, or lies in a file whose content is
  // not the one the index measured.
  std::optional<std::pair<CoverageFallback, std::string>> keepers_elsewhere(size_t at, const FileSemantics& sem,
                                                                            BlockAnswer& blocks) {
    for (uint32_t f : files_that_may_keep(m_facts, m_graph, at, sem)) {
      const SourceFile& file = m_facts.files[f];
      auto text = content_of(m_reads.current(file));
      if (!text) continue; // no code to keep anything
      auto keepers = keeping_callers(m_facts, m_graph, f, file.path.str, sem, *text);
      if (keepers.empty()) continue;
      const KeepingCaller& first = keepers.front();
      std::string sha = util::sha256_hex(*text);
      std::vector<MeasuredFile> versions = m_index.versions(file.path);
      auto measured = std::find_if(versions.begin(), versions.end(), [&](const MeasuredFile& v) { return v.sha256 == sha; });
      if (measured == versions.end() || !measured->measured || !measured->trusted) {
        return std::pair{CoverageFallback::drift, fmt::format("{}: {} may keep what {} computed ({}), and the index holds no "
                                                              "coverage of its content", file.path, first.qualname, first.changed, first.how)};
      }
      for (const auto& k : keepers) {
        if (k.memoized) {
          return std::pair{CoverageFallback::memoized, fmt::format("{}: {} calls {}, and {}: a call that finds its result kept "
                                                                   "runs neither", file.path, k.qualname, k.changed, k.how)};
        }
        auto why = fmt::format("{}: {} may keep what {} computed ({}), and ran outside a test", file.path, k.qualname, k.changed, k.how);
        uint32_t shown = blocks.bodies.empty() ? 1 : blocks.bodies.front().first;
        if (auto outside = add_caller_tests(k.def_line, k.last_line, {}, std::move(why), measured->lines, blocks, shown)) {
          return std::pair{CoverageFallback::outside_tests, std::move(*outside)};
        }
      }
    }
    return std::nullopt;
  }

  // A file the suite never loaded (docs/coverage.md, "Files the suite never loaded"): where the index saw
  // the whole suite and recorded which files its processes loaded, a file measured with no line at all
  // (not even k_loaded_line) at its base content ran in no process of the suite, so no test ran any
  // part of it, module level included; `use` then answers with no test. Not for a test file (pytest
  // collects what it chooses to), nor for a base without code coverage.py records (an empty module
  // records nothing even when imported), nor for a file a symlink of the project stands for.
  bool never_loaded(const ChangedFile& change, std::optional<uint32_t> node, CoverageUse& use) {
    const IndexMeta& meta = m_index.meta();
    if (!meta.whole_suite || !meta.loaded || (node && m_graph.nodes[*node].test)) return false;
    const auto& base = m_base.read(change.old_path);
    if (!base) return false;
    std::string base_sha = util::sha256_hex(*base);
    std::vector<MeasuredFile> versions = m_index.versions(change.path());
    auto match = std::find_if(versions.begin(), versions.end(), [&](const MeasuredFile& v) { return v.sha256 == base_sha; });
    if (match == versions.end() || !match->measured || !match->trusted || !match->lines.empty()) return false;
    for (const auto& f : m_facts.files) {
      if (f.symlink && f.link_target == change.path()) return false;
    }
    if (!runs_code_at_import(*base)) return false;
    m_origins = match->origins;
    uint32_t last = base->ends_with('\n') ? 0 : 1;
    for (char c : *base) last += c == '\n' ? 1 : 0;
    use.bodies.push_back(LineSpan{1, last});
    use.detail = fmt::format("no process of the suite loaded {} when the index was built", change.path().str);
    use.trusted = true;
    return true;
  }

  const CoverageReads& m_reads;
  BaseFiles& m_base;
  const ProjectFacts& m_facts;
  const ImportGraph& m_graph;
  IndexReader& m_index;
  UnchangedTestFiles m_unchanged;
  TestNames m_names;
  std::vector<uint32_t> m_origins;
};

// What differs from one run the index holds: the nodes of the files whose content is not the one
// that run measured (outside the change), and the test files among them.
struct Drift {
  std::vector<uint32_t> drifted;
  std::set<std::string> unmeasured;
  size_t size() const { return drifted.size() + unmeasured.size(); }
};

// Every node that can load one of `seeds` (the seeds included), following imports, conftest.py files
// and plugins backwards; a computed import that can load anything loads them too.
std::vector<bool> loaders_of(const ImportGraph& graph, const std::vector<uint32_t>& seeds) {
  std::vector<bool> seen(graph.nodes.size(), false);
  std::deque<uint32_t> queue;
  auto push = [&](uint32_t n) {
    if (!seen[n]) {
      seen[n] = true;
      queue.push_back(n);
    }
  };
  for (uint32_t s : seeds) push(s);
  if (!seeds.empty()) {
    for (const auto& u : graph.unbounded) push(u.node);
  }
  while (!queue.empty()) {
    uint32_t n = queue.front();
    queue.pop_front();
    for (const auto& [from, edge] : graph.in[n]) push(from);
  }
  return seen;
}

// The node ids pytest would give the tests `view` defines in test file `path`: "path::Class::test".
std::vector<std::string> test_items(const std::string& path, const FactsView& view, const ProjectLayout& layout) {
  std::vector<std::string> out;
  for (size_t i = 0; i < view.symbols.size(); ++i) {
    if (layout.is_test_item(view.symbols, static_cast<int32_t>(i))) {
      out.push_back(test_node_id(path, view.symbols[i].qualname));
    }
  }
  return out;
}

bool recorded(const std::vector<std::string>& ids, const std::string& item) {
  auto it = std::lower_bound(ids.begin(), ids.end(), item);
  if (it != ids.end() && *it == item) return true;
  // A parametrized test is recorded once per parameter set: "item[...]".
  it = std::lower_bound(ids.begin(), ids.end(), item + "[");
  return it != ids.end() && it->starts_with(item + "[");
}

} // namespace

CoverageInput coverage_evidence(const ChangeSet& changes, const std::vector<FileSemantics>& semantics,
                                const ProjectFacts& facts, const ProjectLayout& layout, const ImportGraph& graph,
                                IndexReader& index, const CoverageReads& reads,
                                const std::vector<std::string>& text_doctests) {
  CoverageInput out;
  BaseFiles base_files(reads);
  Evaluator evaluator(reads, base_files, facts, graph, index, text_doctests);
  std::unordered_set<std::string> changed;
  std::vector<uint32_t> trusted;
  std::vector<std::vector<uint32_t>> trusted_origins; // per trusted file: the runs of its version
  for (const auto& change : changes.files) {
    for (const RepoPath* p : {&change.old_path, &change.new_path}) {
      if (!p->empty()) changed.insert(p->str);
    }
    bool is_python = (!change.new_path.empty() && change.new_path.ends_with(".py")) ||
                     (!change.old_path.empty() && change.old_path.ends_with(".py"));
    if (!is_python) continue;
    const FileSemantics* sem = nullptr;
    for (const auto& s : semantics) {
      if (s.path == change.path()) sem = &s;
    }
    out.files.push_back(evaluator.evaluate(change, sem));
    if (out.files.back().trusted) {
      if (auto node = graph.find(change.path().str)) trusted.push_back(*node);
      trusted_origins.push_back(evaluator.origins());
    }
  }
  if (trusted.empty()) return out; // nothing narrows: the static answer stands everywhere

  // The index's line maps say which tests ran a file as the project was when it was built. A test
  // file that differs since, or that can load a Python file that differs since (outside this change,
  // which is judged file by file above), may run the changed lines now without the index knowing:
  // for those the static answer stands. "Since" is from a run that measured the version each trusted
  // file used: a merged index holds several runs, and a version is read against its own run's files,
  // never against another branch's.
  std::unordered_map<std::string, std::vector<IndexedVersion>> measured;
  for (auto& v : index.file_oids()) measured[v.path].push_back(std::move(v));
  auto same_as_indexed = [&](const std::string& path, const std::string& oid, uint32_t origin) {
    auto it = measured.find(path);
    if (it == measured.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const IndexedVersion& v) {
      return v.oid == oid && std::find(v.origins.begin(), v.origins.end(), origin) != v.origins.end();
    });
  };
  auto drift_from = [&](uint32_t origin) {
    Drift found;
    for (const auto& file : facts.files) {
      auto node = graph.find(file.path.view());
      // A link to a file of the repository was measured as that file (coverage.py records the path it
      // resolves to), and its blob id is the content it leads to (changes/symlinks.cpp).
      const std::string& measured_as = file.symlink && !file.link_target.empty() ? file.link_target.str : file.path.str;
      if (!node || same_as_indexed(measured_as, file.oid, origin)) continue;
      if (graph.nodes[*node].test) found.unmeasured.insert(file.path.str);
      if (!changed.contains(file.path.str)) found.drifted.push_back(*node);
    }
    // A changed file is judged by its change above, but only from its base on: what it became between
    // the index and the base is drift like any other.
    for (const auto& change : changes.files) {
      if (change.old_path.empty() || !change.old_path.ends_with(".py")) continue;
      auto node = graph.find(change.old_path.str);
      if (!node) continue;
      const auto& base = base_files.read(change.old_path);
      if (!base || !same_as_indexed(change.old_path.str, util::git_blob_id(*base), origin)) found.drifted.push_back(*node);
    }
    return found;
  };
  // Each trusted file is read against the run of its version that differs least from the project now;
  // what differs from any of those runs gets the static answer.
  std::map<uint32_t, Drift> by_origin;
  std::set<std::string> unmeasured;
  std::vector<uint32_t> drifted;
  std::set<uint32_t> used;
  for (const auto& runs : trusted_origins) {
    const Drift* best = nullptr;
    uint32_t best_origin = 0;
    for (uint32_t o : runs) {
      auto it = by_origin.find(o);
      if (it == by_origin.end()) it = by_origin.emplace(o, drift_from(o)).first;
      if (best == nullptr || it->second.size() < best->size()) {
        best = &it->second;
        best_origin = o;
      }
    }
    if (best == nullptr || !used.insert(best_origin).second) continue;
    unmeasured.insert(best->unmeasured.begin(), best->unmeasured.end());
    drifted.insert(drifted.end(), best->drifted.begin(), best->drifted.end());
  }
  std::vector<bool> affected = loaders_of(graph, drifted);
  // Tests that did not run when the index was built (skipped, deselected, stopped by -x, or added to
  // an unchanged file by a merge) left no coverage: they get the static answer too (the file's other
  // tests are as the index saw them).
  std::vector<bool> reach = loaders_of(graph, trusted);
  FactsView view;
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    const GraphNode& node = graph.nodes[n];
    if (!node.test || node.ghost || unmeasured.contains(node.path.str)) continue;
    if (affected[n]) {
      unmeasured.insert(node.path.str);
      continue;
    }
    if (!reach[n]) continue;
    size_t at = facts.find(node.path.str);
    if (at == ProjectFacts::npos) continue;
    facts.view(at, view);
    std::vector<std::string> ids = index.tests_in(node.path);
    std::vector<std::string> missing;
    for (auto& item : test_items(node.path.str, view, layout)) {
      if (!recorded(ids, item)) missing.push_back(std::move(item));
    }
    if (!missing.empty()) {
      std::sort(missing.begin(), missing.end());
      out.unrecorded_tests.emplace(node.path.str, std::move(missing));
    }
  }
  out.unmeasured_tests.assign(unmeasured.begin(), unmeasured.end());
  return out;
}

} // namespace impact
