#pragma once
#ifdef IMPACT_FORBID_PROJECT // defined for the stages that may not use project (src/CMakeLists.txt)
#error "this stage may not use project (docs/architecture.md, allowed edges)"
#endif
// Reading a pytest argv the way pytest 7's argument parser does: which words are options, which of
// those take a value, and which are positional paths. Only the options that change what pytest
// collects or loads are kept; the rest are recognised so that their values are not taken for paths.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace impact {

// What one pytest argv says about collection and plugins, in the order the words came.
struct PytestArgs {
  std::vector<std::pair<std::string, std::string>> overrides; // -o KEY=VALUE, --override-ini
  std::vector<std::string> malformed_overrides;               // -o words without '=' (pytest stops on them)
  std::optional<std::string> config_file;                     // -c FILE, --config-file FILE (the last one)
  std::optional<std::string> rootdir;                         // --rootdir DIR (the last one)
  std::vector<std::string> ignore;                            // --ignore PATH
  std::vector<std::string> ignore_glob;                       // --ignore-glob GLOB
  std::vector<std::string> doctest_globs;                     // --doctest-glob GLOB
  bool doctest_modules = false;
  bool pyargs = false;
  // Paths and node ids, and every word impact cannot tell from one: the value of an option that is
  // not pytest's own (a plugin's) is kept here, which can only add collection roots.
  std::vector<std::string> positional;
  std::vector<std::string> unknown_options; // options pytest 7 itself does not define (a plugin's)
};

// Parses `argv` (no program name) like pytest's argparse parser: long options with `=VALUE` or the
// value in the next word, short options clustered (`-vx`, `-kEXPR`, `-ok=v`), `--` ending the options.
// An option pytest does not define is taken to have no value. Never throws.
PytestArgs parse_pytest_args(const std::vector<std::string>& argv);

// The plugins `-p NAME` / `-pNAME` loads, scanned the way pytest's consider_preparse does (every word,
// in order); `-p no:NAME` disables rather than loads and is left out.
std::vector<std::string> pytest_plugin_args(const std::vector<std::string>& argv);

// The arguments a configured pytest command gives pytest itself: those after its `pytest` (or
// `py.test`) word, or after `-m pytest`. Empty for a wrapper that names no pytest (its own arguments
// are not pytest's).
std::vector<std::string> pytest_args_of_command(const std::vector<std::string>& argv);

} // namespace impact
