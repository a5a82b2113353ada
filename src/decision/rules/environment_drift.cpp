// Rule `environment-drift` (docs/selection.md): a distribution installed, upgraded or removed since the
// coverage index recorded the environment is a change too, with no file to show it.
#include "decision/rules/non_python.hpp"

#include <fmt/format.h>

namespace impact::decision {

namespace {

std::string describe(const MovedDistribution& m) {
  if (m.before.empty()) return fmt::format("{} {} installed", m.name, m.after);
  if (m.after.empty()) return fmt::format("{} {} removed", m.name, m.before);
  return fmt::format("{} {} -> {}", m.name, m.before, m.after);
}

} // namespace

NonPythonVerdict NonPythonRules::drift(const std::vector<MovedDistribution>& moved) {
  NonPythonVerdict out;
  out.kind = FileKind::pins;
  std::string what;
  PinDiff diff;
  for (const auto& m : moved) {
    what += (what.empty() ? "" : ", ") + describe(m);
    diff.distributions.push_back(m.name);
  }
  std::string changed = fmt::format("the installed environment changed since the coverage index was built ({})", what);
  auto all = [&](const std::string& detail) {
    out.effect = fmt::format("run_all: {}", to_string(Reason::environment_changed));
    out.trigger.emplace(Reason::environment_changed, detail);
    return out;
  };
  if (m_in.mode == Mode::safe || facts() == nullptr) return all(changed);
  // A removed distribution is not in the environment any more: pinned_modules finds no modules for it
  // and runs everything. One no file imports was not used by the code the tests import: nothing.
  RepoPath path{std::string(k_environment_path)};
  PinAnswer answer = pinned_modules({PinChange{path, diff}}, m_in.non_python.environment, false);
  if (!answer.run_all.empty()) return all(changed + ": " + answer.run_all);
  NonPythonEffect e = importers(path, std::move(answer), false);
  if (e.what == NonPythonEffect::What::run_all) return all(e.detail);
  out.warnings = std::move(e.warnings);
  if (e.readers.empty()) {
    out.quiet = true;
    out.effect = fmt::format("nothing: no file imports what moved ({})", what);
    return out;
  }
  out.effect = fmt::format("{}: read by {} file(s) of code: the test files that import them run whole", what,
                           e.readers.size());
  for (const auto& r : e.readers) {
    ReaderSeed seed{r, r.via};
    seed.tail.push_back(Hop{path.str, Relation::installed_version, 0, {}});
    out.readers.push_back(std::move(seed));
  }
  return out;
}

} // namespace impact::decision
