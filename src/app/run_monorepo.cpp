// impact in monorepo mode (docs/monorepo.md): one decision per project, then each project that has
// something to run as its own pytest in its own folder, under one limit of processes, each one's
// output printed whole as it ends, and one exit code merged from theirs.
#include "app/run_monorepo.hpp"

#include "app/monorepo_payload.hpp"
#include "app/monorepo_render.hpp"
#include "app/monorepo_report.hpp"
#include "app/project_times.hpp"
#include "app/run_plan.hpp"
#include "impact/error.hpp"
#include "impact/report.hpp"
#include "impact/run.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/process_pool.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include <stdlib.h>

namespace impact::app {

namespace {

// The one project that runs, exec'd as impact execs pytest for a single project: its colours,
// signals and exit code are pytest's own. Returns only by throwing.
[[noreturn]] void exec_one(const ProjectPlan& p, const MonorepoPlan& plan, bool strict) {
  std::filesystem::path cwd = plan.root / p.project.dir;
  if (p.plan.fallback) {
    std::string payload = monorepo_fallback_payload(plan, p, strict);
    fmt::print(stderr, "impact: {}: delegating to the fallback (from {})\n", p.project.dir,
               util::one_line(p.plan.command->source));
    exec_command(p.plan.argv, cwd, {{"IMPACT_FALLBACK_REASON", monorepo_fallback_reason(p)}},
                 unlinked_temp_fd(payload), p.plan.command->source);
  }
  exec_command(p.plan.argv, cwd, {}, -1, p.plan.command->source);
}

std::string outcome_word(int code, bool timed_out, bool interrupted) {
  if (timed_out) return "timed out";
  if (interrupted && code != 0) return "interrupted";
  switch (code) {
  case 0: return "passed";
  case 1: return "failed";
  case 5: return "no tests collected";
  default: return fmt::format("exit {}", code);
  }
}

// Where each project's pytest writes the JUnit XML that --report-json reads: the --junitxml file when
// one is asked for, else a file in a temporary folder removed at the end. None for a fallback command.
class ReportFiles {
public:
  explicit ReportFiles(const cli::Options& options) : m_options(options) {
    if (options.report_json.empty() || !options.junitxml.empty()) return;
    std::string pattern = (std::filesystem::temp_directory_path() / "impact-report-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw Error("cannot make a temporary folder for --report-json in {}", pattern);
    m_folder = pattern;
  }
  ~ReportFiles() {
    std::error_code ec;
    if (!m_folder.empty()) std::filesystem::remove_all(m_folder, ec);
  }
  ReportFiles(const ReportFiles&) = delete;
  ReportFiles& operator=(const ReportFiles&) = delete;

  std::filesystem::path junit_of(const ProjectPlan& p) const {
    if (m_options.report_json.empty() || p.plan.fallback) return {};
    if (!m_options.junitxml.empty()) return junit_path(m_options, p.project);
    return m_folder / ("junit." + monorepo::slug(p.project.dir) + ".xml");
  }

private:
  const cli::Options& m_options;
  std::filesystem::path m_folder;
};

// --report-json PATH (relative to the folder impact runs in), written atomically.
void write_report(const cli::Options& options, const MonorepoPlan& plan, const std::vector<ProjectEnd>& ended, int code) {
  if (options.report_json.empty()) return;
  std::vector<std::string> warnings;
  std::string doc = render_monorepo_report(plan, ended, code, warnings);
  for (const auto& w : warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  std::filesystem::path path(options.report_json);
  if (path.is_relative()) path = std::filesystem::absolute(options.directory) / path;
  util::write_file_atomic(path, doc);
}

// --timings: the root's stages in the order they ran, each analysed project's own stages under it.
void print_timings(const MonorepoPlan& plan) {
  for (const auto& t : plan.timings) {
    fmt::print(stderr, "impact: timing {:<28} {:8.1f} ms\n", util::one_line(t.stage), t.ms);
    if (!t.stage.starts_with("analyse ")) continue;
    std::string_view dir = std::string_view(t.stage).substr(8);
    for (const auto& p : plan.projects) {
      if (p.project.dir != dir || !p.analysis) continue;
      for (const auto& s : p.analysis->timings) {
        fmt::print(stderr, "impact: timing   {:<26} {:8.1f} ms\n", util::one_line(fmt::format("{} {}", dir, s.stage)),
                   s.ms);
      }
    }
  }
  fmt::print(stderr, "impact: timing {:<28} {:8.1f} ms\n", "total", plan.total_ms);
}

} // namespace

int run_monorepo(Repository& repo, const ImpactConfig& root_config, const ProjectSet& set,
                 const cli::Options& options, const EnvLookup& env) {
  auto start = std::chrono::steady_clock::now();
  if (!options.impact_file.empty()) {
    // Not yet: each project's part would have to be replayed in its own view, with its own pytest.
    throw Error("--impact {}: a saved decision is not replayed in monorepo mode yet (-C <project> and --project "
                "included); decide again instead: impact --changed, or impact --changed=REV for the revision it "
                "compared with",
                util::quote_name(options.impact_file));
  }
  MonorepoPlan plan = plan_monorepo(repo, root_config, set, options, env);
  plan.total_ms = set.discovery_ms + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (options.timings) print_timings(plan);
  bool strict = root_config.strict.value;
  if (options.format == cli::Format::json) {
    for (const auto& w : plan.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
    fmt::print("{}", render_monorepo_json(plan, strict));
    return 0;
  }
  if (options.dry_run) {
    for (const auto& w : plan.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
    fmt::print("{}", render_monorepo_text(plan));
    return 0;
  }
  if (options.annotations == cli::Output::github) { // one set of annotations per project that was analysed
    for (const auto& p : plan.projects) {
      if (!p.analysis) continue;
      Report report = project_report(p, strict);
      report.project_dir = p.project.dir;
      fmt::print("{}", render_github(report));
    }
    std::fflush(stdout);
  }
  std::vector<const ProjectPlan*> to_run;
  for (const auto& p : plan.projects) {
    fmt::print(stderr, "impact: {}\n", util::one_line(project_line(p)));
    if (p.run == ProjectRun::none) continue;
    if (!p.plan.command) throw Error("{}: {}", p.project.dir, p.plan.problem);
    to_run.push_back(&p);
  }
  for (const auto& w : plan.warnings) fmt::print(stderr, "impact: warning: {}\n", util::one_line(w));
  if (!plan.outside.empty()) fmt::print(stderr, "impact: outside every project: {}\n", util::one_line(plan.outside_effect));
  if (to_run.empty()) {
    fmt::print(stderr, "impact: monorepo: nothing to run in {} project(s)\n", plan.projects.size());
    int code = options.changed_strict ? nothing_ran_strict() : 0;
    write_report(options, plan, {}, code);
    return code;
  }
  // One project execs its pytest, unless a merged report must be written after it.
  if (to_run.size() == 1 && options.report_json.empty()) exec_one(*to_run.front(), plan, strict);

  // The longest first (by the last run's time; a project never timed counts as longest), so that the
  // run ends about when the longest project does.
  std::filesystem::path cache = util::cache_dir(repo.root(), env);
  std::map<std::string, double> times = options.no_cache ? std::map<std::string, double>{}
                                                         : read_project_times(project_times_file(cache));
  auto time_of = [&](const ProjectPlan* p) {
    auto it = times.find(p->project.dir);
    return it == times.end() ? 1e300 : it->second;
  };
  std::stable_sort(to_run.begin(), to_run.end(),
                   [&](const ProjectPlan* a, const ProjectPlan* b) { return time_of(a) > time_of(b); });
  ReportFiles report(options);
  std::vector<util::PoolJob> jobs;
  for (const auto* p : to_run) {
    std::vector<std::string> argv = p->plan.argv;
    std::filesystem::path junit = report.junit_of(*p);
    if (!junit.empty() && options.junitxml.empty()) argv.push_back("--junitxml=" + junit.string());
    util::PoolJob job{std::move(argv), plan.root / p->project.dir, options.project_timeout, {}, {}};
    if (p->plan.fallback) { // the payload on standard input, as for one project
      job.input = monorepo_fallback_payload(plan, *p, strict);
      job.env.emplace_back("IMPACT_FALLBACK_REASON", monorepo_fallback_reason(*p));
    }
    jobs.push_back(std::move(job));
  }
  std::vector<ProjectEnd> ended;
  unsigned width = options.jobs_projects > 0 ? options.jobs_projects : std::max(1u, std::thread::hardware_concurrency());
  std::vector<int> codes;
  size_t failed = 0, passed = 0, stopped = 0;
  std::fflush(stdout);
  util::run_pool(jobs, width, [&](const util::PoolResult& r) {
    const ProjectPlan& p = *to_run[r.index];
    int code = r.timed_out || (r.interrupted && r.code != 0) ? 2 : r.code; // stopped: counts as interrupted
    codes.push_back(code);
    ended.push_back({&p, code, r.timed_out, r.interrupted, r.seconds, report.junit_of(p)});
    (code == 0 || code == 5 ? passed : r.timed_out || r.interrupted ? stopped : failed) += 1;
    fmt::print("==== {} ({} {}): {} in {:.1f} s ====\n{}", p.project.dir, to_string(p.run), to_string(p.why),
               outcome_word(r.code, r.timed_out, r.interrupted), r.seconds, r.output);
    if (!r.output.empty() && !r.output.ends_with('\n')) fmt::print("\n");
    std::fflush(stdout);
    // Only a whole run says how long the project takes: a selection, a stopped run say less.
    if (p.run == ProjectRun::all && !r.timed_out && !r.interrupted) times[p.project.dir] = r.seconds;
  });
  if (!options.no_cache) {
    try {
      util::ensure_cache_dir(cache);
      write_project_times(project_times_file(cache), times);
    } catch (const std::exception& e) {
      fmt::print(stderr, "impact: warning: {}; the projects' times are not saved\n", util::one_line(e.what()));
    }
  }
  int merged = monorepo::merge_exit_codes(codes);
  write_report(options, plan, ended, merged);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(stderr, "impact: monorepo: {} project(s) ran ({} passed, {} failed, {} interrupted), {} skipped in {:.1f} s; "
                     "exit {}\n",
             to_run.size(), passed, failed, stopped, plan.projects.size() - to_run.size(), seconds, merged);
  return merged;
}

} // namespace impact::app
