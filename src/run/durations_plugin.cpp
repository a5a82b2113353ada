// impact's durations plugin (docs/cache.md): loaded into every pytest run impact starts, it writes
// each test's duration (set-up + call + teardown) into the cache's inbox when the session ends.
#include "run/order_plugin.hpp"

#include "impact/run/durations.hpp"

#include <string>

namespace impact {

const char* const k_durations_plugin_module = "impact_durations";

namespace {

// Every hook swallows its own errors: recording durations must never change how the run goes. Under
// xdist the controller receives every worker's reports and writes one file; workers write nothing.
// Reports of a rerun attempt (pytest-rerunfailures) are not counted as time; a test whose attempt
// after a rerun passes counts as a flaky pass (docs/cache.md, "Flakes"). Node ids are made relative
// to the folder pytest was started in (impact starts it at the repository root). The run order's
// hooks are in order_plugin.cpp, appended to this source.
constexpr const char* k_source = R"PY("""Written by impact (docs/cache.md): records test durations and flaky passes into impact's cache, and orders the run. Safe to delete."""
import datetime
import json
import os
import tempfile

import pytest

_durations = {}
_reran = {}  # node id -> whether the call of its attempt after a rerun passed
_flaky = {}  # node id -> passes after a rerun, in this session
_where = {"rootdir": None, "invocation": None, "at": None}


def pytest_configure(config):
    try:
        _where["at"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        _where["rootdir"] = str(config.rootpath)
        _where["invocation"] = str(config.invocation_params.dir)
        _order["inputs"] = _order_inputs(config)
    except Exception:
        pass


def _repo_relative(nodeid):
    path, sep, rest = nodeid.partition("::")
    if not path or not _where["rootdir"] or not _where["invocation"]:
        return nodeid
    full = os.path.join(_where["rootdir"], path)
    return os.path.relpath(full, _where["invocation"]).replace(os.sep, "/") + sep + rest


def _count_flaky(report):
    # pytest-rerunfailures logs a failed attempt's phase as "rerun" and starts the test again; a
    # test whose last attempt then passes set-up, call and teardown passed only on rerun.
    nodeid = report.nodeid
    if report.outcome == "rerun":
        _reran[nodeid] = False
    elif nodeid in _reran:
        if report.when == "call":
            _reran[nodeid] = report.passed
        elif report.when == "teardown":
            if _reran.pop(nodeid) and report.passed:
                _flaky[nodeid] = _flaky.get(nodeid, 0) + 1


def pytest_runtest_logreport(report):
    try:
        _count_flaky(report)
        if getattr(report, "outcome", "") == "rerun":
            return
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + float(report.duration)
    except Exception:
        pass


def pytest_sessionfinish(session, exitstatus):
    try:
        folder = os.environ.get("IMPACT_DURATIONS_INBOX")
        if not folder or not _durations or hasattr(session.config, "workerinput"):
            return
        root = os.environ.get("IMPACT_DURATIONS_ROOT", "")
        if not root or os.path.realpath(root) != os.path.realpath(_where["invocation"] or ""):
            return  # a pytest started elsewhere with impact's environment: its ids are not this repository's
        os.makedirs(folder, exist_ok=True)
        doc = {"schema": "impact.durations.run", "version": 1, "at": _where["at"],
               "tests": {_repo_relative(k): round(v, 6) for k, v in sorted(_durations.items())}}
        if _flaky:
            doc["flaky"] = {_repo_relative(k): v for k, v in sorted(_flaky.items())}
        fd, tmp = tempfile.mkstemp(prefix=".run-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(doc, out)
        os.replace(tmp, os.path.join(folder, "run-%d-%s.json" % (os.getpid(), os.path.basename(tmp)[5:-4])))
    except Exception:
        pass
)PY";

} // namespace

const char* durations_plugin_source() {
  static const std::string k_whole = std::string(k_source) + k_order_plugin_source;
  return k_whole.c_str();
}

std::vector<std::pair<std::string, std::string>> durations_plugin_env(const std::filesystem::path& plugin_dir,
                                                                      const std::filesystem::path& inbox,
                                                                      const std::filesystem::path& root,
                                                                      const std::string& pythonpath,
                                                                      const std::string& pytest_plugins,
                                                                      const std::filesystem::path& order_durations) {
  std::string path = pythonpath.empty() ? plugin_dir.string() : plugin_dir.string() + ":" + pythonpath;
  std::string plugins = pytest_plugins.empty() ? std::string(k_durations_plugin_module)
                                               : pytest_plugins + "," + k_durations_plugin_module;
  std::vector<std::pair<std::string, std::string>> out = {{"PYTHONPATH", path},
                                                          {"PYTEST_PLUGINS", plugins},
                                                          {"IMPACT_DURATIONS_INBOX", inbox.string()},
                                                          {"IMPACT_DURATIONS_ROOT", root.string()}};
  if (!order_durations.empty()) out.emplace_back("IMPACT_ORDER_DURATIONS", order_durations.string());
  return out;
}

} // namespace impact
