#pragma once
// The selection pipeline, stage by stage: changes -> facts -> project layout -> graph -> decision.
#include "cli/options.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/config.hpp"
#include "impact/coverage.hpp"
#include "impact/decision.hpp"
#include "impact/graph.hpp"
#include "impact/project.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/report.hpp"
#include "impact/semantic.hpp"

#include <memory>
#include <unordered_map>

namespace impact::app {

// Everything one analysis produced, passed on to rendering and running.
struct Analysis {
  ChangeSet changes;
  Decision decision;
  ProjectSummary project;
  std::vector<StageTiming> timings;
  std::optional<IndexMeta> index; // the coverage index used, if any
  std::string index_path;
  // What the analysis could not do as asked and how it went on, in the order it happened, for the
  // command to print on stderr (print_warnings); some are in the decision's warnings too.
  std::vector<std::string> warnings;
  // Per selected file or class, the test items impact knows in it statically (shard_plan.hpp): what
  // weighs a selected id with no recorded duration.
  std::unordered_map<std::string, size_t> static_tests;
};

// Each of the analysis's warnings, one line on stderr: "impact: warning: ...".
void print_warnings(const Analysis& analysis);

// What to compare, from the flags and, in CI, the environment. Sets `no_base` when a CI run has no
// pull request base to compare with (a push build), which decides run_all on its own.
struct ChangeChoice {
  ChangeRequest request;
  std::string no_base; // why there is no base, or ""
};
ChangeChoice choose_changes(const cli::Options& options, const CiContext& ci);

// `--changed pkg/a.py` reads the path as the revision: when `--changed` names no revision but a path
// that exists, throws impact::Error saying so, with the fix. Otherwise returns, and git's own message
// for an unknown revision stands.
void check_changed_is_a_revision(Repository& repo, const cli::Options& options, const ChangeChoice& choice);

// Stage 2: both versions of every changed Python file, compared symbol by symbol.
// `python_minor`: the project's lowest Python 3 minor (ImpactConfig::python_minor), for the compile check.
std::vector<FileSemantics> semantic_diffs(Repository& repo, const ChangeSet& changes,
                                          const std::vector<SourceFile>& inventory,
                                          std::optional<uint8_t> python_minor);

// Text files pytest collects for their examples (--doctest-glob), and what the examples import.
std::vector<TextDoctest> text_doctests(Repository& repo, const ProjectLayout& layout, const PytestConfig& pytest,
                                       const std::vector<SourceFile>& inventory);

// Decides for `repo`. The facts are read through `shared_facts` when given (a monorepo's one cache,
// which its owner saves), else through the cache folder of `repo`'s root, saved here.
Analysis analyse(Repository& repo, const ImpactConfig& config, const cli::Options& options, const EnvLookup& env,
                 FactsStore* shared_facts = nullptr);

} // namespace impact::app
