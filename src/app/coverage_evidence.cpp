#include "app/coverage_evidence.hpp"

#include "util/sha256.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace impact::app {

namespace {

// Whether node id `id` still names a test: its file is a test file and its function still exists.
bool test_exists(const std::string& id, const ProjectFacts& facts, const ImportGraph& graph) {
  std::string file = id.substr(0, id.find("::"));
  auto node = graph.find(file);
  if (!node || !graph.nodes[*node].test) return false;
  if (id.find("::") == std::string::npos) return true;
  std::string qual = id.substr(id.find("::") + 2);
  qual = qual.substr(0, qual.find('['));
  std::string dotted;
  for (size_t i = 0; i < qual.size(); ++i) {
    if (qual.compare(i, 2, "::") == 0) {
      dotted.push_back('.');
      ++i;
    } else {
      dotted.push_back(qual[i]);
    }
  }
  qual = std::move(dotted);
  size_t index = facts.find(file);
  if (index == ProjectFacts::npos) return false;
  FactsView view;
  facts.view(index, view);
  return std::any_of(view.symbols.begin(), view.symbols.end(), [&](const SymbolView& s) { return s.qualname == qual; });
}

CoverageUse evaluate(Repository& repo, const ChangeSet& changes, const ChangedFile& change, const FileSemantics* sem,
                     const ProjectFacts& facts, const ImportGraph& graph, IndexReader& index) {
  CoverageUse use;
  use.path = change.path();
  auto fallback = [&](std::string why, std::string detail) {
    use.fallback = std::move(why);
    use.detail = std::move(detail);
    return use;
  };
  if (change.status != FileStatus::modified) {
    return fallback(std::string(to_string(change.status)), fmt::format("{} is {}", change.path(), to_string(change.status)));
  }
  if (change.untracked) return fallback("untracked", fmt::format("{} is untracked", change.path()));
  if (sem == nullptr || sem->runs_at_import || sem->kind == ChangeKind::unclassifiable ||
      sem->kind == ChangeKind::comment_only || sem->kind == ChangeKind::formatting_only) {
    return fallback("not_implementation", fmt::format("{}: {} change", change.path(),
                                                      sem == nullptr ? "unknown" : std::string(to_string(sem->kind))));
  }
  for (const auto& s : sem->symbols) {
    if (s.change != ChangeKind::implementation) {
      return fallback("not_implementation", fmt::format("{}: {} of {}", change.path(), to_string(s.change), s.qualname));
    }
  }
  auto measured = index.file(change.path());
  if (!measured) return fallback("not_indexed", fmt::format("{} was never measured by the index", change.path()));
  auto base = repo.read_base(changes, change.old_path.empty() ? change.path() : change.old_path);
  if (!base || util::sha256_hex(*base) != measured->sha256) {
    return fallback("drift", fmt::format("{} changed since the index was built", change.path()));
  }
  for (const auto& h : change.hunks) {
    if (h.old_count == 0) {
      return fallback("insertion", fmt::format("{}: lines inserted after line {} have no recorded coverage",
                                               change.path(), h.old_start));
    }
  }
  std::vector<uint32_t> starts = statement_starts(*base);
  std::map<uint32_t, uint32_t> tests; // test id -> the first line whose coverage names it
  for (const auto& h : change.hunks) {
    for (uint32_t line = h.old_start; line < h.old_start + h.old_count; ++line) {
      std::set<uint32_t> statements{line};
      if (line < starts.size() && starts[line] != 0) statements.insert(starts[line]);
      for (uint32_t s : statements) {
        auto it = measured->lines.find(s);
        if (it == measured->lines.end()) continue;
        for (uint32_t t : it->second) {
          if (t == k_import_time) {
            return fallback("import_time", fmt::format("{}:{} runs when the module is imported", change.path(), s));
          }
          tests.emplace(t, line);
        }
      }
    }
  }
  for (const auto& [id, line] : tests) {
    std::string name = index.test_name(id);
    if (name.empty() || !test_exists(name, facts, graph)) {
      return fallback("tests_missing", fmt::format("{}: the recorded test {} no longer exists", change.path(),
                                                   name.empty() ? std::to_string(id) : name));
    }
    use.tests.emplace_back(std::move(name), line);
  }
  use.trusted = true;
  return use;
}

} // namespace

CoverageInput coverage_evidence(Repository& repo, const ChangeSet& changes, const std::vector<FileSemantics>& semantics,
                                const ProjectFacts& facts, const ImportGraph& graph, IndexReader& index) {
  CoverageInput out;
  for (const auto& change : changes.files) {
    bool python = (!change.new_path.empty() && change.new_path.ends_with(".py")) ||
                  (!change.old_path.empty() && change.old_path.ends_with(".py"));
    if (!python) continue;
    const FileSemantics* sem = nullptr;
    for (const auto& s : semantics) {
      if (s.path == change.path()) sem = &s;
    }
    out.files.push_back(evaluate(repo, changes, change, sem, facts, graph, index));
  }
  // Test files whose content is not what was measured: the index cannot speak for them.
  std::unordered_map<std::string, std::string> measured;
  for (auto& [path, oid] : index.file_oids()) measured.emplace(std::move(path), std::move(oid));
  for (size_t i = 0; i < facts.size(); ++i) {
    auto node = graph.find(facts.files[i].path.view());
    if (!node || !graph.nodes[*node].test) continue;
    auto it = measured.find(facts.files[i].path.str);
    if (it == measured.end() || it->second != facts.files[i].oid) out.unmeasured_tests.push_back(facts.files[i].path.str);
  }
  return out;
}

} // namespace impact::app
