// SuiteProbe: the plugin that tells `impact index` whether pytest ran the whole suite.
#include "app/suite_probe.hpp"

#include "util/files.hpp"

#include <system_error>

namespace impact {

namespace {

constexpr const char* k_module = "impact_suite_probe";

// The plugin. Every way a session can leave tests out that pytest lets a plugin see: selection
// options from any source (the command line, addopts, PYTEST_ADDOPTS), positional arguments naming
// a part of the suite, deselection by any plugin, a collection error, a session stopped early.
constexpr const char* k_plugin = R"PY(# Written by impact index for one run (docs/coverage.md, "The whole suite"); safe to delete.
import os
import sys

import pytest

_seen = {"deselected": 0, "collect_errors": 0}
# The module files this process and its xdist workers loaded: a module imported before coverage.py
# started (a plugin named by -p, an entry point's) ran without a line recorded.
_loaded = set()
_workers = {"down": 0, "reported": 0}


def _note_loaded():
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path:
            _loaded.add(os.path.abspath(path))
            _loaded.add(os.path.realpath(path))


def pytest_configure(config):
    _note_loaded()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    _workers["down"] += 1
    files = getattr(node, "workeroutput", {}).get("impact_loaded")
    if files is not None:
        _workers["reported"] += 1
        _loaded.update(files)


# Tests that skipped themselves in their call (`pytest.skip()` in the body): they ran lines before the
# skip, and another environment may run them through (docs/coverage.md, "The whole suite").
_skipped = set()


def pytest_runtest_logreport(report):
    if report.skipped and report.when == "call":
        _skipped.add(report.nodeid)


# A process that a test's call starts records what it runs under "<test>|child", not pytest-cov's
# "<test>|run" (docs/coverage.md, "Tests that start processes"): the lines are the test's, but its
# imports leave nothing behind in this process for later tests.
@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    contexts = session.config.pluginmanager.get_plugin("_cov_contexts")
    switch = getattr(contexts, "switch_context", None)
    if switch is None:
        return

    def switch_context(item, when):
        switch(item, when)
        if when == "run" and os.environ.get("COV_CORE_CONTEXT") == item.nodeid + "|run":
            os.environ["COV_CORE_CONTEXT"] = item.nodeid + "|child"

    contexts.switch_context = switch_context


def pytest_deselected(items):
    _seen["deselected"] += len(items)


def pytest_collectreport(report):
    if report.failed:
        _seen["collect_errors"] += 1


def _why_partial(session, exitstatus):
    config = session.config
    option = config.option
    why = []
    for name, flag in (("keyword", "-k"), ("markexpr", "-m"), ("deselect", "--deselect"), ("lf", "--lf"),
                       ("stepwise", "--sw"), ("collectonly", "--collect-only")):
        if getattr(option, name, None):
            why.append(flag + " was given")
    # --ignore in the configuration defines the suite; on the command line it leaves a part out.
    if any(str(arg).startswith("--ignore") for arg in config.invocation_params.args):
        why.append("--ignore was given")
    source = getattr(config, "args_source", None)
    if source is None:
        why.append("this pytest does not say where its arguments came from")
    elif source.name == "ARGS":
        why.append("the arguments name a part of the suite (" + " ".join(config.args[:3]) + ")")
    if _seen["deselected"]:
        why.append("%d test(s) deselected" % _seen["deselected"])
    if _seen["collect_errors"]:
        why.append("%d collection error(s)" % _seen["collect_errors"])
    if session.shouldstop or session.shouldfail:
        why.append("the session stopped early (" + str(session.shouldstop or session.shouldfail) + ")")
    if int(exitstatus) not in (0, 1):
        why.append("pytest exited with %d" % int(exitstatus))
    return why


def pytest_sessionfinish(session, exitstatus):
    _note_loaded()
    path = os.environ.get("IMPACT_SUITE_REPORT")
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller reports
        session.config.workeroutput["impact_loaded"] = sorted(_loaded)
        return
    if not path:
        return
    # Every worker must have said what it loaded, or the list may lack a module.
    complete = _workers["reported"] == _workers["down"]
    with open(path + ".loaded", "w", encoding="utf-8") as out:
        out.write("complete\n" if complete else "incomplete\n")
        for name in sorted(_loaded):
            out.write(name + "\n")
    with open(path + ".skipped", "w", encoding="utf-8") as out:
        for name in sorted(_skipped):
            out.write(name + "\n")
    why = _why_partial(session, exitstatus)
    with open(path, "w", encoding="utf-8") as out:
        out.write("partial: " + "; ".join(why) + "\n" if why else "whole\n")
)PY";

} // namespace

SuiteProbe::SuiteProbe() : m_folder("impact-suite-probe", k_module, k_plugin) {}

std::vector<std::string> SuiteProbe::pytest_args() const { return m_folder.pytest_args(); }

std::vector<std::pair<std::string, std::string>> SuiteProbe::env(const std::string& pythonpath) const {
  return {{"PYTHONPATH", m_folder.pythonpath(pythonpath)}, {"IMPACT_SUITE_REPORT", report().string()}};
}

bool SuiteProbe::reported() const {
  std::error_code ec;
  return std::filesystem::exists(report(), ec);
}

std::pair<bool, std::string> SuiteProbe::verdict() const {
  auto text = util::read_file(report());
  if (!text) return {false, "the session's end was not reported (pytest stopped, or the probe did not load)"};
  std::string line = text->substr(0, text->find('\n'));
  if (line == "whole") return {true, ""};
  if (line.starts_with("partial: ")) return {false, line.substr(9)};
  return {false, "the session's report was unreadable"};
}

std::vector<std::string> SuiteProbe::skipped() const {
  std::vector<std::string> out;
  auto text = util::read_file(m_folder.path() / "report.skipped");
  for (size_t at = 0; text && at < text->size();) {
    size_t end = text->find('\n', at);
    if (end == std::string::npos) break;
    out.push_back(text->substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::optional<std::vector<std::string>> SuiteProbe::loaded() const {
  auto text = util::read_file(m_folder.path() / "report.loaded");
  if (!text || !text->starts_with("complete\n")) return std::nullopt;
  std::vector<std::string> out;
  for (size_t at = text->find('\n') + 1; at < text->size();) {
    size_t end = text->find('\n', at);
    if (end == std::string::npos) return std::nullopt; // cut short
    out.push_back(text->substr(at, end - at));
    at = end + 1;
  }
  return out;
}

} // namespace impact
