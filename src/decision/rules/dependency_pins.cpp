// Rule `dependency-pins` (docs/selection.md).
#include "decision/rules/dependency_pins.hpp"

#include <fmt/format.h>

#include <set>

namespace impact::decision {

namespace {

// pytest itself and what it always requires: a change to any of them changes every session. Its extras
// (`testing`) are its own test tools, which a session does not load.
bool pytest_core(const std::string& name, const Environment& env) {
  if (name == "pytest") return true;
  auto it = env.distributions.find("pytest");
  if (it == env.distributions.end()) return false;
  const auto& req = it->second.requirements;
  return std::find(req.begin(), req.end(), name) != req.end();
}

// The moved distributions, with what depends on them among the installed distributions when the pin
// file has no graph of its own.
std::set<std::string> with_installed_dependents(const std::vector<std::string>& moved, const Environment& env) {
  std::set<std::string> out(moved.begin(), moved.end());
  std::vector<std::string> queue(moved.begin(), moved.end());
  while (!queue.empty()) {
    std::string next = std::move(queue.back());
    queue.pop_back();
    for (const auto& [name, d] : env.distributions) {
      if (out.contains(name)) continue;
      bool required = std::find(d.requirements.begin(), d.requirements.end(), next) != d.requirements.end() ||
                      std::find(d.extra_requirements.begin(), d.extra_requirements.end(), next) !=
                          d.extra_requirements.end();
      if (required) {
        out.insert(name);
        queue.push_back(name);
      }
    }
  }
  return out;
}

} // namespace

PinAnswer pinned_modules(const std::vector<PinChange>& changes, const Environment* env, bool fast) {
  PinAnswer answer;
  for (const auto& change : changes) {
    if (!change.diff) {
      answer.run_all = fmt::format("{} changed in a way that names no distribution", change.path);
      return answer;
    }
  }
  if (env == nullptr) {
    answer.run_all = "the installed environment could not be read, so the changed pins cannot be mapped to modules";
    return answer;
  }
  for (const auto& change : changes) {
    for (const auto& direct : change.diff->distributions) {
      std::set<std::string> closure;
      if (auto d = change.diff->dependents.find(direct); change.diff->has_graph && d != change.diff->dependents.end()) {
        closure.insert(d->second.begin(), d->second.end());
        closure.insert(direct);
      } else {
        closure = with_installed_dependents({direct}, *env);
      }
      PinAnswer::Group group{change.path, direct, {}};
      for (const auto& name : closure) {
        auto it = env->distributions.find(name);
        if (pytest_core(name, *env) || (it != env->distributions.end() && it->second.pytest_plugin)) {
          answer.run_all = name == direct
                               ? fmt::format("{}: {} changes every pytest session (pytest, what it requires, or a "
                                             "pytest plugin)",
                                             change.path, name)
                               : fmt::format("{}: {} moves {}, which changes every pytest session (pytest, what it "
                                             "requires, or a pytest plugin)",
                                             change.path, direct, name);
          return answer;
        }
        if (it == env->distributions.end()) continue;
        for (const auto& module : it->second.import_names) group.modules.emplace(module, name);
      }
      auto own = env->distributions.find(direct);
      if (own == env->distributions.end() || own->second.import_names.empty()) {
        std::string why = fmt::format("{}: {} is not installed in the environment pytest runs in, or the "
                                      "modules it installs are unknown",
                                      change.path, direct);
        if (!fast) {
          answer.run_all = why;
          return answer;
        }
        answer.warnings.push_back(why + "; fast mode selects nothing for it");
      }
      answer.groups.push_back(std::move(group));
    }
  }
  return answer;
}

} // namespace impact::decision
