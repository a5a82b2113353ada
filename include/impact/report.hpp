#pragma once
#ifdef IMPACT_FORBID_REPORT // defined for the stages that may not use report (src/CMakeLists.txt)
#error "this stage may not use report (docs/architecture.md, allowed edges)"
#endif
// Renderings of one decision: the one-line summary, the dry-run text for people, and the versioned
// JSON document for machines (docs/json.md). Text may change between versions; JSON keeps its schema.
#include "impact/changes.hpp"
#include "impact/decision.hpp"
#include "impact/run.hpp"
#include "impact/run/shards.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

struct NotSelected;

// What would be exec'd for the decision.
struct RunPlan {
  std::optional<Command> command; // pytest (or the fallback); nullopt for `nothing`, or when not found
  bool fallback = false;          // command is the fallback-command
  std::vector<std::string> argv;  // the exact argv
  std::string problem;            // why there is no command although one is needed
};

// A few facts about the analysed project, for the reader.
struct ProjectSummary {
  std::string rootdir;
  std::string inifile;
  size_t python_files = 0;
  size_t test_files = 0;
  size_t parsed = 0; // files parsed this run (the rest came from the cache)
  size_t linked = 0; // files whose imports were linked this run (the rest came from the stored graph)
};

// What a --shard splits (docs/json.md, "durations"): the ids pytest is given with the seconds each is
// expected to take, where they came from, and, when a shard was chosen, the whole split.
struct ShardPlan {
  std::string suite; // "selection" (the selected node ids), "static" (the test files impact collected),
                     // "collect-only" (the node ids pytest --collect-only -q listed)
  std::vector<ShardUnit> units;
  double median = 1.0;     // what an id with no recorded duration weighs (median_seconds)
  std::string fingerprint; // plan_fingerprint(units)
  std::optional<ShardChoice> choice;
  std::vector<Shard> shards; // the split into choice->total parts, when choice is set
};

struct StageTiming {
  std::string stage;
  double ms = 0;
};

struct Report {
  std::string index_path;              // the coverage index used, or ""
  std::string index_built_at, index_commit;
  const ChangeSet* changes = nullptr; // null when the decision was replayed from a saved report
  // For a replay, the base the saved decision compared (it stays the decision's base when the replay
  // is saved again, so that the new file can be checked against HEAD too); null otherwise.
  const DiffBase* replayed_base = nullptr;
  const Decision* decision = nullptr;
  RunPlan plan;
  ProjectSummary project;
  std::vector<StageTiming> timings;
  double total_ms = 0;
  bool strict = false;
  // Monorepo mode: the project's folder ("libs/a"), which prefixes the paths of --output github so that
  // they are relative to the repository's root, and names the project in each title. "" otherwise.
  std::string project_dir;
  std::optional<ShardPlan> shards; // the units a --shard splits, when they were weighed
};

// "selected 3 test file(s) from 1 changed file(s) in 42 ms" (no "impact: " prefix).
std::string summary_line(const Report& report);
std::string render_dry_run(const Report& report, bool colour);
std::string render_json(const Report& report);
// The same document written to `out` as it is serialized, without first holding it whole in a
// string (a walk's worst case writes tens of megabytes).
void print_json(const Report& report, std::FILE* out);
// The split of a sharded dry run, for people: each shard's expected time and ids, the chosen one marked.
std::string render_shards(const ShardPlan& plan);
// GitHub Actions workflow commands (`--output github`): a ::notice for the decision (outcome, reason,
// counts), a ::notice on each file that forced the full suite, a ::warning per uncertainty (on its file
// and line) and per warning, and an ::error when what must run cannot be started.
std::string render_github(const Report& report);
// How a chain of evidence reads in text: "tests/t.py:3 (import) → src/a.py [modified]".
std::string render_chain(const std::vector<Hop>& chain);
std::string describe_base(const DiffBase& base);
// The changed files and symbols of a decision, for people: "src/a.py:Cart.total (implementation), ...".
std::string changed_symbols(const Decision& decision);
// Why a test is not selected, for people, one line each: from `why`'s kind and chain, or its own lines
// for a kind the decision does not know (audit's unavailable).
std::vector<std::string> describe_not_selected(const NotSelected& why, const Decision& decision);

// The version of the decision document that render_json writes and read_report reads.
inline constexpr int k_decision_version = 1;

// A decision read back from a saved decision document (`impact select --format json`), to be replayed
// exactly as it was decided (docs/json.md, "Replaying a saved decision").
struct SavedReport {
  Decision decision;
  std::optional<DiffBase> base; // what the saved decision compared; nullopt in a document that names none
  bool strict = false;
  std::optional<ShardPlan> shards; // $.durations (no choice, no split); nullopt when null or absent
};

// Parses a saved decision document strictly: every field present with its type, no unknown key at any
// level, the schema and version this binary writes, and a decision that is consistent with itself.
// `name` is the file as the user named it. Throws impact::Error, one line:
// "<name>: <JSON path>: <problem>; <fix>".
SavedReport parse_report(std::string_view text, const std::string& name);
// Reads `path` and parses it with parse_report. Throws impact::Error when it cannot be read.
SavedReport read_report(const std::filesystem::path& path, const std::string& name);

// The version of the fallback payload: adding a field keeps it, renaming or removing one bumps it.
inline constexpr int k_fallback_payload_version = 1;

// The JSON document the fallback command reads on its standard input (docs/configuration.md, "The
// fallback payload"): why the outcome is run_all and what changed. `changes` is null when the decision
// was replayed from a saved report, and then "base" is null and the files are the report's.
std::string fallback_payload(const Decision& decision, const ChangeSet* changes, bool strict,
                             const std::vector<std::string>& argv, const std::filesystem::path& root);

} // namespace impact
