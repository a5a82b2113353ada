#include "app/shard_plan.hpp"

#include "app/analyse.hpp"
#include "app/doctor.hpp"
#include "impact/error.hpp"
#include "impact/graph.hpp"
#include "impact/node_id.hpp"
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"
#include "app/pytest_command.hpp"
#include "util/cache_dir.hpp"
#include "util/quote.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <thread>

namespace impact::app {

namespace {

// Why the static collection may not list what pytest collects; "" when it can be trusted.
std::string distrust(const PytestConfig& pytest, const ProjectFacts& facts, const StaticSuite& suite) {
  if (pytest.pyargs) return "--pyargs names packages, not files";
  FactsView view;
  for (size_t i = 0; i < facts.files.size(); ++i) {
    facts.view(i, view);
    for (const auto& s : view.symbols) {
      if (s.parent < 0 && s.qualname == "pytest_collect_file") {
        return fmt::format("{} defines pytest_collect_file, which collects tests impact cannot see", facts.files[i].path.str);
      }
    }
  }
  if (suite.ids.empty() && suite.whole_files.empty()) return "impact collected no test";
  return "";
}

std::vector<std::string> collect_only(const Command& pytest, const std::filesystem::path& root,
                                      const std::vector<std::string>& passthrough) {
  std::vector<std::string> argv = pytest.argv;
  // -q lists node ids; --verbosity=-1 keeps it at that when addopts already holds a -q (-qq lists files).
  argv.insert(argv.end(), {"--collect-only", "-q", "--verbosity=-1"});
  argv.insert(argv.end(), passthrough.begin(), passthrough.end());
  fmt::print(stderr, "impact: shard: listing the suite: {}\n", util::one_line(fmt::format("{}", fmt::join(argv, " "))));
  util::Captured run = util::run_and_capture(argv, root);
  std::vector<std::string> ids;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    size_t colons = line.find("::");
    if (colons != std::string::npos && colons > 0 && line.substr(0, colons).find(' ') == std::string::npos) {
      ids.push_back(line);
    }
  }
  // A file that failed to collect lists no id: split without it, its tests would run on no shard.
  if (run.code != 0 || ids.empty()) {
    throw Error("pytest --collect-only -q (from {}) exited with {} and listed {} test(s): the suite cannot be split "
                "without losing what it could not collect; run it, fix what it says, and shard again",
                pytest.source, run.code, ids.size());
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

} // namespace

StaticCounts static_test_counts(const std::vector<SelectedTest>& selected, const ProjectFacts& facts,
                                const ProjectLayout& layout) {
  StaticCounts out;
  FactsView view;
  for (const auto& t : selected) {
    NodeId id = NodeId::of(t.node_id);
    size_t at = facts.find(std::string(id.file));
    if (at == ProjectFacts::npos) continue;
    facts.view(at, view);
    std::string scope = dotted_qualname(id.test); // "TestX::Inner" -> "TestX.Inner", as qualnames are written
    size_t count = 0;
    bool exact = false;
    for (size_t i = 0; i < view.symbols.size(); ++i) {
      if (!layout.is_test_item(view.symbols, static_cast<int32_t>(i))) continue;
      std::string_view q = view.symbols[i].qualname;
      if (scope.empty() || q.starts_with(scope + ".")) ++count;
      exact = exact || q == scope;
    }
    if (count > 0 && !exact) out[t.node_id] = count;
  }
  return out;
}

SuiteIds suite_ids(Repository& repo, const ImpactConfig& config, const cli::Options& options, const EnvLookup& env,
                   const std::optional<Command>& pytest_command) {
  PytestConfig pytest = read_pytest_config(repo.root(), pytest_invocation(config, env, options.passthrough));
  DoctorProject project;
  project.changes = repo.changes(ChangeRequest{});
  project.inventory = repo.inventory(project.changes);
  std::vector<SourceFile> python_files;
  for (const auto& f : project.inventory) {
    if (f.path.ends_with(".py")) python_files.push_back(f);
  }
  unsigned threads = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  FactsStore cache = options.no_cache ? FactsStore() : FactsStore(util::cache_dir(repo.root(), env));
  ProjectFacts facts =
      cache.load(std::move(python_files), [&](const SourceFile& f) { return repo.read_current(f); }, threads);
  if (!options.no_cache && facts.parsed > 0) {
    try {
      cache.save(); // the next run_all's split, and the next analysis, start warm
    } catch (const Error& e) {
      fmt::print(stderr, "impact: warning: {}; continuing without saving the cache\n", util::one_line(e.what()));
    }
  }
  ProjectLayout layout(pytest, project.inventory, facts);
  ImportGraph graph = build_import_graph(layout, facts, {}, threads);
  project.facts = &facts;
  project.layout = &layout;
  project.graph = &graph;
  project.text_doctests = text_doctests(repo, layout, pytest, project.inventory);
  StaticSuite suite = static_suite(project);

  SuiteIds out;
  if (std::string why = distrust(pytest, facts, suite); !why.empty()) {
    if (!pytest_command) throw Error("{}", k_pytest_not_found);
    fmt::print(stderr, "impact: shard: the static collection is not trusted ({}); listing the suite with pytest "
                       "--collect-only -q\n",
               util::one_line(why));
    out.ids = collect_only(*pytest_command, repo.root(), options.passthrough);
    out.suite = "collect-only";
    return out;
  }
  std::set<std::string> files(suite.whole_files.begin(), suite.whole_files.end());
  for (const auto& id : suite.ids) {
    std::string file(NodeId::of(id).file);
    files.insert(file);
    ++out.counts[file];
  }
  out.ids.assign(files.begin(), files.end());
  out.suite = "static";
  return out;
}

ShardPlan weigh_plan(const std::vector<std::string>& ids, const std::string& suite, const Durations& durations,
                     const StaticCounts& counts) {
  ShardPlan plan;
  plan.suite = suite;
  plan.units = weigh_units(ids, durations, [&counts](const std::string& id) -> size_t {
    auto it = counts.find(id);
    return it == counts.end() ? 0 : it->second;
  });
  plan.median = median_seconds(durations);
  plan.fingerprint = plan_fingerprint(plan.units);
  return plan;
}

bool weighs_durations(const cli::Options& options) {
  return !options.shard.empty() || (options.verb == cli::Verb::select && options.format == cli::Format::json);
}

ShardChoice chosen_shard(const std::string& flag, const EnvLookup& env) {
  if (flag == "auto") return shard_from_ci(env);
  if (auto choice = parse_shard(flag)) return *choice;
  throw Error("--shard {}: expected K/N with 1 <= K <= N (such as 2/4), or auto", util::quote_name(flag));
}

void split_plan(ShardPlan& plan, const ShardChoice& choice) {
  plan.choice = choice;
  plan.shards = split_shards(plan.units, choice.total);
}

} // namespace impact::app
