#include "app/analyse.hpp"
#include "app/last_failed.hpp"
#include "app/shard_plan.hpp"

#include "app/non_python_input.hpp"
#include "app/executed_texts.hpp"
#include "app/index_data_drift.hpp"
#include "app/template_reads.hpp"
#include "app/pytest_command.hpp"
#include "app/stage_clock.hpp"
#include "impact/environment.hpp"
#include "impact/ci.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/python/text_reads.hpp"
#include "impact/semantic.hpp"
#include "util/cache_dir.hpp"
#include "util/glob.hpp"
#include "util/keep_until_exit.hpp"
#include "util/temp_files.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <set>
#include <thread>

namespace impact::app {

namespace {

// Writes a file of the cache folder on a thread of its own, so that the write overlaps the stages after
// the one that made its content. wait() joins it and returns what went wrong (empty when it was saved or
// never started); the destructor joins too, so that no path leaves the thread running.
class BackgroundSave {
public:
  BackgroundSave() = default;
  BackgroundSave(const BackgroundSave&) = delete;
  BackgroundSave& operator=(const BackgroundSave&) = delete;
  ~BackgroundSave() {
    if (m_thread.joinable()) m_thread.join();
  }

  // What `save` reads must outlive this object (or the wait()).
  void start(std::filesystem::path dir, std::function<void()> save) {
    m_thread = std::thread([this, dir = std::move(dir), save = std::move(save)] {
      try {
        util::ensure_cache_dir(dir);
        save();
      } catch (const std::exception& e) {
        m_problem = e.what();
      }
    });
  }

  bool started() const { return m_thread.joinable(); }

  std::string wait() {
    if (m_thread.joinable()) m_thread.join();
    return m_problem;
  }

private:
  std::thread m_thread;
  std::string m_problem;
};

// Only a change to a Python file needs the graph; anything else decides on its own.
bool needs_graph(const ChangeSet& changes) {
  for (const auto& f : changes.files) {
    for (const RepoPath* p : {&f.new_path, &f.old_path}) {
      if (!p->empty() && p->ends_with(".py")) return true;
    }
  }
  return false;
}

std::vector<RepoPath> ghosts_of(const ChangeSet& changes) {
  std::vector<RepoPath> ghosts;
  for (const auto& f : changes.files) {
    if (!f.old_path.empty() && f.old_path != f.new_path && f.old_path.ends_with(".py")) ghosts.push_back(f.old_path);
  }
  return ghosts;
}

// Files the analysis read only in part, each said once on stderr and in the decision's warnings.
std::vector<std::string> partial_reads(const ProjectFacts& facts, const ProjectLayout& layout) {
  std::vector<std::string> out;
  for (size_t i = 0; i < facts.files.size(); ++i) {
    if (!facts.header(i).oversized) continue;
    out.push_back(fmt::format("{} is larger than {} MB: only its imports were read, and it is analysed at file level",
                              facts.files[i].path, k_max_parsed_bytes >> 20));
  }
  auto absent = layout.tests_not_checked_out();
  if (!absent.empty()) {
    std::string names;
    for (size_t i = 0; i < absent.size() && i < 3; ++i) names += (i > 0 ? ", " : "") + absent[i];
    if (absent.size() > 3) names += fmt::format(" and {} more", absent.size() - 3);
    out.push_back(fmt::format("{} test file(s) outside the sparse checkout are not on disk and are never selected: {}",
                              absent.size(), names));
  }
  return out;
}

// Added, renamed and retyped files are whole-file changes, and a side too large to parse is not read:
// their compile check comes from the facts of the state under test, which hold one for every Python
// file (docs/selection.md, syntax-error).
void compile_checks_from_facts(std::vector<FileSemantics>& semantics, const ChangeSet& changes,
                               const ProjectFacts& facts, std::optional<uint8_t> python_minor) {
  std::set<std::string> links; // a symbolic link's text is a path, not Python
  for (const auto& change : changes.files) {
    if (change.symlink) links.insert(change.path().str);
  }
  for (auto& s : semantics) {
    if (!s.syntax.empty() || s.syntax_judged || links.contains(s.path.str)) continue;
    size_t at = facts.find(s.path.str);
    if (at == ProjectFacts::npos) continue;
    CompileVerdict v = compile_verdict(facts.header(at).compile, python_minor);
    if (v.compiles()) continue;
    s.syntax = fmt::format("new side {}, {}", v.fails ? "does not compile" : "may not compile", v.why);
    s.kind = ChangeKind::syntax_error;
    s.runs_at_import = true;
  }
}

} // namespace

namespace {

// A side of a changed file for the semantic diff: nullopt when it is not there or cannot be read, which
// makes the change one of the whole file (the widest answer).
std::optional<std::string> side(FileRead read) {
  if (!read.has_content()) return std::nullopt;
  return std::move(read.text);
}

} // namespace

// Text files pytest collects for their examples (--doctest-glob), and what the examples import.
std::vector<TextDoctest> text_doctests(Repository& repo, const ProjectLayout& layout, const PytestConfig& pytest,
                                       const std::vector<SourceFile>& inventory) {
  std::vector<TextDoctest> out;
  for (const auto& f : inventory) {
    if (f.path.ends_with(".py")) continue;
    std::string_view name = f.path.filename();
    bool matches = std::any_of(pytest.doctest_globs.begin(), pytest.doctest_globs.end(),
                               [&](const std::string& g) { return util::fnmatch(g, name); });
    if (!matches || !layout.is_collected_path(f.path)) continue;
    FileRead text = repo.read_current(f);
    // Unread, its examples' imports would be unknown and the file never selected: stop instead.
    if (text.is_error()) throw Error("{}; pytest collects it for its examples (--doctest-glob): make it readable", text.problem);
    if (!text.has_content()) continue;
    python::DoctestNames names = python::doctest_names(text.text);
    out.push_back(TextDoctest{f.path, python::doctest_imports(text.text), std::move(names.names), names.dynamic});
  }
  return out;
}

std::vector<FileSemantics> semantic_diffs(Repository& repo, const ChangeSet& changes,
                                          const std::vector<SourceFile>& inventory,
                                          std::optional<uint8_t> python_minor) {
  // Both sides of every file are read first (one repository, one thread), then compared: the parses
  // of many changed files are shared between this thread and one more.
  struct Sides {
    const ChangedFile* change;
    std::optional<std::string> before, after; // none for an added, deleted or renamed file: whole
  };
  std::vector<Sides> files;
  for (const auto& change : changes.files) {
    bool is_python = (!change.new_path.empty() && change.new_path.ends_with(".py")) ||
                     (!change.old_path.empty() && change.old_path.ends_with(".py"));
    if (!is_python || change.submodule) continue;
    Sides& sides = files.emplace_back(Sides{&change, std::nullopt, std::nullopt});
    // Only a modified file is compared line by line: an added, deleted or renamed one is whole.
    if (change.status != FileStatus::modified) continue;
    if (!change.old_path.empty()) sides.before = side(repo.read_base(changes, change.old_path));
    if (!change.new_path.empty()) {
      auto it = std::lower_bound(inventory.begin(), inventory.end(), change.new_path,
                                 [](const SourceFile& f, const RepoPath& p) { return f.path < p; });
      if (it != inventory.end() && it->path == change.new_path) sides.after = side(repo.read_current(*it));
    }
    // A side too large to parse leaves the file unclassified: it is a change of the whole file.
    if (sides.before && sides.before->size() > k_max_parsed_bytes) sides.before.reset();
    if (sides.after && sides.after->size() > k_max_parsed_bytes) sides.after.reset();
  }
  std::vector<FileSemantics> out(files.size());
  auto compare = [&](size_t first) {
    for (size_t i = first; i < files.size(); i += 2) {
      const Sides& f = files[i];
      out[i] = diff_semantics(*f.change, f.before, f.after, python_minor);
    }
  };
  std::future<void> odd;
  if (files.size() > 1) odd = std::async(std::launch::async, compare, 1);
  compare(0);
  if (odd.valid()) odd.get();
  return out;
}

void print_warnings(const Analysis& analysis) {
  for (const auto& w : analysis.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
}

ChangeChoice choose_changes(const cli::Options& options, const CiContext& ci) {
  ChangeChoice choice;
  if (options.staged) {
    choice.request.mode = DiffMode::staged;
    return choice;
  }
  if (options.changed_rev) {
    choice.request.rev = options.changed_rev;
    choice.request.rev_source = "--changed";
    return choice;
  }
  if (ci.base_commit) {
    choice.request.rev = ci.base_commit;
    choice.request.rev_source = ci.variable;
  } else if (ci.base_branch) {
    choice.request.rev = "refs/remotes/origin/" + *ci.base_branch;
    choice.request.rev_source = ci.variable;
  } else if (!ci.provider.empty()) {
    choice.no_base = fmt::format("{} build without a pull request base; pass --changed=REV to compare with a revision",
                                 ci.provider == "ci" ? std::string("a CI") : ci.provider);
  }
  return choice;
}

void check_changed_is_a_revision(Repository& repo, const cli::Options& options, const ChangeChoice& choice) {
  if (!choice.request.rev || choice.request.rev_source != "--changed" || repo.has_revision(*choice.request.rev)) return;
  const std::string& rev = *choice.request.rev;
  std::error_code ec;
  if (std::filesystem::exists(options.directory / rev, ec) || std::filesystem::exists(repo.root() / rev, ec)) {
    throw Error("--changed {}: no revision of that name, but that is a path; impact compares revisions, not files: "
                "did you mean --changed=REV (or --changed alone, for HEAD) and pytest's arguments after --, as in "
                "impact --changed -- {}?",
                util::quote_name(rev), util::quote_name(rev));
  }
}

Analysis analyse(Repository& repo, const ImpactConfig& config, const cli::Options& options, const EnvLookup& env,
                 FactsStore* shared_facts) {
  Analysis out;
  StageClock clock(out.timings);
  CiContext ci = detect_ci(env);
  ChangeChoice choice = choose_changes(options, ci);
  Mode mode = config.mode.value;
  bool strict = config.strict.value;

  check_changed_is_a_revision(repo, options, choice);
  if (choice.request.rev && choice.request.rev_source != "--changed" && !repo.has_revision(*choice.request.rev)) {
    bool shallow = repo.is_shallow();
    if (ci.base_commit) {
      throw Error("{} names commit {}, which is not in this clone; fetch more history ({}) or pass --changed=REV",
                  ci.variable, *ci.base_commit, fetch_command(*ci.base_commit, shallow));
    }
    throw Error("{} names the base branch '{}', but origin/{} is not fetched; fetch it ({}) or pass --changed=REV",
                ci.variable, ci.base_branch.value_or(""), ci.base_branch.value_or(""),
                fetch_command(*choice.request.rev, shallow));
  }

  // The facts cache is opened (mapped, its checksum verified, its entries indexed) while git's status
  // runs: it depends on nothing the changes decide. Unused when no stage below needs the facts.
  auto cache_dir = util::cache_dir(repo.root(), env);
  std::future<FactsStore> opening;
  if (!options.no_cache && !shared_facts) {
    opening = std::async(std::launch::async, [&cache_dir] { return FactsStore(cache_dir); });
  }
  auto graph_file = cache_dir / stored_graph_file_name();
  std::future<StoredGraph> reading_graph;

  // 1. changes
  out.changes = repo.changes(choice.request);
  clock.lap("changes");
  if (!choice.no_base.empty()) {
    out.decision = decide_without_base(choice.no_base, mode);
    return out;
  }

  // The project model: pytest's configuration, then every Python file's facts (cached by content).
  PytestConfig pytest = read_pytest_config(repo.root(), pytest_invocation(config, env, options.passthrough));
  out.project.rootdir = pytest.rootdir;
  out.project.inifile = pytest.inifile;
  ProjectFacts facts;
  std::vector<SourceFile> inventory;
  FactsStore cache; // declared before `saving`, which joins before the cache goes
  BackgroundSave saving;
  // -j: threads for parsing and for linking imports.
  unsigned threads = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  // The coverage index, opened first: the environment it recorded may have moved since.
  std::unique_ptr<IndexReader> index;
  std::string index_problem; // an index that cannot be read: said on stderr and in the decision
  auto index_path = cache_dir / index_file_name();
  if (config.use_index.value && !options.file_level && std::filesystem::exists(index_path)) {
    try {
      index = std::make_unique<IndexReader>(index_path);
    } catch (const Error& e) {
      index_problem = fmt::format("{}; selecting without the coverage index", e.what());
      out.warnings.push_back(index_problem);
    }
  }
  std::optional<Environment> environment; // read when a pin moved or the index recorded one; the input points into it
  std::vector<MovedDistribution> drift;
  if (index && index->meta().environment) {
    environment = pytest_environment(config, env, repo.root());
    if (environment) drift = environment_drift(*index->meta().environment, versions_of(*environment));
  }
  // [tool.impact] always-run and triggers name tests, which only the graph's test files resolve; so
  // do the tests pytest's last run failed (--include-failed).
  std::vector<std::string> failed;
  if (options.include_failed) failed = last_failed(repo.root(), pytest, out.warnings);
  bool declared = (!out.changes.files.empty() && (!config.always_run.value.empty() || !config.triggers.value.empty())) ||
                  !failed.empty();
  if (needs_graph(out.changes) || declared || !drift.empty() ||
      (mode != Mode::safe && needs_facts_for_non_python(out.changes))) {
    // The import graph the last run stored is read (not yet checked against this run's files) while the
    // inventory and the facts are: only a run that loads the facts builds a graph from them.
    if (!options.no_cache && !shared_facts) {
      reading_graph = std::async(std::launch::async, [&graph_file] { return read_stored_graph(graph_file); });
    }
    inventory = repo.inventory(out.changes);
    clock.lap("inventory");
    std::vector<SourceFile> python_files;
    for (const auto& f : inventory) {
      if (f.path.ends_with(".py")) python_files.push_back(f);
    }
    if (opening.valid()) cache = opening.get();
    FactsStore& store = shared_facts ? *shared_facts : cache;
    if (!shared_facts && !cache.warning().empty()) out.warnings.push_back(cache.warning());
    facts = store.load(std::move(python_files), [&](const SourceFile& f) { return repo.read_current(f); }, threads);
    clock.lap("facts");
    // The new entries view `facts`, which outlives the save.
    // Written when something was parsed, or when entries no run uses any more outweigh the rest.
    if (!options.no_cache && !shared_facts && (facts.parsed > 0 || cache.worth_saving())) {
      saving.start(cache_dir, [&cache, &cache_dir] {
        cache.save();
        // The cache is being written anyway: the temporaries of runs that were killed go with it.
        util::remove_stale_temporaries(cache_dir);
      });
    }
  }
  ProjectLayout layout(pytest, inventory, facts);
  std::vector<std::string> partial = partial_reads(facts, layout);
  out.warnings.insert(out.warnings.end(), partial.begin(), partial.end());
  // 2. semantic diff of every changed Python file, on a thread of its own while 3. the graph is built:
  // the diff reads the repository and parses both sides of each changed file, the graph reads only the
  // facts, and neither reads what the other makes. The diff's exceptions come out of get().
  auto semantic_job = std::async(std::launch::async, [&] {
    return semantic_diffs(repo, out.changes, inventory, config.python_minor);
  });
  // A warm run takes the graph the last run stored and links again only what changed since.
  ImportGraph graph;
  GraphOrigin origin;
  BackgroundSave storing; // declared after `graph`, so it joins before the graph goes
  out.project.linked = facts.size();
  std::vector<RepoPath> ghosts = ghosts_of(out.changes);
  if (reading_graph.valid() && facts.size() > 0) {
    graph = stored_import_graph(reading_graph.get(), graph_file, layout, facts, ghosts, threads,
                                env("IMPACT_CHECK_GRAPH").value_or("") == "1", origin);
    if (!origin.problem.empty()) out.warnings.push_back(origin.problem);
    if (origin.how != GraphOrigin::How::built) out.project.linked = origin.relinked;
    if (origin.how != GraphOrigin::How::stored) {
      storing.start(cache_dir, [&graph, &facts, &ghosts, &origin, &graph_file] {
        store_import_graph(graph_file, graph, facts, ghosts, origin);
      });
    }
  } else {
    graph = build_import_graph(layout, facts, ghosts, threads);
  }
  clock.lap("graph");
  std::vector<FileSemantics> semantics = semantic_job.get();
  compile_checks_from_facts(semantics, out.changes, facts, config.python_minor);
  clock.lap("semantic"); // what the diff took past the graph
  // 5. decision
  DecisionInput input{out.changes, graph, config.ignore.value, strict, mode};
  input.changed_strict = options.changed_strict;
  if (!options.file_level) {
    input.facts = &facts;
    input.layout = &layout;
    input.semantics = &semantics;
  }
  input.text_doctests = text_doctests(repo, layout, pytest, inventory);
  input.non_python = non_python_input(repo, out.changes, inventory, pytest, config, env, environment);
  if (needs_graph(out.changes)) {
    input.non_python.executed = executed_texts(repo, facts, inventory);
    input.non_python.template_reads = template_reads(repo, inventory, semantics);
  }
  if (!drift.empty()) {
    input.environment_drift = std::move(drift);
    input.non_python.environment = &*environment;
  }
  input.non_python.facts = &facts;
  input.always_run = config.always_run.value;
  input.last_failed = std::move(failed);
  input.triggers = config.triggers.value;
  for (const auto& s : semantics) {
    if (!s.syntax.empty()) input.syntax_problems.push_back(SyntaxProblem{s.path, s.syntax});
  }
  input.max_depth = options.max_depth;
  input.budget_ms = options.budget_ms;
  // 4. coverage index, when there is one
  CoverageInput coverage;
  if (index) { // --file-level: the import graph alone
    // Only a bad index falls back to the analysis without it: a read of the repository that fails
    // is git's error, and stops the run as it would anywhere else (it is not "no index").
    bool read_failed = false;
    auto noted = [&read_failed](FileRead read) {
      read_failed = read_failed || read.is_error();
      return read;
    };
    CoverageReads reads{[&](const RepoPath& p) { return noted(repo.read_base(out.changes, p)); },
                        [&](const SourceFile& f) { return noted(repo.read_current(f)); }};
    try {
      std::vector<std::string> doctest_paths;
      for (const auto& doc : input.text_doctests) doctest_paths.push_back(doc.path.str);
      coverage = coverage_evidence(out.changes, semantics, facts, layout, graph, *index, reads, doctest_paths);
      // Read only where the index answers a change (the decision uses it for those alone): one more diff.
      bool answered = std::any_of(coverage.files.begin(), coverage.files.end(), [](const CoverageUse& u) { return u.trusted; });
      if (answered) coverage.drifted_data = data_since_index(repo, index->meta(), out.changes);
      input.coverage = &coverage;
      out.index = index->meta();
      out.index_path = index_path.string();
    } catch (const Error& e) {
      if (read_failed) throw;
      index_problem = fmt::format("{}; selecting without the coverage index", e.what());
      out.warnings.push_back(index_problem);
    }
    clock.lap("coverage");
  }
  out.decision = decide(input);
  if (weighs_durations(options)) out.static_tests = static_test_counts(out.decision.selected, facts, layout);
  if (!index_problem.empty()) out.decision.warnings.push_back(index_problem);
  out.decision.warnings.insert(out.decision.warnings.end(), partial.begin(), partial.end());
  clock.lap("decision");
  if (std::string problem = storing.wait(); !problem.empty()) {
    out.warnings.push_back(problem + "; continuing without storing the import graph");
  }
  if (saving.started()) {
    if (std::string problem = saving.wait(); !problem.empty()) {
      out.warnings.push_back(problem + "; continuing without saving the cache");
    }
    clock.lap("cache"); // the part of the background save still running when the decision was made
  }
  out.project.python_files = facts.files.size();
  out.project.parsed = facts.parsed;
  for (const auto& node : graph.nodes) out.project.test_files += node.test ? 1 : 0;
  if (shared_facts == nullptr) { // one analysis per process: freeing these is the OS's job at exit
    util::keep_until_exit(std::move(graph));
    util::keep_until_exit(std::move(facts));
  }
  return out;
}

} // namespace impact::app
