// `impact index`: run the suite under coverage with per-test contexts (or read a coverage file), and
// write the index; `status` and `merge`.
#include "app/commands.hpp"
#include "impact/config.hpp"
#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "impact/project.hpp"
#include "impact/run.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <unistd.h>

namespace impact::app {

namespace {

void finish(CoverageIndex& index, Repository& repo, const std::filesystem::path& path, const IngestStats& stats,
            std::chrono::steady_clock::time_point start) {
  index.meta.commit = repo.head_commit();
  util::ensure_cache_dir(path.parent_path());
  write_index(index, path);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(stderr, "impact: indexed {} test(s) over {} file(s) in {:.1f} s", index.tests.size(), index.files.size(),
             seconds);
  if (stats.ignored_contexts > 0) fmt::print(stderr, " ({} context(s) that are not tests ignored)", stats.ignored_contexts);
  fmt::print(stderr, "\nimpact: wrote {}\n", path.string());
}

} // namespace

int run_index(const cli::Options& options) {
  auto start = std::chrono::steady_clock::now();
  EnvLookup env = process_env();
  auto repo = open_git_repository(options.directory);
  ImpactConfig config = load_impact_config(repo->root(), env);
  PytestConfig pytest = read_pytest_config(repo->root(), env("PYTEST_ADDOPTS").value_or(""));
  auto cache = util::cache_dir(repo->root());
  auto path = cache / index_file_name();
  IngestStats stats;

  if (!options.from.empty()) {
    std::filesystem::path from(options.from);
    if (from.is_relative()) from = options.directory / from;
    CoverageIndex index = ingest_coverage(from, repo->root(), pytest.rootdir, stats);
    finish(index, *repo, path, stats, start);
    return 0;
  }

  PytestLookup lookup{env, std::nullopt, {}, repo->root()};
  if (config.pytest_command.is_set()) {
    lookup.configured = config.pytest_command.value;
    lookup.configured_source = "pytest-command in " + config.pytest_command.source;
  }
  auto command = find_pytest(lookup);
  if (!command) {
    throw Error("pytest not found: activate the virtualenv that has it, or set IMPACT_PYTEST or [tool.impact] "
                "pytest-command");
  }
  util::ensure_cache_dir(cache);
  auto data = cache / fmt::format("coverage-run-{}.sqlite", ::getpid());
  std::vector<std::string> argv = command->argv;
  for (const char* arg : {"--cov-context=test", "--cov-report="}) argv.emplace_back(arg);
  argv.push_back("--cov=" + repo->root().string());
  argv.insert(argv.end(), options.passthrough.begin(), options.passthrough.end());
  fmt::print(stderr, "impact: running the suite under coverage: {}\n", fmt::join(argv, " "));
  int code = util::run_and_wait(argv, repo->root(), {{"COVERAGE_FILE", data.string()}});
  std::error_code ec;
  if (!std::filesystem::exists(data, ec)) {
    throw Error("pytest exited with {} and wrote no coverage data; is pytest-cov installed for {}? Install it "
                "(pip install pytest-cov, or apt install python3-pytest-cov), or build the index from an existing "
                "coverage file with impact index --from FILE",
                code, command->argv.front());
  }
  try {
    CoverageIndex index = ingest_coverage(data, repo->root(), pytest.rootdir, stats);
    index.meta.source = "pytest";
    finish(index, *repo, path, stats, start);
  } catch (...) {
    std::filesystem::remove(data, ec);
    throw;
  }
  std::filesystem::remove(data, ec);
  if (code != 0) fmt::print(stderr, "impact: note: pytest exited with {}; the index holds what ran\n", code);
  return code;
}

int run_index_status(const cli::Options& options) {
  auto repo = open_git_repository(options.directory);
  auto path = util::cache_dir(repo->root()) / index_file_name();
  CoverageIndex index = read_index(path, false);
  std::vector<std::string> drifted, missing;
  for (const auto& f : index.files) {
    auto content = util::read_file(repo->root() / f.path.str);
    if (!content) missing.push_back(f.path.str);
    else if (util::sha256_hex(*content) != f.sha256) drifted.push_back(f.path.str);
  }
  std::string head = repo->head_commit();
  if (options.format == cli::Format::json) {
    nlohmann::json doc = {{"schema", "impact.index_status"},
                          {"version", 1},
                          {"path", path.string()},
                          {"built_at", index.meta.built_at},
                          {"commit", index.meta.commit},
                          {"head", head},
                          {"source", index.meta.source},
                          {"tests", index.meta.tests},
                          {"files", index.meta.files},
                          {"drifted", drifted},
                          {"missing", missing}};
    fmt::print("{}\n", doc.dump(2));
    return 0;
  }
  fmt::print("index: {}\n", path.string());
  fmt::print("built: {} at commit {}{}\n", index.meta.built_at, index.meta.commit.substr(0, 12),
             index.meta.commit == head ? " (HEAD)" : fmt::format(" (HEAD is {})", head.substr(0, 12)));
  fmt::print("from: {}\n", index.meta.source);
  fmt::print("holds: {} test(s), {} file(s)\n", index.meta.tests, index.meta.files);
  fmt::print("drifted since: {} file(s){}\n", drifted.size(), drifted.empty() ? "" : " (their changes use the static analysis)");
  for (size_t i = 0; i < drifted.size() && i < 50; ++i) fmt::print("  {}\n", drifted[i]);
  if (drifted.size() > 50) fmt::print("  ... and {} more\n", drifted.size() - 50);
  if (!missing.empty()) fmt::print("gone since: {} file(s)\n", missing.size());
  return 0;
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
  write_index(merged, out);
  fmt::print(stderr, "impact: merged {} index(es): {} test(s) over {} file(s) into {}\n", parts.size(),
             merged.tests.size(), merged.files.size(), out.string());
  return 0;
}

} // namespace impact::app
