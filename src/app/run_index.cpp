// `impact index`: run the suite under coverage with per-test contexts (or read a coverage file), and
// write the index; `status` and `merge`.
#include "app/commands.hpp"
#include "app/index_trust.hpp"
#include "app/non_python_input.hpp"
#include "app/project_set.hpp"
#include "app/pytest_command.hpp"
#include "app/durations_setup.hpp"
#include "app/suite_probe.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "impact/monorepo.hpp"
#include "impact/project.hpp"
#include "impact/run.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"
#include "util/sha256.hpp"
#include "util/subprocess.hpp"
#include "util/temp_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <tuple>

namespace impact::app {

namespace {

// What the contexts were, for the summary: how many named a test, and what was not attributed.
std::string describe_contexts(const IngestStats& stats) {
  std::vector<std::string> parts;
  if (stats.fixture_contexts > 0) parts.push_back(fmt::format("{} setup/teardown phase(s)", stats.fixture_contexts));
  if (stats.outside_contexts > 0) parts.push_back(fmt::format("{} outside any test", stats.outside_contexts));
  if (stats.unknown_contexts > 0) parts.push_back(fmt::format("{} naming no test", stats.unknown_contexts));
  std::string out = fmt::format("{} context(s): {} test call(s)", stats.contexts, stats.test_contexts);
  if (!parts.empty()) out += fmt::format(", {} (not attributed to one test)", fmt::join(parts, ", "));
  if (stats.decorated_contexts > 0) out += fmt::format("; {} with a label or worker suffix stripped", stats.decorated_contexts);
  return out;
}

// The repository's files as they are now (the working tree), which the index describes.
std::vector<SourceFile> project_files(Repository& repo) {
  ChangeSet now = repo.changes(ChangeRequest{});
  return repo.inventory(now);
}

std::vector<RepoPath> python_paths(const std::vector<SourceFile>& files) {
  std::vector<RepoPath> out;
  for (const auto& f : files) {
    if (f.path.ends_with(".py")) out.push_back(f.path);
  }
  return out;
}

void finish(CoverageIndex& index, Repository& repo, const std::vector<SourceFile>& files,
            const std::filesystem::path& path, const IngestStats& stats, std::chrono::steady_clock::time_point start,
            const TrustRule& trust) {
  index.meta.commit = repo.head_commit();
  // Every other Python file, hashed: a later run tells a file changed since from one never measured.
  add_hashed_files(index, files, [&](const SourceFile& f) { return repo.read_current(f); });
  // Then what nothing proves was measured as hashed: its lines are not used.
  TrustReport untrusted = mark_untrusted(index, repo, trust);
  util::ensure_cache_dir(path.parent_path());
  util::remove_stale_temporaries(path.parent_path());
  write_index(index, path);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(stderr, "impact: indexed {} test(s) over {} measured file(s) in {:.1f} s\n", index.tests.size(),
             stats.files, seconds);
  fmt::print(stderr, "impact: {}\n", describe_contexts(stats));
  if (!stats.remapped_from.empty()) {
    fmt::print(stderr, "impact: note: the data was measured under {}; read as paths of this repository\n",
               util::one_line(stats.remapped_from));
  }
  if (stats.outside_files > 0 || stats.missing_files > 0) {
    fmt::print(stderr, "impact: {} measured file(s) outside the repository and {} no longer present were left out\n",
               stats.outside_files, stats.missing_files);
  }
  if (auto line = describe_untrusted(untrusted, trust, index.meta.source); !line.empty()) {
    fmt::print(stderr, "{}\n", line);
  }
  if (index.meta.whole_suite) {
    fmt::print(stderr, "impact: the index saw the whole suite: a function body no test ran selects no test\n");
  } else {
    fmt::print(stderr, "impact: note: the index did not see the whole suite ({}): a change to a function body no test "
                       "ran keeps the static answer\n",
               util::one_line(index.meta.partial));
  }
  fmt::print(stderr, "impact: wrote {}\n", path.string());
}

// The rule that vouches for a --from file's content: the commit named, or the data file's age.
TrustRule data_file_trust(const cli::Options& options, const std::filesystem::path& from) {
  TrustRule rule;
  if (!options.measured_at.empty()) {
    rule.kind = TrustRule::Kind::measured_at;
    rule.rev = options.measured_at;
    return rule;
  }
  rule.kind = TrustRule::Kind::data_file;
  std::error_code ec;
  rule.since = std::filesystem::last_write_time(from, ec);
  if (ec) rule.since = std::filesystem::file_time_type::min(); // unreadable: vouches for nothing
  return rule;
}

// Builds the index of the project whose folder is repo.root() (the repository, or one project of a
// monorepo seen through its view) and returns pytest's exit code (0 with --from).
int index_one(Repository& repo_ref, const ImpactConfig& config, const cli::Options& options, const EnvLookup& env) {
  auto start = std::chrono::steady_clock::now();
  Repository* repo = &repo_ref;
  // The rootdir the node ids in the data are relative to: as the run below (or the one that measured
  // the data) sets it, from -c, --rootdir and PYTEST_ADDOPTS as well as the ini file.
  PytestConfig pytest = read_pytest_config(repo->root(), pytest_invocation(config, env, options.passthrough));
  auto cache = util::cache_dir(repo->root(), env);
  auto path = cache / index_file_name();
  IngestStats stats;

  if (!options.from.empty()) {
    std::filesystem::path from(options.from);
    if (from.is_relative()) from = options.directory / from;
    auto files = project_files(*repo);
    CoverageIndex index = ingest_coverage(from, repo->root(), pytest.rootdir, python_paths(files), stats);
    index.meta.partial = "read from a coverage file: how it was run is not known";
    finish(index, *repo, files, path, stats, start, data_file_trust(options, from));
    return 0;
  }

  Command command = configured_pytest(config, env, repo->root());
  util::ensure_cache_dir(cache);
  util::remove_stale_temporaries(cache);
  auto data = cache / fmt::format("coverage-run{}.sqlite", util::temp_tag());
  std::vector<std::string> argv = command.argv;
  // pytest-cov by name, as its entry point is called: loaded even where PYTEST_DISABLE_PLUGIN_AUTOLOAD
  // turns entry points off, and a no-op where autoload already loaded it.
  argv.insert(argv.end(), {"-p", "pytest_cov"});
  // Every file of the repository is measured (tests included: their hashes tell which changed since),
  // as arcs (a resumed generator's exit is recorded for the test that resumed it); no report, and no
  // coverage threshold to fail the run.
  for (const char* arg : {"--cov-context=test", "--cov-branch", "--cov-report=", "--cov-fail-under=0"}) {
    argv.emplace_back(arg);
  }
  argv.push_back("--cov=" + repo->root().string());
  // Whether the session runs the whole suite (docs/coverage.md, "The whole suite").
  SuiteProbe probe;
  std::vector<std::string> plain = argv; // without the probe
  plain.insert(plain.end(), options.passthrough.begin(), options.passthrough.end());
  for (auto& arg : probe.pytest_args()) argv.push_back(std::move(arg));
  argv.insert(argv.end(), options.passthrough.begin(), options.passthrough.end());
  fmt::print(stderr, "impact: running the suite under coverage: {}\n",
             util::one_line(fmt::format("{}", fmt::join(argv, " "))));
  std::error_code ec;
  // A file written from here on may not be what the suite measured (file times are the file system's:
  // the clock read back from a file written now, so that a coarse or skewed clock errs towards distrust).
  TrustRule trust{TrustRule::Kind::run, util::file_system_now(cache), {}};
  // The durations plugin rides along (docs/cache.md), its folder behind the probe's.
  std::optional<TempDurationsPlugin> durations;
  if (records_durations(command, env, options.no_cache)) durations.emplace(repo->root(), cache);
  EnvPairs run_env = durations ? durations->env(env("PYTHONPATH").value_or(""), env) : EnvPairs{};
  for (auto& [name, value] : probe.env(value_in(run_env, "PYTHONPATH", env("PYTHONPATH").value_or("")))) {
    set_in(run_env, name, value);
  }
  run_env.emplace_back("COVERAGE_FILE", data.string());
  int code = util::run_and_wait(argv, repo->root(), run_env);
  if (durations) recorded_durations(cache);
  bool probed = true;
  if (!std::filesystem::exists(data, ec) && !probe.reported()) {
    // The probe could not load (a configured command that does not pass PYTHONPATH through, such as
    // tox): run without it; the index is then partial.
    fmt::print(stderr, "impact: note: pytest did not load the whole-suite probe; running the suite without it\n");
    code = util::run_and_wait(plain, repo->root(), {{"COVERAGE_FILE", data.string()}});
    probed = false;
  }
  if (!std::filesystem::exists(data, ec)) {
    throw Error("pytest exited with {} and wrote no coverage data: is pytest-cov installed for {}? install it (pip "
                "install pytest-cov, or apt install python3-pytest-cov), or build the index from an existing coverage "
                "file with impact index --from FILE; if pytest stopped on a warning of coverage.py (filterwarnings = "
                "error makes one fatal), let it through: impact index -- -W ignore::coverage.exceptions.CoverageWarning",
                code, command.argv.front());
  }
  try {
    auto files = project_files(*repo);
    CoverageIndex index = ingest_coverage(data, repo->root(), pytest.rootdir, python_paths(files), stats);
    index.meta.source = "pytest";
    if (auto installed = pytest_environment(config, env, repo->root())) index.meta.environment = versions_of(*installed);
    std::tie(index.meta.whole_suite, index.meta.partial) = probe.verdict();
    if (!probed) index.meta.partial = "the whole-suite probe did not load";
    if (auto loaded = probed ? probe.loaded() : std::nullopt) mark_loaded(index, *loaded, repo->root());
    if (probed) drop_tests(index, probe.skipped());
    finish(index, *repo, files, path, stats, start, trust);
  } catch (...) {
    std::filesystem::remove(data, ec);
    throw;
  }
  std::filesystem::remove(data, ec);
  if (code != 0) {
    fmt::print(stderr, "impact: note: pytest exited with {}; the index holds what ran (tests that did not run leave "
                       "their files to the static analysis)\n",
               code);
  }
  return code;
}

// `impact index` at a monorepo root (docs/monorepo.md): each selected project's index, built as
// `impact index` run in its folder would (its pytest, configuration and cache), one after the other,
// each reported under its name; the exit code merges theirs. A project that fails (no coverage data)
// is reported and the others still run.
int index_projects(Repository& repo, const ProjectSet& set, const cli::Options& options, const EnvLookup& env) {
  for (const auto& w : set.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  if (set.selected.size() > 1) {
    if (!options.from.empty()) {
      throw Error("--from {}: a coverage file is one project's; run it in that project (-C <project>, or --project)",
                  options.from);
    }
    if (env("IMPACT_CACHE")) {
      throw Error("IMPACT_CACHE is set: every project of the monorepo would write the same coverage index; unset it, "
                  "or index one project (-C <project>)");
    }
  }
  auto snapshot = std::make_shared<monorepo::RootSnapshot>();
  snapshot->changes = repo.changes(ChangeRequest{}); // the working tree, which every index describes
  std::vector<int> codes;
  std::vector<std::string> failed;
  for (const auto& project : set.selected) {
    fmt::print(stderr, "impact: index: {}\n", project.dir);
    monorepo::ProjectView view(repo, project.dir, snapshot);
    int code = 2;
    try {
      ImpactConfig config = load_impact_config(view.root(), env, options.config);
      code = index_one(view, config, options, env);
    } catch (const Error& e) {
      fmt::print(stderr, "impact: error: {}: {}\n", project.dir, util::one_line(e.what()));
    }
    if (code != 0) failed.push_back(fmt::format("{} (exit {})", project.dir, code));
    codes.push_back(code);
  }
  int merged = monorepo::merge_exit_codes(codes);
  if (set.selected.size() > 1) {
    fmt::print(stderr, "impact: index: {} project(s), {} without error{}{}; exit {}\n", set.selected.size(),
               set.selected.size() - failed.size(), failed.empty() ? "" : ", not clean: ",
               fmt::join(failed, ", "), merged);
  }
  return merged;
}

} // namespace

int run_index(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  if (repo->head_commit().empty()) {
    throw Error("{}: no commits yet; commit once, then build the index", repo->root().string());
  }
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  std::optional<ProjectSet> set = find_project_set(repo->root(), options, config);
  if (!set) return index_one(*repo, config, options, env);
  return index_projects(*repo, *set, options, env);
}

namespace {

// `impact index status` of the project whose folder is `root` (the repository's, or a project's).
void status_one(const std::filesystem::path& root, const std::string& head, const cli::Options& options,
                const EnvLookup& env) {
  auto path = util::cache_dir(root, env) / index_file_name();
  CoverageIndex index = read_index(path, false);
  std::vector<std::string> drifted, missing, untrusted;
  // A merged index may hold several versions of a path (by path, newest first): a file has drifted
  // when it is none of them, and is untrusted when the version it is (or else the newest) is.
  for (size_t i = 0, end = 0; i < index.files.size(); i = end) {
    const std::string& file = index.files[i].path.str;
    for (end = i; end < index.files.size() && index.files[end].path.str == file;) ++end;
    auto content = util::read_file(root / file);
    std::string oid = content ? util::git_blob_id(*content) : std::string();
    const MeasuredFile* same = &index.files[i];
    for (size_t v = i; v < end; ++v) {
      if (index.files[v].oid == oid) same = &index.files[v];
    }
    if (!same->trusted) untrusted.push_back(file);
    if (!content) missing.push_back(file);
    else if (same->oid != oid) drifted.push_back(file);
  }
  if (options.format == cli::Format::json) {
    nlohmann::json doc = {{"schema", "impact.index_status"},
                          {"version", 1},
                          {"path", path.string()},
                          {"index_schema", index.meta.schema},
                          {"built_at", index.meta.built_at},
                          {"commit", index.meta.commit},
                          {"head", head},
                          {"source", index.meta.source},
                          {"tests", index.meta.tests},
                          {"files", index.meta.files},
                          {"hashed", index.meta.hashed},
                          {"whole_suite", index.meta.whole_suite},
                          {"partial", index.meta.partial},
                          {"arcs", index.meta.arcs},
                          {"loaded", index.meta.loaded},
                          {"untrusted", untrusted},
                          {"drifted", drifted},
                          {"missing", missing}};
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print("index: {}\n", path.string());
  fmt::print("built: {} at commit {}{}\n", index.meta.built_at, index.meta.commit.substr(0, 12),
             index.meta.commit == head ? " (HEAD)" : fmt::format(" (HEAD is {})", head.substr(0, 12)));
  fmt::print("from: {}\n", util::one_line(index.meta.source));
  fmt::print("holds: {} test(s), {} measured file(s), {} more Python file(s) hashed\n", index.meta.tests,
             index.meta.files, index.meta.hashed);
  fmt::print("suite: {}\n", index.meta.whole_suite
                                 ? std::string("whole (a function body no test ran selects no test)")
                                 : fmt::format("partial: {} (a function body no test ran keeps the static answer)",
                                               util::one_line(index.meta.partial)));
  fmt::print("data: {}\n", index.meta.arcs ? "arcs (a resumed generator's body is answered by the tests that ran it)"
                                            : "lines (a generator's body keeps the static answer)");
  fmt::print("loaded files: {}\n", index.meta.loaded ? "recorded (with the whole suite, a change to a file the suite "
                                                        "never loaded selects no test from it)"
                                                      : "not recorded (a file no test ran keeps the static answer)");
  if (!untrusted.empty()) {
    fmt::print("untrusted: {} file(s) (nothing proves the coverage data measured them as hashed; they use the "
               "static analysis)\n",
               untrusted.size());
  }
  fmt::print("drifted since: {} file(s){}\n", drifted.size(),
             drifted.empty() ? "" : " (changes to them, and the tests that load them, use the static analysis)");
  for (size_t i = 0; i < drifted.size() && i < 50; ++i) fmt::print("  {}\n", util::quote_name(drifted[i]));
  if (drifted.size() > 50) fmt::print("  ... and {} more\n", drifted.size() - 50);
  if (!missing.empty()) fmt::print("gone since: {} file(s)\n", missing.size());
}

} // namespace

int run_index_status(const cli::Options& options) {
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory, env);
  std::string head = repo->head_commit();
  ImpactConfig config = load_impact_config(repo->root(), env, options.config);
  std::optional<ProjectSet> set = find_project_set(repo->root(), options, config);
  if (!set) {
    status_one(repo->root(), head, options, env);
    return 0;
  }
  // A monorepo: each selected project's index; text gives one block per project under its name.
  if (set->selected.size() > 1 && options.format == cli::Format::json) {
    throw Error("index status --format json describes one project's index; pick one (--project <project> or -C "
                "<project>)");
  }
  if (set->selected.size() == 1) {
    status_one(repo->root() / set->selected.front().dir, head, options, env);
    return 0;
  }
  int code = 0; // a project without a readable index is said, and the others still are
  for (size_t i = 0; i < set->selected.size(); ++i) {
    const auto& project = set->selected[i];
    fmt::print("{}# {}\n", i == 0 ? "" : "\n", project.dir);
    std::fflush(stdout);
    try {
      status_one(repo->root() / project.dir, head, options, env);
    } catch (const Error& e) {
      fmt::print(stderr, "impact: error: {}: {}\n", project.dir, util::one_line(e.what()));
      code = 2;
    }
  }
  return code;
}

int run_index_merge(const cli::Options& options) {
  std::vector<CoverageIndex> parts;
  for (const auto& input : options.inputs) {
    std::filesystem::path p(input);
    if (p.is_relative()) p = options.directory / p;
    parts.push_back(read_index(p, true));
  }
  CoverageIndex merged = merge_indexes(parts);
  std::filesystem::path out(options.output);
  if (out.is_relative()) out = options.directory / out;
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(out, ec)) && !is_index_file(out)) {
    throw Error("{}: exists and is not an impact coverage index; refusing to overwrite it; pass a new file or an "
                "index to -o",
                out.string());
  }
  write_index(merged, out);
  fmt::print(stderr, "impact: merged {} index(es): {} test(s) over {} measured file(s) into {}\n", parts.size(),
             merged.tests.size(), merged.meta.files, out.string());
  return 0;
}

} // namespace impact::app
