#pragma once
// The subcommands of impact, declared once, in one table (commands.cpp): name, help, the options each
// reads and the function that runs it. cli builds the command line from it; main runs what it names.
#include "cli/options.hpp"

#include <span>

namespace impact::app {

// The table, impact itself (Verb::run) first, a parent before its subcommands.
std::span<const cli::Subcommand> subcommands();

// Runs the subcommand `options` names; returns the process exit code (or execs).
int run_command(const cli::Options& options);

} // namespace impact::app
