// Rules `config-files`, `config-sections`, `dependency-pins`, `quiet-files`, `file-readers` and
// `non-python` of docs/selection.md: what a changed file that is not Python does to the decision.
#include "decision/rules/non_python.hpp"

#include "decision/relation.hpp"
#include "decision/rules/file_readers.hpp"
#include "decision/walk.hpp"
#include "impact/config_sections.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace impact::decision {

namespace {

NonPythonEffect run_all(Reason reason, FileKind kind, std::string detail) {
  NonPythonEffect e;
  e.what = NonPythonEffect::What::run_all;
  e.reason = reason;
  e.kind = kind;
  e.detail = std::move(detail);
  return e;
}

NonPythonEffect quiet(FileKind kind, std::string effect) {
  NonPythonEffect e;
  e.what = NonPythonEffect::What::quiet;
  e.kind = kind;
  e.effect = std::move(effect);
  return e;
}

// The verdict's kind of a quiet file (the same word).
FileKind file_kind_of(QuietKind kind) {
  switch (kind) {
  case QuietKind::documentation: return FileKind::documentation;
  case QuietKind::tooling: return FileKind::tooling;
  case QuietKind::lint: return FileKind::lint;
  }
  return FileKind::documentation;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < 4; ++i) out += (i > 0 ? ", " : "") + ("[" + items[i] + "]");
  if (items.size() > 4) out += fmt::format(" and {} more", items.size() - 4);
  return out;
}

} // namespace

// Every Python file's path strings, and whether any file defines a pytest_collect_file hook: read
// once, on the first changed file that needs them.
struct NonPythonRules::Tables {
  struct FileReads {
    uint32_t node = 0;
    PathStrings paths;
  };
  std::vector<FileReads> reads;
  std::string collect_hook; // the first file that defines pytest_collect_file, or ""
  bool linters = false;
  bool documentation = false;
};

std::vector<std::pair<uint32_t, std::vector<Hop>>> reached_from_readers(const ImportGraph& graph,
                                                                        const std::vector<ReaderSeed>& seeds) {
  std::vector<std::pair<uint32_t, std::vector<Hop>>> out;
  if (seeds.empty()) return out;
  ReverseWalk walk(graph);
  std::unordered_map<uint32_t, const ReaderSeed*> by_node;
  for (const auto& s : seeds) {
    if (by_node.emplace(s.reader.node, &s).second) walk.seed(s.reader.node, s.reader.relation);
  }
  walk.run();
  for (uint32_t node : walk.order()) {
    auto chain = walk.chain(node); // it ends at the reader that reached it
    if (auto last = graph.find(chain.back().path)) {
      if (auto seed = by_node.find(*last); seed != by_node.end()) {
        chain.back().line = seed->second->reader.line;
        chain.push_back(seed->second->origin);
      }
    }
    out.emplace_back(node, std::move(chain));
  }
  return out;
}

NonPythonRules::NonPythonRules(const DecisionInput& in) : m_in(in) {}
NonPythonRules::~NonPythonRules() = default;

const ProjectFacts* NonPythonRules::facts() const {
  return m_in.facts != nullptr ? m_in.facts : m_in.non_python.facts;
}

NonPythonRules::Tables& NonPythonRules::tables() {
  if (m_tables) return *m_tables;
  m_tables = std::make_unique<Tables>();
  Tables& t = *m_tables;
  for (const auto& arg : m_in.non_python.pytest_args) {
    t.linters = t.linters || runs_linters(arg);
    t.documentation = t.documentation || collects_documentation(arg);
  }
  const ProjectFacts* all = facts();
  if (all == nullptr) return t;
  const ProjectFacts& facts = *all;
  FactsView view;
  for (size_t i = 0; i < facts.size(); ++i) {
    const SourceFile& file = facts.files[i];
    if (auto node = m_in.graph.find(file.path.str)) t.reads.push_back({*node, facts.paths(i)});
    if (!t.collect_hook.empty()) continue;
    facts.view(i, view);
    bool hook = std::find(view.module_names.begin(), view.module_names.end(), "pytest_collect_file") !=
                view.module_names.end();
    for (const auto& s : view.symbols) hook = hook || (s.parent < 0 && s.qualname == "pytest_collect_file");
    if (hook) t.collect_hook = file.path.str;
  }
  return t;
}

NonPythonVerdict NonPythonRules::judge(const std::vector<const RepoPath*>& sides, bool mixed, const RepoPath& path,
                                       FileStatus status) {
  NonPythonVerdict out;
  std::vector<Reader> readers;
  for (const RepoPath* side : sides) {
    bool config = is_config_file(*side);
    if (side->ends_with(".py") && !config) continue;
    NonPythonEffect e = mixed ? run_all(config ? Reason::config_changed : Reason::non_python_changed, config ? FileKind::config : FileKind::non_python,
                                        fmt::format("{} changed", *side))
                              : effect(*side);
    out.kind = e.kind;
    out.warnings.insert(out.warnings.end(), e.warnings.begin(), e.warnings.end());
    if (e.what == NonPythonEffect::What::run_all) {
      out.effect = fmt::format("run_all: {}", to_string(e.reason));
      out.trigger.emplace(e.reason, e.detail);
      return out;
    }
    if (e.what == NonPythonEffect::What::quiet) out.effect = e.effect;
    readers.insert(readers.end(), e.readers.begin(), e.readers.end());
  }
  if (readers.empty()) {
    out.quiet = true;
    return out;
  }
  out.effect = fmt::format("read by {} file(s) of code: the test files that load them run whole", readers.size());
  for (const auto& r : readers) out.readers.push_back(ReaderSeed{r, Hop{path.str, relation_of(status), 0, {}}});
  return out;
}

NonPythonEffect NonPythonRules::effect(const RepoPath& path) {
  if (sectioned_config(path)) return config_file(path);
  if (pin_file_kind(path) != PinFile::none) {
    const auto& pins = m_in.non_python.pins;
    auto it = std::find_if(pins.begin(), pins.end(), [&](const PinChange& p) { return p.path == path; });
    return pin_file(path, it == pins.end() ? nullptr : &*it);
  }
  if (is_config_file(path)) return run_all(Reason::config_changed, FileKind::config, fmt::format("{} changed", path));
  return quiet_file(path);
}

// Rule `config-sections`: only lint sections, comments or dependency lists may have changed.
NonPythonEffect NonPythonRules::config_file(const RepoPath& path) {
  std::string changed = fmt::format("{} changed", path);
  if (m_in.mode == Mode::safe) return run_all(Reason::config_changed, FileKind::config, changed);
  const auto& all = m_in.non_python.sections;
  auto it = std::find_if(all.begin(), all.end(), [&](const ConfigSections& s) { return s.path == path; });
  if (it == all.end() || !it->sections) {
    return run_all(Reason::config_changed, FileKind::config, it == all.end() ? changed : changed + " (it cannot be parsed)");
  }
  bool linters = tables().linters;
  bool pins = false;
  std::vector<std::string> lint, other;
  for (const auto& s : *it->sections) {
    if (path.filename() == "pyproject.toml" && dependency_section(s)) pins = true;
    else if (lint_section(s) && !linters) lint.push_back(s);
    else other.push_back(s);
  }
  if (!other.empty()) return run_all(Reason::config_changed, FileKind::config, fmt::format("{}: {}", changed, joined(other)));
  if (pins) {
    const auto& list = m_in.non_python.pins;
    auto pin = std::find_if(list.begin(), list.end(), [&](const PinChange& p) { return p.path == path; });
    return pin_file(path, pin == list.end() ? nullptr : &*pin);
  }
  if (lint.empty()) return quiet(FileKind::config, "nothing: only comments or layout changed");
  return quiet(FileKind::config, fmt::format("nothing: only lint and format sections changed ({})", joined(lint)));
}

// Rule `dependency-pins`: the files that import what moved.
NonPythonEffect NonPythonRules::pin_file(const RepoPath& path, const PinChange* change) {
  std::string changed = fmt::format("{} changed", path);
  if (m_in.mode == Mode::safe || change == nullptr) return run_all(Reason::config_changed, FileKind::pins, changed);
  PinAnswer answer = pinned_modules({*change}, m_in.non_python.environment, m_in.mode == Mode::fast);
  if (!answer.run_all.empty()) return run_all(Reason::config_changed, FileKind::pins, answer.run_all);
  NonPythonEffect e;
  e.what = NonPythonEffect::What::readers;
  e.kind = FileKind::pins;
  e.warnings = std::move(answer.warnings);
  if (facts() == nullptr) return run_all(Reason::config_changed, FileKind::pins, changed);
  const ProjectFacts& facts = *this->facts();
  ImportScratch scratch;
  std::vector<bool> group_imported(answer.groups.size(), false);
  for (size_t i = 0; i < facts.size(); ++i) {
    facts.imports(i, scratch);
    auto node = m_in.graph.find(facts.files[i].path.str);
    for (const auto& imp : scratch.imports) {
      if (imp.level != 0) continue;
      std::string_view top = imp.module.substr(0, imp.module.find('.'));
      bool hit = false;
      for (size_t g = 0; g < answer.groups.size(); ++g) {
        if (answer.groups[g].modules.find(std::string(top)) == answer.groups[g].modules.end()) continue;
        group_imported[g] = true;
        hit = true;
      }
      if (hit && node) {
        e.readers.push_back(Reader{*node, Relation::imports_distribution, imp.line});
        break;
      }
    }
  }
  for (size_t g = 0; g < answer.groups.size(); ++g) {
    if (group_imported[g]) continue;
    std::string why = fmt::format("{}: no file of the repository imports {} or what depends on it (it may be a "
                                  "tool run as a program, or reached in a way no import shows)",
                                  path, answer.groups[g].distribution);
    if (m_in.mode != Mode::fast) return run_all(Reason::config_changed, FileKind::pins, why);
    e.warnings.push_back(why + "; fast mode selects nothing for it");
  }
  if (e.readers.empty()) {
    NonPythonEffect q = quiet(FileKind::pins, "nothing: no file imports what moved");
    q.warnings = std::move(e.warnings);
    return q;
  }
  return e;
}

// Rules `quiet-files` and `file-readers`, else `non-python`.
NonPythonEffect NonPythonRules::quiet_file(const RepoPath& path) {
  std::string changed = fmt::format("{} changed", path);
  auto kind = quiet_kind(path);
  if (!kind || m_in.mode == Mode::safe) return run_all(Reason::non_python_changed, FileKind::non_python, changed);
  FileKind name = file_kind_of(*kind);
  if (facts() == nullptr) return run_all(Reason::non_python_changed, name, changed); // no reader can be ruled out
  Tables& t = tables();
  if (!t.collect_hook.empty()) {
    return run_all(Reason::non_python_changed, name,
                   fmt::format("{}: {} defines pytest_collect_file, which may collect it as a test", changed,
                               t.collect_hook));
  }
  if (*kind == QuietKind::lint && t.linters) {
    return run_all(Reason::non_python_changed, name, fmt::format("{}: pytest runs a linter that reads it", changed));
  }
  if (*kind == QuietKind::documentation && t.documentation) {
    return run_all(Reason::non_python_changed, name,
                   fmt::format("{}: a pytest plugin collects documentation as tests", changed));
  }
  // The text files pytest collects for their examples (--doctest-glob, at every level of analysis).
  for (const auto& doc : m_in.text_doctests) {
    if (doc.path == path) return run_all(Reason::non_python_changed, name, fmt::format("{}: pytest collects it (--doctest-glob)", changed));
  }
  for (const auto& file : m_in.non_python.packaging_files) {
    if (file == path.str || util::glob_match(file, path.str)) {
      return run_all(Reason::non_python_changed, name,
                     fmt::format("{}: it is packaging metadata (pyproject.toml [project] names it)", changed));
    }
  }
  NonPythonEffect e;
  e.what = NonPythonEffect::What::readers;
  e.kind = name;
  for (const auto& r : t.reads) {
    if (r.paths.reads_anything) {
      e.readers.push_back(Reader{r.node, Relation::reads_file, 0});
      continue;
    }
    auto hit = std::find_if(r.paths.strings.begin(), r.paths.strings.end(),
                            [&](const auto& s) { return could_name(s.first, path); });
    if (hit != r.paths.strings.end()) e.readers.push_back(Reader{r.node, Relation::reads_file, hit->second});
    else if (r.paths.listing_line != 0) e.readers.push_back(Reader{r.node, Relation::lists_folder, r.paths.listing_line});
  }
  if (e.readers.empty()) return quiet(name, fmt::format("nothing: {} that no code reads", to_string(name)));
  return e;
}

} // namespace impact::decision

namespace impact {

bool non_python_reads_facts(const RepoPath& path) {
  if (path.empty() || path.ends_with(".py")) return false;
  return quiet_kind(path).has_value() || pin_file_kind(path) != PinFile::none || sectioned_config(path);
}

} // namespace impact
