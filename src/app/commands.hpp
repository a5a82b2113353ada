#pragma once
// The subcommands: each takes the parsed options and returns the process exit code (or execs).
#include "cli/options.hpp"

namespace impact::app {

// `impact [--changed[=REV] | --staged] [--dry-run] [-- pytest args]`: decide, then exec pytest.
int run_selection(const cli::Options& options);
// `impact select`: the decision, run nothing (select --format json: the document --impact replays).
// run_selection serves it: select is the dry run.
// `impact audit`: the whole suite once, and the failing tests the selection would have skipped.
int run_audit(const cli::Options& options);
// `impact changes`: stage 1's report.
int run_changes(const cli::Options& options);
// `impact explain TARGET`: why a test or file is selected or not.
int run_explain(const cli::Options& options);
// `impact config`: every setting with its value and source.
int run_config(const cli::Options& options);
// `impact facts FILE`: what impact reads from one Python file.
int run_facts(const cli::Options& options);
// `impact index [--from FILE]`, `impact index status`, `impact index merge A B -o OUT`.
int run_index(const cli::Options& options);
int run_index_status(const cli::Options& options);
int run_index_merge(const cli::Options& options);
// `impact install-hook [--force]`: a git pre-commit hook that runs `impact --staged`.
int run_install_hook(const cli::Options& options);

} // namespace impact::app
