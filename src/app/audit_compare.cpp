// Comparing a selection with the full run: which tests it runs, which it skips, and which of the
// skipped ones failed (the misses).
#include "app/audit.hpp"
#include "impact/report.hpp"

#include <algorithm>

namespace impact::app {

namespace {

// Whether selecting `s` runs `test`. A file pytest could not collect is run (and fails the same way)
// when anything in it is selected.
bool runs(const SelectedTest& s, const TestOutcome& test) {
  return covers(s.node_id, test.node_id) || (test.collection_error && covers(test.node_id, s.node_id));
}

bool runs(const Decision& decision, const TestOutcome& test) {
  if (decision.outcome == Outcome::run_all) return true;
  if (decision.outcome == Outcome::nothing) return false;
  return std::any_of(decision.selected.begin(), decision.selected.end(),
                     [&](const SelectedTest& s) { return runs(s, test); });
}

} // namespace

AuditResult audit_selection(const Decision& audited, const Decision* evidence, const std::string& evidence_error,
                            SuiteRun suite) {
  AuditResult out;
  out.suite = std::move(suite);
  std::sort(out.suite.tests.begin(), out.suite.tests.end(),
            [](const TestOutcome& a, const TestOutcome& b) { return a.node_id < b.node_id; });
  for (const auto& test : out.suite.tests) {
    bool selected = runs(audited, test);
    out.tests.push_back(AuditedTest{test, selected});
    if (selected) {
      ++out.selected;
      out.selected_failed += test.failed() ? 1 : 0;
    } else {
      ++out.skipped;
      if (test.failed()) {
        ++out.skipped_failed;
        NotSelected why = NotSelected{"unavailable", {}, {"the analysis of the change failed: " + evidence_error}};
        if (evidence != nullptr) {
          why = why_not_selected(*evidence, test.node_id);
          why.lines = describe_not_selected(why, *evidence);
        }
        out.misses.push_back(Miss{test, std::move(why), std::nullopt});
      }
    }
  }
  if (audited.outcome == Outcome::selected) {
    for (const auto& s : audited.selected) {
      bool matched = std::any_of(out.suite.tests.begin(), out.suite.tests.end(),
                                 [&](const TestOutcome& t) { return runs(s, t); });
      if (!matched) out.unmatched.push_back(s.node_id);
    }
  }
  return out;
}

void mark_known_flakes(AuditResult& result, const Flakes& flakes) {
  for (auto& miss : result.misses) {
    if (auto it = flakes.find(miss.test.node_id); it != flakes.end()) miss.flake = it->second;
  }
}

} // namespace impact::app
