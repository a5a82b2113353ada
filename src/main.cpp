// impact: parse -> run the command -> exit code. Errors that stop a run surface here as one line.
#include "app/commands.hpp"
#include "cli/options.hpp"
#include "impact/error.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <exception>

int main(int argc, char** argv) {
  try {
    impact::cli::Options options = impact::cli::parse(argc, argv, impact::app::subcommands());
    return impact::app::run_command(options);
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
}
