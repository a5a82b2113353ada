// Reading pytest's command-line arguments (docs/configuration.md, "pytest's own arguments").
#include "impact/project/pytest_args.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace impact {

namespace {

// pytest 7's own options that take a value (dumped from its argparse parser with its default plugins).
// `--debug` and `--cache-show` take an optional one and are left out: not consuming the next word can
// only add a positional path, never hide one.
constexpr std::string_view k_long_with_value[] = {
    "--assert",        "--basetemp",         "--capture",           "--code-highlight",
    "--color",         "--confcutdir",       "--config-file",       "--deselect",
    "--doctest-glob",  "--doctest-report",   "--durations",         "--durations-min",
    "--ignore",        "--ignore-glob",      "--import-mode",       "--junit-prefix",
    "--junit-xml",     "--junitprefix",      "--junitxml",          "--last-failed-no-failures",
    "--lfnf",          "--log-auto-indent",  "--log-cli-date-format", "--log-cli-format",
    "--log-cli-level", "--log-date-format",  "--log-file",          "--log-file-date-format",
    "--log-file-format", "--log-file-level", "--log-format",        "--log-level",
    "--maxfail",       "--override-ini",     "--pastebin",          "--pdbcls",
    "--pythonwarnings", "--rootdir",         "--show-capture",      "--tb",
    "--verbosity"};

// Options of widespread plugins that take a value (pytest-cov, pytest-xdist, pytest-timeout,
// pytest-rerunfailures, pytest-django, pytest-randomly): `--cov src` names what to measure, not a path
// to collect. `--cov` takes an optional value, which argparse consumes unless it looks like an option.
constexpr std::string_view k_plugin_long_with_value[] = {
    "--cov",        "--cov-report",  "--cov-config",     "--cov-fail-under", "--cov-context",
    "--numprocesses", "--dist",      "--maxprocesses",   "--tx",             "--rsyncdir",
    "--max-worker-restart", "--timeout", "--timeout-method", "--reruns",     "--reruns-delay",
    "--ds",         "--dc",          "--randomly-seed"};

// Short options: those taking a value, and pytest's own flags (anything else is a plugin's).
constexpr std::string_view k_short_with_value = "ckmopWrn"; // -n: pytest-xdist's worker count
constexpr std::string_view k_short_flags = "hlqsvxV";

// Long flags of pytest 7 (no value): recognised so that they are not reported as a plugin's.
constexpr std::string_view k_long_flags[] = {
    "--cache-clear", "--co", "--collect-in-virtualenv", "--collect-only", "--collectonly",
    "--continue-on-collection-errors", "--disable-pytest-warnings", "--disable-warnings",
    "--doctest-continue-on-failure", "--doctest-ignore-import-errors", "--doctest-modules", "--exitfirst",
    "--failed-first", "--ff", "--fixtures", "--fixtures-per-test", "--full-trace", "--fulltrace", "--funcargs",
    "--help", "--keep-duplicates", "--keepduplicates", "--last-failed", "--lf", "--markers", "--new-first", "--nf",
    "--no-header", "--no-showlocals", "--no-summary", "--noconftest", "--pdb", "--pyargs", "--quiet", "--runxfail",
    "--setup-only", "--setup-plan", "--setup-show", "--setuponly", "--setupplan", "--setupshow", "--showlocals",
    "--stepwise", "--stepwise-skip", "--strict", "--strict-config", "--strict-markers", "--sw", "--sw-skip",
    "--trace", "--trace-config", "--traceconfig", "--verbose", "--version", "--debug", "--cache-show"};

template <size_t N> bool is_one_of(std::string_view word, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

// Records option `name` (long form, or "-c" style short form) with `value`.
void take(PytestArgs& out, std::string_view name, const std::string& value) {
  if (name == "-o" || name == "--override-ini") {
    auto eq = value.find('=');
    if (eq == std::string::npos) out.malformed_overrides.push_back(value);
    else out.overrides.emplace_back(value.substr(0, eq), value.substr(eq + 1));
  } else if (name == "-c" || name == "--config-file") {
    out.config_file = value;
  } else if (name == "--rootdir") {
    out.rootdir = value;
  } else if (name == "--ignore") {
    out.ignore.push_back(value);
  } else if (name == "--ignore-glob") {
    out.ignore_glob.push_back(value);
  } else if (name == "--doctest-glob") {
    out.doctest_globs.push_back(value);
  }
  // -p is read by pytest_plugin_args; -k, -m, --deselect, --confcutdir, --import-mode and the rest
  // only filter, or never narrow what impact assumes: their values are consumed and not paths.
}

void flag(PytestArgs& out, std::string_view name) {
  if (name == "--doctest-modules") out.doctest_modules = true;
  else if (name == "--pyargs") out.pyargs = true;
}

// A word starting with a single '-': a cluster of short options, the first with a value ending it.
// A letter pytest does not define is a plugin's flag (xdist's -f): reading on, as argparse does, keeps
// an -o or -c later in the cluster. Returns true when the value is the next word.
bool short_cluster(PytestArgs& out, const std::string& word, const std::string* next) {
  for (size_t k = 1; k < word.size(); ++k) {
    char c = word[k];
    if (k_short_with_value.find(c) != std::string_view::npos) {
      std::string name{'-', c};
      if (k + 1 < word.size()) {
        take(out, name, word.substr(k + 1));
        return false;
      }
      if (next != nullptr) take(out, name, *next);
      return next != nullptr;
    }
    if (k_short_flags.find(c) == std::string_view::npos) out.unknown_options.push_back(std::string{'-', c});
  }
  return false;
}

} // namespace

PytestArgs parse_pytest_args(const std::vector<std::string>& argv) {
  PytestArgs out;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    const std::string* next = i + 1 < argv.size() ? &argv[i + 1] : nullptr;
    if (word == "--") {
      out.positional.insert(out.positional.end(), argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
      break;
    }
    if (word.size() < 2 || word[0] != '-') {
      out.positional.push_back(word); // "-" alone is a positional too
      continue;
    }
    if (word[1] != '-') {
      if (short_cluster(out, word, next)) ++i;
      continue;
    }
    auto eq = word.find('=');
    std::string_view name = std::string_view(word).substr(0, eq);
    if (is_one_of(name, k_long_with_value)) {
      if (eq != std::string::npos) {
        take(out, name, word.substr(eq + 1));
      } else if (next != nullptr) {
        take(out, name, *next);
        ++i;
      }
    } else if (is_one_of(name, k_plugin_long_with_value)) {
      out.unknown_options.push_back(word);
      bool optional = name == "--cov";
      if (eq == std::string::npos && next != nullptr && !(optional && next->starts_with('-'))) ++i;
    } else if (is_one_of(name, k_long_flags)) {
      flag(out, name);
    } else {
      // A plugin's option: its value, if it has one, is read as a positional path, which can only widen.
      out.unknown_options.push_back(word);
    }
  }
  return out;
}

std::vector<std::string> pytest_plugin_args(const std::vector<std::string>& argv) {
  std::vector<std::string> plugins;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string name;
    if (argv[i] == "-p") {
      if (i + 1 >= argv.size()) break;
      name = argv[++i];
    } else if (argv[i].starts_with("-p")) {
      name = argv[i].substr(2);
    } else {
      continue;
    }
    // -p no:NAME blocks a plugin; impact keeps every plugin named anywhere, which can only widen.
    if (!name.starts_with("no:") && !name.empty()) plugins.push_back(name);
  }
  return plugins;
}

std::vector<std::string> pytest_args_of_command(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string_view word = argv[i];
    auto slash = word.rfind('/');
    std::string_view base = slash == std::string_view::npos ? word : word.substr(slash + 1);
    size_t rest = 0;
    if (base == "pytest" || base == "py.test") rest = i + 1;
    else if (word == "-m" && i + 1 < argv.size() && argv[i + 1] == "pytest") rest = i + 2;
    else if (word == "-mpytest") rest = i + 1;
    if (rest != 0) return {argv.begin() + static_cast<std::ptrdiff_t>(rest), argv.end()};
  }
  return {};
}

} // namespace impact
