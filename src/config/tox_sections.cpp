// tox.ini by section: the environments that start no test run, and the [tox] keys that only list
// environments (docs/selection.md, `config-sections`).
#include "impact/config_sections.hpp"

#include "config/logical_lines.hpp"
#include "util/ini.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace impact {

namespace {

// Programs that build documentation, lint, format, type-check, package or pin: none of them starts
// pytest or imports the code under test the way a test does.
constexpr std::array<std::string_view, 52> k_tool_programs = {
    "sphinx-build", "sphinx-autobuild", "sphinx-apidoc", "sphinx", "mkdocs", "flake8", "ruff", "black",
    "isort", "mypy", "dmypy", "pyright", "pylint", "pre-commit", "pre_commit", "twine", "pip-compile",
    "pip-compile-multi", "pip-sync", "piptools", "codespell", "pyspelling", "check-manifest", "check_manifest",
    "towncrier", "bump2version", "bumpversion", "pydocstyle", "pycodestyle", "pyflakes", "bandit", "vulture",
    "pip-audit", "interrogate", "doc8", "rst-lint", "rstcheck", "yamllint", "blacken-docs", "pyupgrade",
    "autoflake", "docformatter", "mdformat", "typos", "pip", "build", "pyproject-build", "pep517",
    "check-wheel-contents", "validate-pyproject", "pyroma", "slotscheck"};

bool tool_program(std::string_view word) {
  // `{envbindir}/flake8`, `/usr/bin/ruff`: the program's own name.
  size_t cut = word.find_last_of("/}");
  if (cut != std::string_view::npos) word = word.substr(cut + 1);
  // `pep517.check`, `sphinx.cmd.build`: a module run with -m is known by its package.
  word = word.substr(0, word.find('.'));
  return std::find(k_tool_programs.begin(), k_tool_programs.end(), word) != k_tool_programs.end();
}

bool interpreter_word(std::string_view word) {
  size_t cut = word.find_last_of("/}");
  std::string_view name = cut == std::string_view::npos ? word : word.substr(cut + 1);
  return name.starts_with("python") || word == "{envpython}" || word == "{basepython}";
}

// One command line of `commands`: true when it runs a tool program, directly or as `python -m tool`.
// A leading `-` (tox: ignore the exit code) is no part of the program.
bool tool_command(std::string_view line) {
  auto words = util::shell_split(line);
  if (words.empty()) return true; // a blank line runs nothing
  if (words[0] == "-") words.erase(words.begin());
  else if (words[0].starts_with("-")) words[0].erase(0, 1);
  if (words.empty()) return false;
  if (interpreter_word(words[0])) return words.size() >= 3 && words[1] == "-m" && tool_program(words[2]);
  return tool_program(words[0]);
}

// [testenv:NAME] whose every command (commands_pre and commands_post too) runs a tool program, and
// which no other section refers to (`{[testenv:NAME]deps}`, `base = NAME`): it never starts a test run.
// An environment without commands of its own runs [testenv]'s, which may be pytest.
bool tool_environment(const util::IniFile& ini, const std::string& section) {
  if (!section.starts_with("testenv:")) return false;
  const auto* keys = ini.section(section);
  if (keys == nullptr) return false;
  auto commands = keys->find("commands");
  if (commands == keys->end()) return false;
  for (const char* key : {"commands", "commands_pre", "commands_post"}) {
    auto it = keys->find(key);
    if (it == keys->end()) continue;
    auto lines = logical_lines(it->second);
    if (!std::all_of(lines.begin(), lines.end(), [](const std::string& l) { return tool_command(l); })) return false;
  }
  std::string name = section.substr(std::string_view("testenv:").size());
  for (const auto& [other, values] : ini.sections) {
    if (other == section) continue;
    for (const auto& [key, value] : values) {
      if (value.find("[" + section + "]") != std::string::npos) return false;
      if ((key == "base" || key == "depends") && value.find(name) != std::string::npos) return false;
    }
  }
  return true;
}

// [tox] keys that list environments, as a CI matrix does: they change which environments start, not
// what a test in any of them does.
bool listing_key(std::string_view key) {
  return key == "envlist" || key == "env_list" || key == "skip_missing_interpreters" || key == "labels";
}

bool only_listing_keys(const std::map<std::string, std::string>* a, const std::map<std::string, std::string>* b) {
  if (a == nullptr || b == nullptr) return false;
  std::set<std::string> keys;
  for (const auto* side : {a, b}) {
    for (const auto& [k, v] : *side) keys.insert(k);
  }
  for (const auto& k : keys) {
    auto x = a->find(k);
    auto y = b->find(k);
    bool same = (x == a->end()) == (y == b->end()) && (x == a->end() || x->second == y->second);
    if (!same && !listing_key(k)) return false;
  }
  return true;
}

} // namespace

std::vector<std::string> sections_running_no_tests(std::string_view before, std::string_view after,
                                                   const std::vector<std::string>& changed) {
  std::string error;
  auto a = util::parse_ini(before, error);
  auto b = util::parse_ini(after, error);
  std::vector<std::string> out;
  if (!a || !b) return out;
  for (const auto& section : changed) {
    if (section == "tox") {
      if (only_listing_keys(a->section(section), b->section(section))) out.push_back(section);
      continue;
    }
    // A side where the section does not exist is no test run either; at least one side holds it.
    bool before_quiet = !a->has_section(section) || tool_environment(*a, section);
    bool after_quiet = !b->has_section(section) || tool_environment(*b, section);
    if (before_quiet && after_quiet) out.push_back(section);
  }
  return out;
}

bool section_runs_no_tests(std::string_view tox_ini, const std::string& section) {
  std::string error;
  auto ini = util::parse_ini(tox_ini, error);
  return ini && tool_environment(*ini, section);
}

} // namespace impact
