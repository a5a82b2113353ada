// The decision's vocabulary as text: the one place its enums become the words that text and JSON
// output print (docs/json.md: they are never renamed).
#include "impact/decision.hpp"

namespace impact {

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
  case Outcome::selected: return "selected";
  case Outcome::run_all: return "run_all";
  case Outcome::nothing: return "nothing";
  }
  return "nothing";
}

std::string_view to_string(FileKind kind) {
  switch (kind) {
  case FileKind::python: return "python";
  case FileKind::test: return "test";
  case FileKind::conftest: return "conftest";
  case FileKind::config: return "config";
  case FileKind::non_python: return "non_python";
  case FileKind::submodule: return "submodule";
  case FileKind::mode: return "mode";
  case FileKind::ignored: return "ignored";
  case FileKind::documentation: return "documentation";
  case FileKind::tooling: return "tooling";
  case FileKind::lint: return "lint";
  case FileKind::pins: return "pins";
  }
  return "python";
}

std::string_view to_string(TestSource source) {
  switch (source) {
  case TestSource::none: return "";
  case TestSource::coverage: return "coverage";
  case TestSource::static_: return "static";
  }
  return "";
}

std::string_view to_string(Reason reason) {
  switch (reason) {
  case Reason::none: return "";
  case Reason::config_changed: return "config_changed";
  case Reason::environment_changed: return "environment_changed";
  case Reason::unconnected_change: return "unconnected_change";
  case Reason::collect_hook: return "collect_hook";
  case Reason::unaddressable_path: return "unaddressable_path";
  case Reason::non_python_changed: return "non_python_changed";
  case Reason::submodule_changed: return "submodule_changed";
  case Reason::mode_changed: return "mode_changed";
  case Reason::uncertain_dynamic_import: return "uncertain_dynamic_import";
  case Reason::no_ci_base: return "no_ci_base";
  case Reason::syntax_error: return "syntax_error";
  case Reason::import_only_test_files: return "import_only_test_files";
  case Reason::triggered: return "triggered";
  case Reason::no_changes: return "no_changes";
  case Reason::no_tests_reached: return "no_tests_reached";
  case Reason::only_quiet_files: return "only_quiet_files";
  case Reason::only_ignored_files: return "only_ignored_files";
  case Reason::only_comments_or_formatting: return "only_comments_or_formatting";
  }
  return "";
}

const std::vector<Reason>& all_reasons() {
  static const std::vector<Reason> all = [] {
    std::vector<Reason> out;
    for (auto r = static_cast<int>(Reason::config_changed); r <= static_cast<int>(Reason::only_comments_or_formatting); ++r) {
      out.push_back(static_cast<Reason>(r));
    }
    return out;
  }();
  return all;
}

} // namespace impact
