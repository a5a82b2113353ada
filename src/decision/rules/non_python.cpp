// Rules `config-files`, `config-sections`, `dependency-pins`, `quiet-files`, `file-readers` and
// `non-python` of docs/selection.md: what a changed file that is not Python does to the decision.
#include "decision/rules/non_python.hpp"

#include "decision/decide_parts.hpp"
#include "decision/relation.hpp"
#include "decision/rules/data_files.hpp"
#include "decision/rules/declared.hpp"
#include "decision/rules/file_readers.hpp"
#include "decision/rules/module_files.hpp"
#include "decision/walk.hpp"
#include "impact/config_sections.hpp"
#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"
#include "util/ascii.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace impact::decision {

namespace {

bool under(std::string_view module, std::string_view top) {
  return module == top || (module.starts_with(top) && module.size() > top.size() && module[top.size()] == '.');
}

bool imports_django_module(const ImportView& imp, const ImportScratch&) { return under(imp.module, "django"); }

bool imports_metadata_reader(const ImportView& imp, const ImportScratch& scratch) {
  if (imp.module == "importlib") { // from importlib import metadata
    auto names = scratch.names.begin();
    return std::find(names + static_cast<std::ptrdiff_t>(imp.names_begin), names + static_cast<std::ptrdiff_t>(imp.names_end),
                     "metadata") != names + static_cast<std::ptrdiff_t>(imp.names_end);
  }
  return under(imp.module, "importlib.metadata") || under(imp.module, "importlib_metadata") ||
         under(imp.module, "pkg_resources");
}

// [project] keys that describe the package on an index (PyPI) and nothing else.
bool index_metadata_key(std::string_view section) {
  for (std::string_view key : {"classifiers", "keywords", "urls", "authors", "maintainers", "description"}) {
    if (section.starts_with("project.") && section.substr(8) == key) return true;
  }
  return false;
}


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
  std::optional<std::string> collect_hook; // the first file that defines pytest_collect_file, or "" (read on first use)
  bool linters = false;
  bool documentation = false;
  std::optional<bool> django; // some file imports django (read on first use)
  std::optional<bool> metadata; // some file imports a reader of installed metadata (read on first use)
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
        chain.insert(chain.end(), seed->second->tail.begin(), seed->second->tail.end());
      }
    }
    out.emplace_back(node, std::move(chain));
  }
  return out;
}

NonPythonRules::NonPythonRules(const DecisionInput& in) : m_in(in) {}
NonPythonRules::~NonPythonRules() = default;

const ProjectFacts* NonPythonRules::facts() const {
  return facts_read(m_in);
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
  for (size_t i = 0; i < facts.size(); ++i) {
    if (!facts.header(i).has_path_strings) continue; // names no file: not decoded
    PathStrings paths = facts.paths(i);
    if (auto node = m_in.graph.find(facts.files[i].path.str)) t.reads.push_back({*node, std::move(paths)});
  }
  return t;
}

// Decodes every file's symbols until one defines the hook: asked only for a changed file that is not
// Python (a Python change asks tables() for the readers of its source).
const std::string& NonPythonRules::collect_hook() {
  Tables& t = tables();
  if (t.collect_hook) return *t.collect_hook;
  t.collect_hook.emplace();
  const ProjectFacts* all = facts();
  FactsView view;
  for (size_t i = 0; all != nullptr && i < all->size(); ++i) {
    all->view(i, view);
    bool hook = std::find(view.module_names.begin(), view.module_names.end(), "pytest_collect_file") !=
                view.module_names.end();
    for (const auto& s : view.symbols) hook = hook || (s.parent < 0 && s.qualname == "pytest_collect_file");
    if (hook) {
      *t.collect_hook = all->files[i].path.str;
      break;
    }
  }
  return *t.collect_hook;
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
                              : effect(*side, status);
    // A file no rule bounds, which a trigger with a list of tests bounds instead (rule `triggers`).
    if (!mixed && e.what == NonPythonEffect::What::run_all && e.reason == Reason::non_python_changed &&
        m_in.mode != Mode::safe) {
      if (const TriggerRule* rule = bounding_trigger(m_in.graph, m_in.triggers, *side)) {
        e = quiet(e.kind, fmt::format("the tests [tool.impact] {} names", rule->name));
      }
    }
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
  for (const auto& r : readers) {
    ReaderSeed seed{r, r.via};
    seed.tail.push_back(Hop{path.str, relation_of(status), 0, {}});
    out.readers.push_back(std::move(seed));
  }
  return out;
}

void NonPythonRules::python_readers(const RepoPath& path, FileStatus status, std::vector<ReaderSeed>& out) {
  for (auto&& seeds : {source_readers(path, status), executed_text_readers(path, status), template_readers(path, status)}) {
    out.insert(out.end(), seeds.begin(), seeds.end());
  }
}

std::vector<ReaderSeed> NonPythonRules::source_readers(const RepoPath& path, FileStatus status) {
  std::vector<ReaderSeed> out;
  if (facts() == nullptr) return out;
  auto changed = m_in.graph.find(path.str);
  for (const auto& r : tables().reads) {
    if (changed && r.node == *changed) continue;
    const GraphNode& n = m_in.graph.nodes[r.node];
    bool scans = n.test || n.conftest;
    auto hit = std::find_if(r.paths.strings.begin(), r.paths.strings.end(),
                            [&](const auto& s) { return could_name_source(s.first, path, scans, r.paths.listing_line != 0); });
    if (hit == r.paths.strings.end()) continue;
    ReaderSeed seed{Reader{r.node, Relation::reads_file, hit->second, {}}, {}};
    seed.tail.push_back(Hop{path.str, relation_of(status), 0, {}});
    out.push_back(std::move(seed));
  }
  // And code that finds the module's file through the module object (`Path(kernels.__file__)`).
  if (!changed) return out;
  for (const auto& found : module_file_readers(*facts(), m_in.graph, *changed)) {
    uint32_t reader = found.first; // a name of its own: clang 14 cannot capture a structured binding
    if (std::any_of(out.begin(), out.end(), [&](const ReaderSeed& s) { return s.reader.node == reader; })) continue;
    ReaderSeed seed{Reader{reader, Relation::reads_file, found.second, {}}, {}};
    seed.tail.push_back(Hop{path.str, relation_of(status), 0, {}});
    out.push_back(std::move(seed));
  }
  return out;
}

std::vector<ReaderSeed> NonPythonRules::executed_text_readers(const RepoPath& path, FileStatus status) {
  std::vector<ReaderSeed> out;
  auto changed = m_in.graph.find(path.str);
  if (!changed || m_in.non_python.executed.empty()) return out;
  // What loading the text's imports may load: every file the changed one is loaded through.
  ReverseWalk walk(m_in.graph);
  walk.seed(*changed, relation_of(status));
  walk.run();
  for (const auto& e : m_in.non_python.executed) {
    auto reader = m_in.graph.find(e.reader.str);
    if (!reader || *reader == *changed) continue;
    std::optional<std::pair<uint32_t, uint32_t>> hit; // (module node, text line)
    for (const auto& [module, line] : e.modules) {
      // `import a.b` runs a/__init__.py too: every dotted prefix of what the text imports is loaded.
      for (std::string_view name = module; !name.empty() && !hit;) {
        for (uint32_t node : m_in.graph.modules_named(name)) {
          if (walk.reached(node)) hit.emplace(node, line);
        }
        auto dot = name.rfind('.');
        name = dot == std::string_view::npos ? std::string_view() : name.substr(0, dot);
      }
      if (hit) break;
    }
    if (!hit) continue;
    ReaderSeed seed{Reader{*reader, Relation::reads_file, e.line, {}}, {}};
    seed.tail.push_back(Hop{e.text.str, Relation::executed_import, hit->second, {}});
    auto chain = walk.chain(hit->first); // from the imported module to the changed file
    seed.tail.insert(seed.tail.end(), chain.begin(), chain.end());
    out.push_back(std::move(seed));
  }
  return out;
}

std::vector<ReaderSeed> NonPythonRules::template_readers(const RepoPath& path, FileStatus status) {
  std::vector<ReaderSeed> out;
  if (facts() == nullptr) return out;
  for (const auto& t : m_in.non_python.template_reads) {
    if (t.changed != path) continue;
    for (const auto& r : tables().reads) {
      auto hit = std::find_if(r.paths.strings.begin(), r.paths.strings.end(),
                              [&](const auto& s) { return could_name_data(s.first, t.text); });
      if (hit == r.paths.strings.end()) continue;
      ReaderSeed seed{Reader{r.node, Relation::reads_file, hit->second, {}}, {}};
      seed.tail.push_back(Hop{t.text.str, Relation::template_field, t.line, {}});
      seed.tail.push_back(Hop{path.str, relation_of(status), 0, {}});
      out.push_back(std::move(seed));
    }
  }
  return out;
}

NonPythonEffect NonPythonRules::effect(const RepoPath& path, FileStatus status) {
  if (sectioned_config(path)) return config_file(path);
  if (pin_file_kind(path) != PinFile::none) {
    const auto& pins = m_in.non_python.pins;
    auto it = std::find_if(pins.begin(), pins.end(), [&](const PinChange& p) { return p.path == path; });
    return pin_file(path, it == pins.end() ? nullptr : &*it);
  }
  if (is_config_file(path)) return run_all(Reason::config_changed, FileKind::config, fmt::format("{} changed", path));
  return quiet_file(path, status);
}

// Rule `config-sections`, and `file-readers` for what it leaves: a section no tool of the test run reads
// may still be read by the project's own code or tests (a fixture reading `[tool.ruff]`, a test of the
// classifiers): those readers are selected as for any file they read.
NonPythonEffect NonPythonRules::config_file(const RepoPath& path) {
  NonPythonEffect e = config_sections(path);
  if (e.what == NonPythonEffect::What::run_all || facts() == nullptr) return e;
  std::vector<Reader> readers = text_readers(path);
  // pytest's own configuration file, read through pytest: `pytestconfig.inipath`, `config.inifile`.
  for (std::string_view name : {"inipath", "inifile"}) {
    for (uint32_t i : facts()->files_mentioning(name)) {
      if (auto node = m_in.graph.find(facts()->files[i].path.str)) readers.push_back(Reader{*node, Relation::reads_file, 0, {}});
    }
  }
  if (readers.empty()) return e;
  if (e.what == NonPythonEffect::What::quiet) {
    e.what = NonPythonEffect::What::readers;
    e.effect.clear();
  }
  e.readers.insert(e.readers.end(), readers.begin(), readers.end());
  return e;
}

// The code files whose strings could name `path` (or that read files they cannot be shown not to).
std::vector<Reader> NonPythonRules::text_readers(const RepoPath& path) {
  std::vector<Reader> out;
  for (const auto& r : tables().reads) {
    if (r.paths.reads_anything) {
      out.push_back(Reader{r.node, Relation::reads_file, 0, {}});
      continue;
    }
    auto hit = std::find_if(r.paths.strings.begin(), r.paths.strings.end(),
                            [&](const auto& s) { return could_name(s.first, path); });
    if (hit != r.paths.strings.end()) out.push_back(Reader{r.node, Relation::reads_file, hit->second, {}});
    else if (r.paths.listing_line != 0) out.push_back(Reader{r.node, Relation::lists_folder, r.paths.listing_line, {}});
  }
  return out;
}

// Rule `config-sections`: only lint sections, comments or dependency lists may have changed.
NonPythonEffect NonPythonRules::config_sections(const RepoPath& path) {
  std::string changed = fmt::format("{} changed", path);
  if (m_in.mode == Mode::safe) return run_all(Reason::config_changed, FileKind::config, changed);
  const auto& all = m_in.non_python.sections;
  auto it = std::find_if(all.begin(), all.end(), [&](const ConfigSections& s) { return s.path == path; });
  if (it == all.end() || !it->sections) {
    return run_all(Reason::config_changed, FileKind::config, it == all.end() ? changed : changed + " (it cannot be parsed)");
  }
  bool linters = tables().linters;
  bool pins = false;
  std::vector<std::string> lint, tox, metadata, other;
  const auto& no_tests = it->runs_no_tests;
  for (const auto& s : *it->sections) {
    if (path.filename() == "pyproject.toml" && dependency_section(s)) pins = true;
    else if (lint_section(s) && !linters) lint.push_back(s);
    else if (std::find(no_tests.begin(), no_tests.end(), s) != no_tests.end()) tox.push_back(s);
    else if (path.filename() == "pyproject.toml" && index_metadata_key(s)) metadata.push_back(s);
    else other.push_back(s);
  }
  // Keys only a package index shows: a test sees them only through the installed metadata.
  if (!metadata.empty() && facts() != nullptr && !reads_metadata()) {
    lint.insert(lint.end(), metadata.begin(), metadata.end());
  } else {
    other.insert(other.end(), metadata.begin(), metadata.end());
  }
  if (!other.empty()) return run_all(Reason::config_changed, FileKind::config, fmt::format("{}: {}", changed, joined(other)));
  if (pins) {
    const auto& list = m_in.non_python.pins;
    auto pin = std::find_if(list.begin(), list.end(), [&](const PinChange& p) { return p.path == path; });
    return pin_file(path, pin == list.end() ? nullptr : &*pin);
  }
  if (lint.empty() && tox.empty()) return quiet(FileKind::config, "nothing: only comments or layout changed");
  if (tox.empty() && metadata.empty()) {
    return quiet(FileKind::config, fmt::format("nothing: only lint and format sections changed ({})", joined(lint)));
  }
  lint.insert(lint.end(), tox.begin(), tox.end());
  return quiet(FileKind::config, fmt::format("nothing: only lint and format sections, package index metadata and "
                                             "tox environments that run no tests changed ({})",
                                             joined(lint)));
}

// Rule `dependency-pins`: the files that import what moved.
NonPythonEffect NonPythonRules::pin_file(const RepoPath& path, const PinChange* change) {
  std::string changed = fmt::format("{} changed", path);
  if (m_in.mode == Mode::safe || change == nullptr) return run_all(Reason::config_changed, FileKind::pins, changed);
  PinAnswer answer = pinned_modules({*change}, m_in.non_python.environment, m_in.mode == Mode::fast);
  if (!answer.run_all.empty()) return run_all(Reason::config_changed, FileKind::pins, answer.run_all);
  if (facts() == nullptr) return run_all(Reason::config_changed, FileKind::pins, changed);
  return importers(path, std::move(answer), m_in.mode != Mode::fast);
}

// The files that import a module of each group's distributions. A group no file imports runs
// everything when `unimported_runs_all` (a pin: the distribution may be a tool run as a program), else
// it is left with a warning.
NonPythonEffect NonPythonRules::importers(const RepoPath& path, PinAnswer answer, bool unimported_runs_all) {
  NonPythonEffect e;
  e.what = NonPythonEffect::What::readers;
  e.kind = FileKind::pins;
  e.warnings = std::move(answer.warnings);
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
        e.readers.push_back(Reader{*node, Relation::imports_distribution, imp.line, {}});
        break;
      }
    }
  }
  for (size_t g = 0; g < answer.groups.size(); ++g) {
    if (group_imported[g]) continue;
    std::string why = fmt::format("{}: no file of the repository imports {} or what depends on it (it may be a "
                                  "tool run as a program, or reached in a way no import shows)",
                                  path, answer.groups[g].distribution);
    if (unimported_runs_all) return run_all(Reason::config_changed, FileKind::pins, why);
    if (m_in.mode == Mode::fast) e.warnings.push_back(why + "; fast mode selects nothing for it");
  }
  if (e.readers.empty()) {
    NonPythonEffect q = quiet(FileKind::pins, "nothing: no file imports what moved");
    q.warnings = std::move(e.warnings);
    return q;
  }
  return e;
}

// What makes any reader of a quiet or data file beside the point: pytest itself collects or reads it.
std::optional<std::string> NonPythonRules::unbounded_reason(const RepoPath& path, FileKind kind) {
  Tables& t = tables();
  if (const std::string& hook = collect_hook(); !hook.empty()) {
    return fmt::format("{} defines pytest_collect_file, which may collect it as a test", hook);
  }
  if (kind == FileKind::lint && t.linters) return std::string("pytest runs a linter that reads it");
  if (kind != FileKind::tooling && kind != FileKind::lint && t.documentation) {
    return std::string("a pytest plugin collects documentation as tests");
  }
  // The text files pytest collects for their examples (--doctest-glob, at every level of analysis).
  for (const auto& doc : m_in.text_doctests) {
    if (doc.path == path) return std::string("pytest collects it (--doctest-glob)");
  }
  for (const auto& file : m_in.non_python.packaging_files) {
    if (file == path.str || util::glob_match(file, path.str)) {
      return std::string("it is packaging metadata (pyproject.toml [project] names it)");
    }
  }
  return std::nullopt;
}

// Rules `quiet-files` and `file-readers`, else `data-files`.
NonPythonEffect NonPythonRules::quiet_file(const RepoPath& path, FileStatus status) {
  std::string changed = fmt::format("{} changed", path);
  if (m_in.mode == Mode::safe) return run_all(Reason::non_python_changed, FileKind::non_python, changed);
  auto kind = quiet_kind(path);
  if (!kind) return data_file(path);
  FileKind name = file_kind_of(*kind);
  if (facts() == nullptr) return run_all(Reason::non_python_changed, name, changed); // no reader can be ruled out
  // A *.egg-info folder the repository tracks is the metadata of a develop install, which
  // importlib.metadata finds on sys.path (version, entry points, requirements). One that appears is
  // what an install just wrote from the project's configuration, whose change is decided as such.
  if (status != FileStatus::added && in_egg_info(ascii_lower(path.view())) && reads_metadata()) {
    return run_all(Reason::non_python_changed, FileKind::non_python,
                   changed + ": it is installed metadata (*.egg-info), and the project reads installed metadata");
  }
  if (auto why = unbounded_reason(path, name)) return run_all(Reason::non_python_changed, name, changed + ": " + *why);
  NonPythonEffect e;
  e.what = NonPythonEffect::What::readers;
  e.kind = name;
  e.readers = text_readers(path);
  if (e.readers.empty()) return quiet(name, fmt::format("nothing: {} that no code reads", to_string(name)));
  return e;
}

// True when some file has an absolute import that `wanted` accepts.
bool NonPythonRules::any_import(bool (*wanted)(const ImportView&, const ImportScratch&)) {
  const ProjectFacts* all = facts();
  ImportScratch scratch;
  for (size_t i = 0; all != nullptr && i < all->size(); ++i) {
    all->imports(i, scratch);
    for (const auto& imp : scratch.imports) {
      if (imp.level == 0 && wanted(imp, scratch)) return true;
    }
  }
  return false;
}

// Some file imports what reads installed packages' metadata (importlib.metadata, importlib_metadata,
// pkg_resources).
bool NonPythonRules::reads_metadata() {
  Tables& t = tables();
  if (!t.metadata) t.metadata = any_import(imports_metadata_reader);
  return *t.metadata;
}

bool NonPythonRules::imports_django() {
  Tables& t = tables();
  if (!t.django) t.django = any_import(imports_django_module);
  return *t.django;
}

// Rule `data-files`: the code that reads the file, or the code that reads a file naming it.
NonPythonEffect NonPythonRules::data_file(const RepoPath& path) {
  std::string changed = fmt::format("{} changed", path);
  auto unbounded = [&](const std::string& why) {
    return run_all(Reason::non_python_changed, FileKind::non_python, changed + ": " + why);
  };
  if (facts() == nullptr) return run_all(Reason::non_python_changed, FileKind::non_python, changed);
  if (auto why = unbounded_data(path)) return unbounded(*why);
  if (auto why = unbounded_reason(path, FileKind::non_python)) return unbounded(*why);
  if (!m_in.non_python.mentions_unknown.empty()) return unbounded(m_in.non_python.mentions_unknown);
  if (django_convention_folder(path) && imports_django()) {
    return unbounded("Django finds the files of its app folders (templates, static, fixtures, locale) by names the "
                     "code computes");
  }
  // The file and every file that names it, each with the hops from it to the changed file.
  std::vector<std::pair<RepoPath, std::vector<Hop>>> named{{path, {}}};
  for (size_t i = 0; i < named.size(); ++i) {
    for (const auto& m : m_in.non_python.mentions) {
      if (m.names != named[i].first) continue;
      if (std::any_of(named.begin(), named.end(), [&](const auto& n) { return n.first == m.path; })) continue;
      if (m.path.filename() == "MANIFEST.in") continue; // an sdist's file list: read when packaging, not in tests
      if (is_config_file(m.path) || sectioned_config(m.path)) return unbounded(fmt::format("{} names it", m.path));
      if (auto quiet = quiet_kind(m.path)) { // prose or tool settings read no file, unless pytest collects them
        auto why = unbounded_reason(m.path, file_kind_of(*quiet));
        if (why) return unbounded(fmt::format("{} names it, and {}", m.path, *why));
        continue;
      }
      if (auto why = unbounded_data(m.path)) return unbounded(fmt::format("{} names it, and {}", m.path, *why));
      if (auto why = unbounded_reason(m.path, FileKind::non_python)) {
        return unbounded(fmt::format("{} names it, and {}", m.path, *why));
      }
      auto via = named[i].second;
      via.insert(via.begin(), Hop{m.path.str, Relation::names_file, m.line, {}});
      named.emplace_back(m.path, std::move(via));
    }
  }
  NonPythonEffect e;
  e.what = NonPythonEffect::What::readers;
  e.kind = FileKind::non_python;
  for (const auto& r : tables().reads) {
    for (const auto& entry : named) { // not a structured binding: the lambda below captures the path (clang 14)
      const RepoPath& file = entry.first;
      const std::vector<Hop>& via = entry.second;
      if (r.paths.reads_anything) {
        e.readers.push_back(Reader{r.node, Relation::reads_file, 0, via});
        break;
      }
      auto hit = std::find_if(r.paths.strings.begin(), r.paths.strings.end(),
                              [&](const auto& s) { return could_name_data(s.first, file); });
      if (hit != r.paths.strings.end()) {
        e.readers.push_back(Reader{r.node, Relation::reads_file, hit->second, via});
        break;
      }
      if (r.paths.listing_line != 0) {
        e.readers.push_back(Reader{r.node, Relation::lists_folder, r.paths.listing_line, via});
        break;
      }
    }
  }
  for (const auto& [file, via] : named) {
    for (const auto& owner : datadir_owners(file)) {
      if (auto node = m_in.graph.find(owner)) e.readers.push_back(Reader{*node, Relation::data_folder_of, 0, via});
    }
  }
  if (e.readers.empty()) return unbounded("no code can be shown to read it, nor any file that names it");
  return e;
}

} // namespace impact::decision

namespace impact {

bool non_python_reads_facts(const RepoPath& path) {
  if (path.empty() || path.ends_with(".py")) return false;
  return quiet_kind(path).has_value() || pin_file_kind(path) != PinFile::none || sectioned_config(path) ||
         is_data_file(path);
}

bool is_data_file(const RepoPath& path) {
  if (path.empty() || path.ends_with(".py") || is_config_file(path) || sectioned_config(path)) return false;
  return !quiet_kind(path) && pin_file_kind(path) == PinFile::none;
}

} // namespace impact
