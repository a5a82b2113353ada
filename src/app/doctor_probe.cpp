// The probe session of `impact doctor`: pytest, found as the run finds it, collects the suite once
// (--collect-only) with a plugin that reports what collected and where the project's packages were
// imported from, in the session the tests themselves get (rootdir insertion, the ini `pythonpath`,
// conftest.py files, PYTHONPATH: whatever pytest does to sys.path has been done when it reports).
#include "app/doctor.hpp"

#include "app/plugin_folder.hpp"
#include "app/stdout_to_stderr.hpp"
#include "impact/error.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace impact::app {

namespace {

constexpr const char* k_module = "impact_doctor_probe";

// A module imported by the tests is read from sys.modules (where the tests got it); one they did not
// import is looked up with the session's sys.path, as the tests would find it.
constexpr const char* k_plugin = R"PY(# Written by impact doctor for one run (docs/doctor.md); safe to delete.
import importlib
import importlib.util
import json
import os
import sys

_seen = {"items": [], "deselected": [], "errors": []}


def pytest_deselected(items):
    _seen["deselected"].extend(item.nodeid for item in items)


def pytest_collectreport(report):
    if report.failed:
        _seen["errors"].append(report.nodeid)


def pytest_collection_finish(session):
    _seen["items"] = [item.nodeid for item in session.items]


def _origin(name):
    module = sys.modules.get(name)
    if module is not None:
        where = getattr(module, "__file__", None)
        if where:
            return where
        path = list(getattr(module, "__path__", []) or [])
        return path[0] if path else None
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("namespace", "built-in", "frozen"):
        return spec.origin
    locations = list(spec.submodule_search_locations or [])
    return locations[0] if locations else None


def _pytest_cov():
    try:
        importlib.import_module("pytest_cov")
        return True, ""
    except Exception as e:  # ImportError, or a broken install
        return False, "%s: %s" % (type(e).__name__, e)


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("IMPACT_DOCTOR_REPORT")
    if not path or hasattr(session.config, "workerinput"):
        return
    config = session.config
    names = [n for n in os.environ.get("IMPACT_DOCTOR_PACKAGES", "").split(",") if n]
    cov, cov_error = _pytest_cov()
    inipath = getattr(config, "inipath", None)
    report = {
        "items": _seen["items"] + _seen["deselected"],
        "errors": _seen["errors"],
        "executable": sys.executable,
        "inipath": str(inipath) if inipath else None,
        "rootpath": str(getattr(config, "rootpath", "") or config.rootdir),
        "origins": [[n, _origin(n)] for n in names],
        "pytest_cov": cov,
        "pytest_cov_error": cov_error,
    }
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        json.dump(report, out)
    os.replace(path + ".tmp", path)
)PY";

std::optional<ProbeReport> read_report(const std::filesystem::path& path, std::string& problem) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    auto doc = nlohmann::json::parse(in);
    ProbeReport r;
    r.items = doc.at("items").get<std::vector<std::string>>();
    r.collect_errors = doc.at("errors").get<std::vector<std::string>>();
    r.executable = doc.at("executable").get<std::string>();
    if (!doc.at("inipath").is_null()) r.inipath = doc.at("inipath").get<std::string>();
    r.rootpath = doc.at("rootpath").get<std::string>();
    for (const auto& pair : doc.at("origins")) {
      std::optional<std::string> origin;
      if (!pair.at(1).is_null()) origin = pair.at(1).get<std::string>();
      r.origins.emplace_back(pair.at(0).get<std::string>(), origin);
    }
    r.pytest_cov = doc.at("pytest_cov").get<bool>();
    r.pytest_cov_error = doc.at("pytest_cov_error").get<std::string>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    problem = fmt::format("the doctor plugin's report is unreadable ({})", e.what());
    return std::nullopt;
  }
}

} // namespace

std::optional<ProbeReport> run_probe(const std::vector<std::string>& pytest_argv, const std::filesystem::path& root,
                                     const std::vector<std::string>& packages,
                                     const std::vector<std::string>& passthrough, const EnvLookup& env,
                                     std::string& problem) {
  PluginFolder folder("impact-doctor", k_module, k_plugin);
  auto report = folder.path() / "report.json";
  std::vector<std::string> argv = pytest_argv;
  for (const auto& arg : folder.pytest_args()) argv.push_back(arg);
  for (const char* arg : {"--collect-only", "-qq", "--continue-on-collection-errors"}) argv.emplace_back(arg);
  argv.insert(argv.end(), passthrough.begin(), passthrough.end());
  fmt::print(stderr, "impact: doctor: collecting the suite: {}\n", fmt::join(argv, " "));
  int code = 0;
  try {
    StdoutToStderr redirect;
    code = util::run_and_wait(argv, root,
                              {{"PYTHONPATH", folder.pythonpath(env("PYTHONPATH").value_or(""))},
                               {"IMPACT_DOCTOR_REPORT", report.string()},
                               {"IMPACT_DOCTOR_PACKAGES", fmt::format("{}", fmt::join(packages, ","))}});
  } catch (const Error& e) { // it cannot be started: the check's finding, not the doctor's failure
    problem = e.what();
    return std::nullopt;
  }
  auto out = read_report(report, problem);
  if (!out) {
    if (problem.empty()) {
      problem = fmt::format("pytest ({}) exited with {} and its session reported nothing: the doctor plugin did not "
                            "load, or pytest stopped before collecting; run {} --collect-only and fix what it says",
                            pytest_argv.front(), code, fmt::join(pytest_argv, " "));
    }
    return std::nullopt;
  }
  out->exit_code = code;
  return out;
}

} // namespace impact::app
