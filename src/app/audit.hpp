#pragma once
// `impact audit`: the selection measured against the whole suite. The suite runs once, every test's
// outcome is recorded, and a test that failed although the selection skips it is a miss, reported with
// what the analysis knows about it. docs/audit.md says how a team uses it; docs/json.md has the document.
#include "impact/why_not_selected.hpp"
#include "impact/changes.hpp"
#include "impact/decision.hpp"
#include "impact/run.hpp"
#include "impact/run/flakes.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace impact::app {

// One test of the full run, by repository-relative node id. A file that pytest could not collect is one
// entry: its path, outcome "error", collection_error set.
struct TestOutcome {
  std::string node_id;
  std::string outcome; // passed, failed, error, skipped, xfailed, xpassed
  bool collection_error = false;

  bool failed() const { return outcome == "failed" || outcome == "error"; }
};

// The full suite's run: what was run, how it ended, and every test's outcome, sorted by node id.
struct SuiteRun {
  std::vector<std::string> argv;
  std::string source; // where pytest was found
  int exit_code = 0;
  std::vector<TestOutcome> tests;
};

// Runs `pytest` on the whole suite from `root`, with `passthrough` appended, recording each test's
// outcome through a small pytest plugin written to a temporary folder (removed afterwards). pytest's
// own output goes to stderr. Throws impact::Error when pytest cannot start, when it did not run the
// suite to the end (interrupted, internal or usage error), or when the plugin reported nothing. `env`
// gives the PYTHONPATH the plugin's folder is put in front of.
SuiteRun run_full_suite(const Command& pytest, const std::filesystem::path& root,
                        const std::vector<std::string>& passthrough, const EnvLookup& env);

// The selection under audit.
struct AuditedSelection {
  std::string file;            // the --impact file, or "" when the selection was computed now
  std::optional<DiffBase> base; // what the change was compared with, when known
  const Decision* decision = nullptr;
};

struct AuditedTest {
  TestOutcome test;
  bool selected = false;
};

// A test that failed in the full run and that the selection does not run.
struct Miss {
  TestOutcome test;
  NotSelected evidence; // what the analysis of the change knows about it
  std::optional<FlakeRecord> flake; // a known flake: it has passed on rerun before (flakes.json)
};

struct AuditResult {
  SuiteRun suite;
  std::vector<AuditedTest> tests;     // sorted by node id
  std::vector<Miss> misses;
  std::vector<std::string> unmatched; // selected node ids that no test of the full run falls under
  size_t selected = 0, selected_failed = 0, skipped = 0, skipped_failed = 0;
};

// Compares a selection with the full run. `evidence` is the analysis of the change, which explains
// each miss (it is the audited decision itself unless that was read from a file); null when that
// analysis failed, and then `evidence_error` says why. Pure.
AuditResult audit_selection(const Decision& audited, const Decision* evidence, const std::string& evidence_error,
                            SuiteRun suite);

// Marks each miss whose test is in the cache's flakes record (docs/cache.md, "Flakes"): its failure may
// be the flake's, not the change's.
void mark_known_flakes(AuditResult& result, const Flakes& flakes);

std::string render_audit_text(const AuditedSelection& selection, const AuditResult& result);
std::string render_audit_json(const AuditedSelection& selection, const AuditResult& result,
                              const std::vector<std::string>& changed_files);

} // namespace impact::app
