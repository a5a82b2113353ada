// impact: parse -> run the command -> exit code. Errors that stop a run surface here as one line.
#include "app/commands.hpp"
#include "cli/options.hpp"
#include "impact/error.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <exception>

int main(int argc, char** argv) {
  try {
    impact::cli::Options options = impact::cli::parse(argc, argv);
    switch (options.command) {
    case impact::cli::Command::run: return impact::app::run_selection(options);
    case impact::cli::Command::select: return impact::app::run_selection(options);
    case impact::cli::Command::audit: return impact::app::run_audit(options);
    case impact::cli::Command::changes: return impact::app::run_changes(options);
    case impact::cli::Command::explain: return impact::app::run_explain(options);
    case impact::cli::Command::config: return impact::app::run_config(options);
    case impact::cli::Command::facts: return impact::app::run_facts(options);
    case impact::cli::Command::index: return impact::app::run_index(options);
    case impact::cli::Command::index_status: return impact::app::run_index_status(options);
    case impact::cli::Command::index_merge: return impact::app::run_index_merge(options);
    case impact::cli::Command::install_hook: return impact::app::run_install_hook(options);
    }
  } catch (const impact::cli::Exit& e) {
    return e.code;
  } catch (const impact::Error& e) {
    // One line whatever names it quotes: a file name cannot start a line of its own (util/quote.hpp).
    fmt::print(stderr, "impact: error: {}\n", impact::util::one_line(e.what()));
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "impact: internal error: {}; please report it with the command that caused it\n",
               impact::util::one_line(e.what()));
    return 2;
  }
  return 2;
}
