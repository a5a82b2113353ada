// decide(): the rules of docs/selection.md. The file-level walk (imports, conftest.py files, plugins)
// bounds the answer from above; when the semantic diff and the facts are there, the symbol walk narrows
// it to the tests that can reach the changed symbols, and whatever it cannot follow goes back to the
// file level for that file.
#include "decision/decide_parts.hpp"
#include "decision/doctests.hpp"
#include "decision/processes.hpp"
#include "decision/unmeasured.hpp"
#include "decision/file_effect.hpp"
#include "decision/relation.hpp"
#include "decision/rules/changed_strict.hpp"
#include "decision/rules/declared.hpp"
#include "decision/rules/docstrings.hpp"
#include "decision/rules/main_guard.hpp"
#include "decision/rules/module_names.hpp"
#include "decision/rules/non_python.hpp"
#include "decision/rules/session_hooks.hpp"
#include "decision/selected_tests.hpp"
#include "decision/symbol_walk.hpp"
#include "decision/test_code.hpp"
#include "decision/uncertain_imports.hpp"
#include "decision/syntax_rules.hpp"
#include "decision/walk.hpp"
#include "impact/decision.hpp"
#include "impact/node_id.hpp"
#include "util/glob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace impact {

namespace {

using decision::PythonChange;
using decision::Selection;
using decision::Trigger;

class Decider {
public:
  explicit Decider(const DecisionInput& input) : m_in(input), m_walk(input.graph), m_non_python(input) {}

  Decision run() {
    m_decision.mode_requested = m_decision.mode_effective = m_in.mode;
    for (const auto& change : m_in.changes.files) classify(change);
    if (!m_in.environment_drift.empty()) record(decision::environment_verdict(), m_non_python.drift(m_in.environment_drift));
    m_walk.run();
    deleted_conftests();
    uncertain_imports();
    session_hooks();
    for (const auto& p : m_in.syntax_problems) { // a session that loads it cannot start
      auto node = m_in.graph.find(p.path.str);
      auto loader = node ? decision::session_loader(m_in.graph, *node) : std::nullopt;
      if (loader) m_triggers.push_back(Trigger{Reason::syntax_error, decision::session_failure(p, *loader)});
    }
    for (uint32_t node : m_walk.order()) {
      const GraphNode& n = m_in.graph.nodes[node];
      if (n.test && !n.ghost) m_decision.file_level.push_back(SelectedTest{n.path.str, m_walk.chain(node), {}});
    }
    m_from_readers = decision::reached_from_readers(m_in.graph, m_reader_seeds);
    for (const auto& [node, chain] : m_from_readers) {
      const GraphNode& n = m_in.graph.nodes[node];
      if (n.test && !n.ghost && !m_walk.reached(node)) m_decision.file_level.push_back(SelectedTest{n.path.str, chain, {}});
      if (auto t = decision::rules::collect_hook_at(m_in, node)) m_triggers.push_back(std::move(*t)); // `collect-hook`
    }
    unloaded_files();
    select();
    finish_selection();
    count_per_file();
    if (m_in.changed_strict) unconnected();
    conclude();
    return std::move(m_decision);
  }

private:
  bool ignored(const RepoPath& path) const {
    return std::any_of(m_in.ignore.begin(), m_in.ignore.end(),
                       [&](const std::string& g) { return util::path_glob_match(g, path.str); });
  }

  void trigger(FileVerdict& verdict, Reason reason, FileKind kind, const RepoPath& path) {
    verdict.kind = kind;
    verdict.effect = fmt::format("run_all: {}", to_string(reason));
    m_triggers.push_back(Trigger{reason, fmt::format("{} changed", path)});
  }

  const FileSemantics* semantics_of(const ChangedFile& change) const {
    if (m_in.semantics == nullptr) return nullptr;
    for (const auto& s : *m_in.semantics) {
      if (s.path == change.path()) return &s;
    }
    return nullptr;
  }

  void classify(const ChangedFile& change) {
    FileVerdict verdict;
    verdict.path = change.path();
    if (change.status == FileStatus::renamed) verdict.old_path = change.old_path;
    verdict.status = change.status;
    bool new_side = !change.new_path.empty() && !ignored(change.new_path);
    bool old_side = !change.old_path.empty() && change.old_path != change.new_path && !ignored(change.old_path);
    if (!new_side && !old_side) {
      verdict.kind = FileKind::ignored;
      verdict.effect = "ignored by [tool.impact] ignore";
      m_decision.files.push_back(std::move(verdict));
      return;
    }
    if (change.submodule) {
      trigger(verdict, Reason::submodule_changed, FileKind::submodule, change.path());
      m_decision.files.push_back(std::move(verdict));
      return;
    }
    std::vector<const RepoPath*> sides;
    if (new_side) sides.push_back(&change.new_path);
    if (old_side) sides.push_back(&change.old_path);
    auto plain_python = [](const RepoPath* p) { return p->ends_with(".py") && !is_config_file(*p); };
    if (!std::all_of(sides.begin(), sides.end(), plain_python)) {
      non_python(verdict, change, sides, std::any_of(sides.begin(), sides.end(), plain_python));
      return;
    }
    // The executable bit matters only to what runs the file as a program (a test's subprocess of
    // ./tool.py, a shebang script), which no import or reference shows: run everything (rule `mode-change`).
    if (change.mode_changed) {
      trigger(verdict, Reason::mode_changed, FileKind::mode, change.path());
      m_decision.files.push_back(std::move(verdict));
      return;
    }
    PythonChange py_change;
    py_change.verdict = m_decision.files.size();
    py_change.status = change.status;
    py_change.semantics = semantics_of(change);
    verdict.kind = FileKind::python;
    if (py_change.semantics != nullptr) {
      verdict.change = std::string(to_string(py_change.semantics->kind));
      verdict.symbols = py_change.semantics->symbols;
    }
    if (new_side) {
      if (auto node = m_in.graph.find(change.new_path.str)) {
        const GraphNode& n = m_in.graph.nodes[*node];
        if (n.conftest) verdict.kind = FileKind::conftest;
        else if (n.test) verdict.kind = FileKind::test;
        add_seed(*node, decision::relation_of(change.status));
        py_change.nodes.push_back(*node);
        py_change.current = *node;
      }
    }
    if (old_side) {
      if (auto node = m_in.graph.find(change.old_path.str)) {
        add_seed(*node, change.status == FileStatus::renamed ? Relation::renamed_away : Relation::deleted);
        py_change.nodes.push_back(*node);
        if (is_conftest(change.old_path) && m_in.graph.nodes[*node].ghost) {
          m_deleted_conftests.push_back(*node);
          verdict.kind = FileKind::conftest;
        }
      }
    }
    // Code that reads the file as text, execs a text importing it, or fills a template reading its
    // methods (rules `source-readers`, `executed-text`, `data-templates`): its test files run whole.
    for (const RepoPath* side : sides) m_non_python.python_readers(*side, change.status, m_reader_seeds);
    m_python.push_back(py_change);
    m_decision.files.push_back(std::move(verdict));
  }

  // A change whose sides are not both Python: the rules of decision/rules/non_python.cpp.
  void non_python(FileVerdict& verdict, const ChangedFile& change, const std::vector<const RepoPath*>& sides,
                  bool mixed) {
    auto judged = m_non_python.judge(sides, mixed, verdict.path, change.status);
    record(std::move(verdict), std::move(judged));
  }

  void record(FileVerdict verdict, decision::NonPythonVerdict judged) {
    verdict.kind = judged.kind;
    verdict.effect = std::move(judged.effect);
    if (judged.trigger) m_triggers.push_back(Trigger{judged.trigger->first, judged.trigger->second});
    if (judged.quiet) {
      verdict.tests = 0;
      m_quiet.insert(verdict.path.str);
    }
    for (auto& w : judged.warnings) m_decision.warnings.push_back(std::move(w));
    m_reader_seeds.insert(m_reader_seeds.end(), judged.readers.begin(), judged.readers.end());
    m_decision.files.push_back(std::move(verdict));
  }

  void add_seed(uint32_t node, Relation relation) {
    m_seeds.push_back(node);
    m_walk.seed(node, relation);
  }

  // The changed files no test file loads, whatever the other changes reach: they may still run as a
  // program (rule `main-guard`). The shared walk answers for most; the rest are asked as
  // --changed-strict asks.
  void unloaded_files() {
    std::vector<bool> reaches_tests = m_walk.seeds_reaching_tests();
    std::vector<decision::rules::StrictCandidate> candidates;
    for (const auto& py : m_python) {
      if (std::none_of(py.nodes.begin(), py.nodes.end(), [&](uint32_t n) { return reaches_tests[n]; })) {
        candidates.push_back({m_decision.files[py.verdict].path.str, py.nodes});
      }
    }
    if (candidates.empty()) return;
    auto unloaded = decision::rules::unconnected_changes(m_in.graph, candidates);
    for (auto& py : m_python) {
      py.unloaded = std::binary_search(unloaded.begin(), unloaded.end(), m_decision.files[py.verdict].path.str);
    }
  }

  // A reached conftest.py or plugin with a hook pytest calls for the whole session affects every test
  // file, not only those below it (rule `conftest-subtree`).
  void session_hooks() { decision::rules::link_session_hooks(m_in, m_walk); }

  // A deleted conftest.py selects every test module below its folder.
  void deleted_conftests() {
    for (uint32_t ghost : m_deleted_conftests) {
      std::string_view dir = m_in.graph.nodes[ghost].path.parent();
      for (uint32_t node = 0; node < m_in.graph.nodes.size(); ++node) {
        const GraphNode& n = m_in.graph.nodes[node];
        if (!n.ghost && (n.test || n.conftest || n.test_pattern) && n.path.is_within(dir)) {
          m_walk.link(node, ghost, Relation::conftest, 0);
        }
      }
    }
    m_walk.run();
  }

  // A computed import can load any module: the tests that load it may run the change.
  void uncertain_imports() {
    decision::link_uncertain_imports(m_in, m_seeds, m_walk, m_decision, m_triggers);
    m_walk.run();
  }

  void select_file(Selection& out, uint32_t node, std::vector<Hop> chain) {
    const GraphNode& n = m_in.graph.nodes[node];
    if (n.ghost) return;
    if (!n.test) {
      if (n.test_pattern || n.doctest_collected) out.import_only.emplace(node, std::move(chain));
      return;
    }
    out.whole.emplace(node, std::move(chain));
  }

  // Each changed Python file's CoverageUse, looked up once.
  void look_up_coverage() {
    if (m_in.coverage == nullptr) return;
    std::unordered_map<std::string_view, const CoverageUse*> by_path;
    for (const auto& c : m_in.coverage->files) by_path.emplace(c.path.str, &c);
    for (auto& py : m_python) {
      auto it = by_path.find(m_decision.files[py.verdict].path.str);
      if (it != by_path.end()) py.coverage = it->second;
    }
  }

  // The static answer for the files the coverage index cannot vouch for, the index's answer for the
  // ones it can, and the static answer again for test files the index never measured.
  void select() {
    look_up_coverage();
    std::vector<const PythonChange*> static_part, covered;
    for (const auto& py : m_python) {
      const CoverageUse* c = py.coverage;
      FileVerdict& v = m_decision.files[py.verdict];
      if (c != nullptr && c->trusted && m_in.mode == Mode::safe) {
        // --mode safe: runtime evidence only adds; the static answer stands beside the index's.
        static_part.push_back(&py);
        covered.push_back(&py);
        v.source = TestSource::static_;
        v.fallback = CoverageFallback::safe_mode;
      } else if (c != nullptr && c->trusted) {
        covered.push_back(&py);
        v.source = TestSource::coverage;
        v.covered_bodies = c->bodies;
      } else {
        static_part.push_back(&py);
        v.source = TestSource::static_;
        if (c != nullptr) v.fallback = c->fallback;
      }
    }
    Selection selection = analyse(static_part);
    for (auto& [node, chain] : m_from_readers) select_file(selection, node, std::move(chain));
    if (!covered.empty()) {
      selection.merge(decision::covered_tests(covered, m_decision.files, m_in.graph));
      // Tests the index never measured, and test files that may start a process it does not see into:
      // what the static analysis of the covered changes selects in them (safe mode has all of it).
      std::vector<std::string> drifted = decision::tests_reading_drifted_data(*m_in.coverage, m_non_python, m_in.graph);
      bool unmeasured = !m_in.coverage->unmeasured_tests.empty() || !m_in.coverage->unrecorded_tests.empty() || !drifted.empty();
      std::optional<decision::ProcessStarters> starters;
      if (m_in.mode != Mode::safe) starters.emplace(m_in.graph, m_in.facts);
      if (starters && (unmeasured || starters->any())) {
        Selection answer = analyse(covered);
        selection.merge(starters->keep(answer));
        if (unmeasured) selection.merge(decision::keep_unmeasured(std::move(answer), *m_in.coverage, drifted, m_in.graph));
      }
    }
    // Where the index answers for every changed Python file, it saw whether any test's computed import
    // loaded the change: such a load runs the file like any import, and its lines would be recorded.
    bool index_answers = !covered.empty() && static_part.empty();
    for (uint32_t node : m_walk.order()) {
      const GraphNode& n = m_in.graph.nodes[node];
      // Tests the file level reached only through a computed import stay selected as whole files (fast
      // mode never links one), unless the index vouches for them. A module collected for its doctests
      // (--doctest-modules) runs whole: its examples name code in strings, which the symbol walk does not read.
      auto chain = m_walk.chain(node);
      bool computed = !decision::note_of(chain).empty() && !(index_answers && index_saw(n.path.str));
      bool doctest_module = n.test && !n.test_pattern && !n.ghost;
      if (computed || doctest_module) select_file(selection, node, std::move(chain));
    }
    // The index answers for covered changes: the symbol-level filter of text doctests is the static walk's.
    const decision::PageFilter* pages = covered.empty() && m_pages ? &*m_pages : nullptr;
    select_doctests(m_in, m_walk, selection, [&](Selection& out, uint32_t node, std::vector<Hop> chain) {
      select_file(out, node, std::move(chain));
    }, pages);
    m_whole = std::move(selection.whole);
    m_tests = std::move(selection.tests);
    m_import_only = std::move(selection.import_only);
  }

  // Whether the coverage index recorded every test of test file `path` as it is now.
  bool index_saw(const std::string& path) const {
    const auto& unmeasured = m_in.coverage->unmeasured_tests; // sorted
    return !std::binary_search(unmeasured.begin(), unmeasured.end(), path) &&
           !m_in.coverage->unrecorded_tests.contains(path);
  }

  Selection analyse(const std::vector<const PythonChange*>& changes) {
    Selection out;
    if (changes.empty()) return out;
    if (m_in.facts != nullptr && m_in.layout != nullptr && m_in.semantics != nullptr) symbol_selection(changes, out);
    else file_selection(changes, out);
    decision::rules::select_program_runners(m_in, changes, m_decision.files, out, m_triggers); // `main-guard`
    decision::rules::select_name_clashes(m_in.graph, changes, m_decision.files, out); // `test-file-itself`
    return out;
  }

  // File level: every test file the given changed files reach (m_walk holds them all).
  void file_selection(const std::vector<const PythonChange*>& changes, Selection& out) {
    if (changes.size() == m_python.size()) return select_walked(m_walk, out);
    decision::ReverseWalk walk(m_in.graph);
    for (const PythonChange* py : changes) {
      for (uint32_t node : py->nodes) walk.seed(node, decision::relation_of(py->status));
    }
    walk.run();
    select_walked(walk, out);
  }

  void select_walked(const decision::ReverseWalk& walk, Selection& out) {
    for (uint32_t node : walk.order()) select_file(out, node, walk.chain(node));
    if (auto t = decision::rules::collect_hook_trigger(m_in, walk)) m_triggers.push_back(std::move(*t)); // `collect-hook`
  }

  // Symbol level: the changed symbols, walked to the tests; file-level seeds where the change runs at
  // import or cannot be classified.
  void symbol_selection(const std::vector<const PythonChange*>& changes, Selection& out) {
    std::vector<std::pair<uint32_t, Relation>> file_seeds;
    std::vector<decision::SymbolSeed> symbol_seeds;
    for (const PythonChange* change : changes) {
      const PythonChange& py = *change;
      const FileSemantics* s = py.semantics;
      auto whole = [&](Relation why) {
        for (uint32_t node : py.nodes) file_seeds.emplace_back(node, why);
      };
      if (s == nullptr || py.status != FileStatus::modified || !py.current) {
        whole(decision::relation_of(py.status));
        continue;
      }
      if (s->kind == ChangeKind::comment_only || s->kind == ChangeKind::formatting_only) {
        if (cosmetic_counts()) {
          if (s->comment_changed.empty()) whole(decision::relation_of(s->kind));
          for (const auto& q : s->comment_changed) symbol_seeds.push_back({*py.current, q, Relation::comment_changed, 0});
        } else if (m_in.mode == Mode::fast) {
          m_decision.warnings.push_back(fmt::format("{}: {} change skipped (fast mode)",
                                                    m_decision.files[py.verdict].path, to_string(s->kind)));
        }
        continue;
      }
      bool typed = s->kind == ChangeKind::type_checking && decision::rules::tests_set_type_checking(m_in.graph, m_in.facts);
      if (s->runs_at_import || s->kind == ChangeKind::unclassifiable || typed) { // (`type-checking`: a test sets it)
        whole(decision::relation_of(s->kind));
        continue;
      }
      if (m_in.mode == Mode::safe) {
        FactsHeader h = m_in.facts->header(*py.current);
        if (h.has_uncertain_imports || h.has_dynamic_access) {
          whole(Relation::uncertain_safe_mode);
          continue;
        }
        for (const auto& q : s->comment_changed) symbol_seeds.push_back({*py.current, q, Relation::comment_changed, 0});
      }
      for (const auto& sc : s->symbols) {
        uint32_t line = sc.new_lines.first != 0 ? sc.new_lines.first : sc.old_lines.first;
        symbol_seeds.push_back({*py.current, sc.qualname, decision::relation_of(sc.change), line});
      }
    }

    // One budget for the decision: the walk for tests the index never measured shares the first's time.
    if (!m_budget) {
      m_budget.emplace();
      m_budget->max_depth = m_in.max_depth;
      m_budget->budget_ms = m_in.budget_ms;
    }
    decision::SymbolWalk walk(m_in.graph, *m_in.facts, *m_in.layout, *m_budget, m_in.mode);
    bool every = changes.size() == m_python.size(); // text doctests are narrowed by a walk of every change
    std::optional<decision::NameWatch> watch = every ? decision::doctest_watch(m_in) : std::nullopt;
    if (watch) walk.watch(&*watch);
    for (uint32_t node : decision::rules::docstrings_read_at_import(walk, symbol_seeds)) file_seeds.emplace_back(node, Relation::docstring_only);
    decision::rules::drop_unread_docstrings(walk, symbol_seeds); // docs/selection.md `docstrings`
    decision::SymbolResult result = walk.run(symbol_seeds);
    // A file too large to parse has no symbols to follow: once an import reaches it, its importers
    // are reached whole, and as a test file it runs whole (docs/selection.md#files-impact-does-not-read-whole).
    for (uint32_t node : m_walk.order()) {
      if (node < m_in.facts->size() && m_in.facts->header(node).oversized) {
        result.file_level.emplace(node, m_walk.chain(node));
      }
    }
    decision::test_module_examples(m_in, m_walk, result.whole_files); // `collection`
    for (auto& w : result.warnings) {
      // The second walk over a spent budget says so again: once is enough.
      auto& all = m_decision.warnings;
      if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(std::move(w));
    }

    // Files whose every importer is affected: walk the graph from them.
    decision::ReverseWalk files(m_in.graph);
    std::map<uint32_t, std::vector<Hop>> symbol_chains; // file-level seeds that came from a symbol
    for (const auto& [node, why] : file_seeds) files.seed(node, why);
    for (auto& [node, hops] : result.file_level) {
      if (files.reached(node)) continue;
      files.seed(node, Relation::symbol);
      symbol_chains.emplace(node, std::move(hops));
    }
    files.run();
    if (!files.order().empty()) { // `conftest-subtree`: module-level code a session hook's file loads (not a hook or a decorated function reached)
      decision::ReverseWalk module_level(m_in.graph);
      for (const auto& [node, why] : file_seeds) module_level.seed(node, why);
      for (const auto& [node, hops] : symbol_chains) {
        if (hops.front().relation != Relation::pytest_hook && hops.front().relation != Relation::decorated) module_level.seed(node, Relation::symbol);
      }
      module_level.run();
      decision::rules::link_session_hooks(m_in, files, &module_level);
    }
    if (auto t = decision::rules::collect_hook_trigger(m_in, files)) m_triggers.push_back(std::move(*t)); // `collect-hook`
    if (result.collect_hook) m_triggers.push_back(Trigger{Reason::collect_hook, std::move(*result.collect_hook)});
    if (watch) m_pages = decision::doctest_filter(m_in, *watch, result, files);
    auto full_chain = [&](uint32_t node) {
      std::vector<Hop> hops = files.chain(node);
      auto it = symbol_chains.find(hops.back().path.empty() ? node : *m_in.graph.find(hops.back().path));
      if (it != symbol_chains.end()) {
        hops.pop_back();
        hops.insert(hops.end(), it->second.begin(), it->second.end());
      }
      return hops;
    };
    for (uint32_t node : files.order()) {
      if (m_walk.reached(node)) select_file(out, node, full_chain(node));
    }
    decision::rules::select_reached_programs(m_in, symbol_chains, files, out, m_triggers); // `main-guard`
    std::map<uint32_t, std::vector<Hop>> programs(result.programs.begin(), result.programs.end());
    decision::rules::select_reached_programs(m_in, programs, files, out, m_triggers, true);
    decision::rules::DataLoaders loads_data(m_in.graph, *m_in.facts);
    auto may_run = [&](uint32_t node) { return m_walk.reached(node) || loads_data.holds(node); };
    for (auto& [node, hops] : result.whole_files) {
      if (may_run(node)) select_file(out, node, std::move(hops));
    }
    for (auto& [id, hops] : result.tests) {
      auto node = m_in.graph.find(NodeId::of(id).file);
      if (!node || !may_run(*node)) continue;
      out.tests.emplace(id, std::move(hops));
    }
  }

  void finish_selection() {
    decision::list_selected(std::move(m_whole), std::move(m_tests), m_in.graph, m_decision.selected);
    // pytest imports every file matching python_files during collection, tests or not, so an import
    // error there fails a full run. Alongside other tests such a file is simply passed too; on its own
    // it would make pytest exit 5 (no tests collected), so only a full run can show its errors.
    if (!m_import_only.empty() && m_decision.selected.empty() && m_triggers.empty()) {
      const GraphNode& n = m_in.graph.nodes[m_import_only.begin()->first];
      std::string_view why = n.test_pattern ? "matches python_files" : "is collected by --doctest-modules";
      m_triggers.push_back(Trigger{Reason::import_only_test_files,
                                   fmt::format("{} {} but defines no tests; only a full run shows its import errors",
                                               n.path.str, why)});
    } else if (!m_decision.selected.empty()) {
      for (auto& [node, chain] : m_import_only) {
        SelectedTest test;
        test.node_id = m_in.graph.nodes[node].path.str;
        test.chain = std::move(chain);
        test.note = "defines no tests; pytest imports it during collection, so its import errors count";
        m_decision.selected.push_back(std::move(test));
      }
    }
    std::sort(m_decision.selected.begin(), m_decision.selected.end(),
              [](const SelectedTest& a, const SelectedTest& b) { return a.node_id < b.node_id; });
    if (auto t = decision::unaddressable_test(m_decision.selected)) m_triggers.push_back(std::move(*t)); // `test-node-ids`
  }

  // Each changed file's effect: what kind of change, and how many selected tests lead back to it.
  void count_per_file() {
    std::map<std::string, long> by_file;
    for (const auto& t : m_decision.selected) {
      if (!t.chain.empty()) ++by_file[t.chain.back().path];
    }
    for (const auto& py : m_python) {
      FileVerdict& v = m_decision.files[py.verdict];
      long tests = 0;
      for (uint32_t node : py.nodes) tests += by_file[m_in.graph.nodes[node].path.str];
      v.tests = tests;
      v.effect = decision::file_effect(v, tests, m_in.syntax_problems, py.coverage);
    }
  }

  // --changed-strict: a changed file that no test file can load runs everything (rule changed-strict).
  void unconnected() {
    std::vector<decision::rules::StrictCandidate> candidates;
    for (const auto& py : m_python) {
      const FileVerdict& v = m_decision.files[py.verdict];
      bool cosmetic = !cosmetic_counts() && py.semantics != nullptr &&
                      (py.semantics->kind == ChangeKind::comment_only || py.semantics->kind == ChangeKind::formatting_only);
      bool dropped_test = v.status == FileStatus::deleted && v.kind == FileKind::test;
      // A file no test loads stays unconnected though `main-guard` selected the tests that may run it.
      if ((v.tests == 0 || py.unloaded) && !cosmetic && !dropped_test) candidates.push_back({v.path.str, py.nodes});
    }
    for (const auto& seed : m_reader_seeds) candidates.push_back({seed.tail.back().path, {seed.reader.node}});
    for (const auto& path : decision::rules::unconnected_changes(m_in.graph, candidates)) {
      m_triggers.push_back(Trigger{Reason::unconnected_change,
                                   fmt::format("--changed-strict: no test file can load {}, which changed", path)});
    }
  }

  // A comment or layout change is a change of its symbols in `--mode safe`, and where the project reads
  // source text (`semantic-diff`): inspect.getsource returns the comments too.
  bool cosmetic_counts() {
    if (!m_reads_source) {
      const ProjectFacts* facts = decision::facts_read(m_in);
      m_reads_source = m_in.mode == Mode::balanced && facts != nullptr && decision::rules::project_reads_source(*facts);
    }
    return m_in.mode == Mode::safe || *m_reads_source;
  }

  void conclude() {
    if (!m_triggers.empty()) {
      m_decision.outcome = Outcome::run_all;
      m_decision.reason = m_triggers.front().reason;
      std::vector<std::string> details;
      for (const auto& t : m_triggers) {
        if (std::find(details.begin(), details.end(), t.detail) == details.end()) details.push_back(t.detail);
      }
      m_decision.detail = fmt::format("{}", fmt::join(details, "; "));
      m_decision.selected.clear();
      return;
    }
    if (!m_decision.selected.empty()) {
      m_decision.outcome = Outcome::selected;
      return;
    }
    m_decision.outcome = Outcome::nothing;
    bool only_cosmetic = !m_python.empty() && std::all_of(m_python.begin(), m_python.end(), [](const PythonChange& p) {
      return p.semantics != nullptr &&
             (p.semantics->kind == ChangeKind::comment_only || p.semantics->kind == ChangeKind::formatting_only);
    });
    std::tie(m_decision.reason, m_decision.detail) =
        decision::nothing_reason(m_decision.files, m_quiet, m_in.changes.files.empty(), only_cosmetic && !cosmetic_counts());
  }

  const DecisionInput& m_in;
  decision::ReverseWalk m_walk; // the file-level walk: the upper bound
  Decision m_decision;
  std::vector<Trigger> m_triggers;
  std::vector<uint32_t> m_seeds;
  std::vector<PythonChange> m_python;
  decision::NonPythonRules m_non_python;
  std::optional<decision::PageFilter> m_pages; // text doctests at symbol level (symbol_selection)
  std::vector<decision::ReaderSeed> m_reader_seeds;
  std::vector<std::pair<uint32_t, std::vector<Hop>>> m_from_readers;
  std::set<std::string> m_quiet; // changed files that select nothing by rule quiet-files or config-sections
  std::vector<uint32_t> m_deleted_conftests;
  std::optional<bool> m_reads_source; // cosmetic_counts()
  std::optional<decision::Budget> m_budget; // started by the first symbol walk
  std::map<uint32_t, std::vector<Hop>> m_whole;       // test files selected whole
  std::map<std::string, std::vector<Hop>> m_tests;    // single tests
  std::map<uint32_t, std::vector<Hop>> m_import_only; // reached files that define no tests
};

} // namespace

Decision decide(const DecisionInput& input) {
  Decision decision = Decider(input).run();
  decision::apply_declared(input, decision);
  return decision;
}

} // namespace impact
