// Running the whole suite once for `impact audit`, with every test's outcome recorded by a small pytest
// plugin. The plugin is written to a fresh temporary folder, put on PYTHONPATH and loaded with -p, so
// nothing is installed and nothing is left behind; it writes one JSON file when the session finishes.
#include "app/audit.hpp"
#include "app/durations_setup.hpp"
#include "app/plugin_folder.hpp"
#include "app/stdout_to_stderr.hpp"
#include "impact/error.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace impact::app {

namespace {

constexpr const char* k_plugin_module = "impact_audit_plugin";

// Outcomes are ranked so that a test's worst phase wins: a passing call with a failing teardown is an
// error. Node ids are made repository-relative (pytest's are relative to its rootdir). Under xdist the
// controller receives every worker's reports; workers do not write.
constexpr const char* k_plugin_source = R"PY("""Written by `impact audit` for one run and removed after it: records every test's outcome."""
import json
import os

_RANK = {"passed": 0, "skipped": 1, "xfailed": 1, "xpassed": 2, "failed": 3, "error": 3}
_outcomes = {}
_collection_errors = set()
_where = {"rootdir": ".", "invocation": "."}


def _repo_relative(nodeid):
    path, sep, rest = nodeid.partition("::")
    if not path:
        return nodeid or "."
    full = os.path.join(_where["rootdir"], path)
    return os.path.relpath(full, _where["invocation"]).replace(os.sep, "/") + sep + rest


def _record(nodeid, outcome):
    key = _repo_relative(nodeid)
    if key not in _outcomes or _RANK[outcome] > _RANK[_outcomes[key]]:
        _outcomes[key] = outcome
    return key


def pytest_configure(config):
    _where["rootdir"] = str(config.rootpath)
    _where["invocation"] = str(config.invocation_params.dir)


def pytest_runtest_logreport(report):
    wasxfail = hasattr(report, "wasxfail")
    if report.failed:
        outcome = "failed" if report.when == "call" else "error"
    elif report.skipped:
        outcome = "xfailed" if wasxfail else "skipped"
    else:
        outcome = "xpassed" if wasxfail and report.when == "call" else "passed"
    _record(report.nodeid, outcome)


def pytest_collectreport(report):
    if report.failed:
        _collection_errors.add(_record(report.nodeid, "error"))


def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):
        return
    target = os.environ["IMPACT_AUDIT_OUTCOMES"]
    tests = [{"node_id": k, "outcome": v, "collection_error": k in _collection_errors}
             for k, v in sorted(_outcomes.items())]
    with open(target + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"exitstatus": int(exitstatus), "tests": tests}, f)
    os.replace(target + ".tmp", target)
)PY";

std::vector<TestOutcome> read_outcomes(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  if (!text) return {};
  std::vector<TestOutcome> out;
  auto doc = nlohmann::json::parse(*text);
  for (const auto& t : doc.at("tests")) {
    out.push_back(TestOutcome{t.at("node_id").get<std::string>(), t.at("outcome").get<std::string>(),
                              t.at("collection_error").get<bool>()});
  }
  return out;
}

std::string meaning(int code) {
  switch (code) {
  case 2: return "interrupted";
  case 3: return "internal error";
  case 4: return "usage error";
  default: return code > 128 ? fmt::format("killed by signal {}", code - 128) : "unexpected exit code";
  }
}

} // namespace

SuiteRun run_full_suite(const Command& pytest, const std::filesystem::path& root,
                        const std::vector<std::string>& passthrough, const EnvLookup& env) {
  PluginFolder folder("impact-audit", k_plugin_module, k_plugin_source);
  auto outcomes = folder.path() / "outcomes.json";

  SuiteRun run;
  run.source = pytest.source;
  run.argv = pytest.argv;
  // A file that fails to import must not stop the run: its error is an outcome like any other.
  for (const auto& arg : folder.pytest_args()) run.argv.push_back(arg);
  run.argv.emplace_back("--continue-on-collection-errors");
  run.argv.insert(run.argv.end(), passthrough.begin(), passthrough.end());

  // The durations plugin rides along (docs/cache.md): its folder behind the audit plugin's.
  auto cache = util::cache_dir(root, env);
  std::optional<TempDurationsPlugin> durations;
  if (records_durations(pytest, env, false)) durations.emplace(root, cache);
  EnvPairs run_env = durations ? durations->env(env("PYTHONPATH").value_or(""), env) : EnvPairs{};
  std::string pythonpath = folder.pythonpath(value_in(run_env, "PYTHONPATH", env("PYTHONPATH").value_or("")));
  set_in(run_env, "PYTHONPATH", pythonpath);
  set_in(run_env, "IMPACT_AUDIT_OUTCOMES", outcomes.string());
  fmt::print(stderr, "impact: audit: running the whole suite: {}\n",
             util::one_line(fmt::format("{}", fmt::join(run.argv, " "))));
  {
    StdoutToStderr redirect;
    run.exit_code = util::run_and_wait(run.argv, root, run_env);
  }
  if (durations) recorded_durations(cache); // merged now: the next run splits with them
  // 0 passed, 1 some failed, 5 nothing collected: the suite ran to its end and the outcomes are whole.
  if (run.exit_code != 0 && run.exit_code != 1 && run.exit_code != 5) {
    throw Error("the whole suite did not run to its end: pytest exited with {} ({}); fix what pytest printed above, "
                "then audit again",
                run.exit_code, meaning(run.exit_code));
  }
  std::error_code ec;
  if (!std::filesystem::exists(outcomes, ec)) {
    throw Error("pytest ({}, from {}) exited with {} but the audit plugin recorded nothing; it is loaded with -p {} "
                "from PYTHONPATH: make sure the pytest command passes PYTHONPATH through",
                pytest.argv.front(), pytest.source, run.exit_code, k_plugin_module);
  }
  run.tests = read_outcomes(outcomes);
  return run;
}

} // namespace impact::app
