#include "decision/rules/file_readers.hpp"
#include "decision/rules/path_words.hpp"

#include "util/glob.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace impact {

namespace {

using path_words::extension_of;
using path_words::ascii_lower;
using path_words::one_of;

std::string_view first_component(std::string_view path) { return path.substr(0, path.find('/')); }

std::string_view stem_of(std::string_view name) {
  auto dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? name : name.substr(0, dot);
}

// Top-level folders of documentation and of news fragments (towncrier).
bool documentation_folder(std::string_view top) {
  return one_of(top, {"docs", "doc", "documentation", "changelog.d", "changes", "newsfragments", "news"});
}

// Root files that document or describe the project, matched on the lower-cased stem.
bool documentation_stem(std::string_view stem) {
  return one_of(stem, {"readme", "changes", "changelog", "history", "news", "authors", "contributors", "license",
                       "licence", "copying", "notice", "contributing", "code_of_conduct", "security", "support",
                       "maintainers", "citation", "governance", "releasing", "release", "todo", "thanks",
                       "credits", "roadmap", "hacking", "upgrading", "migrating", "patents", "styleguide",
                       // instructions for coding assistants: AGENTS.md, CLAUDE.md, GEMINI.md
                       "agents", "claude", "gemini"});
}

bool documentation_extension(std::string_view ext) {
  return one_of(ext, {"rst", "md", "markdown", "txt", "adoc", "asciidoc", "rdoc", "org", "cff"});
}

// CI and editor folders at the root.
bool tooling_folder(std::string_view top) {
  return one_of(top, {".github", ".gitlab", ".circleci", ".buildkite", ".azure-pipelines", ".devcontainer", ".vscode",
                      ".idea", ".hgsigs", ".cursor", ".claude"});
}

bool tooling_name(std::string_view name) {
  return one_of(name, {".pre-commit-config.yaml", ".pre-commit-hooks.yaml", ".editorconfig", ".gitignore",
                       ".gitattributes", ".gitmodules-ignore", ".mailmap", ".git-blame-ignore-revs", ".hgignore",
                       ".readthedocs.yaml", ".readthedocs.yml", "readthedocs.yml", "codecov.yml", ".codecov.yml",
                       ".travis.yml", "appveyor.yml", ".appveyor.yml", "azure-pipelines.yml", ".cirrus.yml",
                       ".gitlab-ci.yml", "jenkinsfile", "renovate.json", ".renovaterc", ".renovaterc.json",
                       ".prettierrc", ".prettierignore", ".markdownlint.json", ".markdownlint.yaml",
                       ".markdownlint.yml", ".yamllint", ".yamllint.yaml", ".yamllint.yml", ".codespellrc",
                       ".typos.toml", "_typos.toml", "codeowners", ".bumpversion.cfg", ".cruft.json",
                       ".copier-answers.yml", ".all-contributorsrc", ".zenodo.json", "funding.yml", "mkdocs.yml",
                       "mkdocs.yaml", ".pyspelling.yml", ".pyspelling.yaml", ".spell-dict", ".wordlist.txt",
                       ".cursorrules"});
}

// What test, coverage, packaging and type-check tools write into the working tree when they run (a
// project that does not git-ignore them sees them as untracked files after every local run): state of
// a run, not input to one. Folders at the root; names and `*.egg-info` folders anywhere.
bool tool_output_folder(std::string_view top) {
  return one_of(top, {".tox", ".nox", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".pytype",
                      ".pyre", "htmlcov", ".eggs", ".benchmarks"});
}

bool tool_output_name(std::string_view name) {
  return one_of(name, {".coverage", "coverage.xml", "coverage.json", "nosetests.xml", ".ds_store", "thumbs.db",
                       ".dmypy.json"}) ||
         name.starts_with(".coverage."); // parallel-mode data files
}

bool lint_name(std::string_view name) {
  return one_of(name, {".flake8", ".pylintrc", "pylintrc", "mypy.ini", ".mypy.ini", ".isort.cfg", "ruff.toml",
                       ".ruff.toml", ".pydocstyle", ".pydocstylerc", ".bandit", ".pep8", ".pycodestyle",
                       ".style.yapf", "pyrightconfig.json", ".darglint", ".pyre_configuration"});
}

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

} // namespace

bool in_egg_info(std::string_view path) {
  for (size_t begin = 0; begin < path.size();) {
    size_t end = path.find('/', begin);
    if (end == std::string_view::npos) return false; // the last component is the file's own name
    if (path.substr(begin, end - begin).ends_with(".egg-info")) return true;
    begin = end + 1;
  }
  return false;
}

std::optional<QuietKind> quiet_kind(const RepoPath& path) {
  std::string name = ascii_lower(path.filename());
  std::string top = ascii_lower(first_component(path.view()));
  bool at_root = path.parent().empty();
  if (lint_name(name)) return QuietKind::lint;
  if (tooling_name(name)) return QuietKind::tooling;
  if (!at_root && tooling_folder(top)) return QuietKind::tooling;
  if ((!at_root && tool_output_folder(top)) || tool_output_name(name) || in_egg_info(ascii_lower(path.view())))
    return QuietKind::tooling;
  if (!at_root && documentation_folder(top)) return QuietKind::documentation;
  if (at_root && (documentation_stem(stem_of(name)) || documentation_stem(name))) {
    std::string_view ext = extension_of(name);
    if (ext.empty() || documentation_extension(ext)) return QuietKind::documentation;
  }
  return std::nullopt;
}

bool could_name(std::string_view literal, const RepoPath& path) {
  std::string lit = ascii_lower(literal);
  std::replace(lit.begin(), lit.end(), '\\', '/');
  std::string name = ascii_lower(path.filename());
  if (contains(lit, name)) return true;
  std::string_view last = std::string_view(lit).substr(lit.rfind('/') == std::string::npos ? 0 : lit.rfind('/') + 1);
  if (last.find_first_of("*?[") != std::string_view::npos && util::fnmatch(last, name)) return true;
  std::string_view ext = extension_of(name);
  if (!ext.empty() && (lit == ext || (lit.size() == ext.size() + 1 && lit[0] == '.' && lit.ends_with(ext)))) return true;
  if (lit == stem_of(name)) return true;
  // A folder above the file, named as a component of the literal: "docs", "../docs/", "/.github/".
  std::string folders = ascii_lower(path.parent());
  for (size_t begin = 0; begin < lit.size();) {
    size_t end = lit.find('/', begin);
    if (end == std::string::npos) end = lit.size();
    std::string_view component(lit.data() + begin, end - begin);
    if (!component.empty() && component != "." && component != "..") {
      for (size_t f = 0; f < folders.size();) {
        size_t g = folders.find('/', f);
        if (g == std::string::npos) g = folders.size();
        if (std::string_view(folders).substr(f, g - f) == component) return true;
        f = g + 1;
      }
    }
    begin = end + 1;
  }
  return false;
}

bool could_name_source(std::string_view literal, const RepoPath& path, bool scans, bool lists) {
  std::string lit = ascii_lower(literal);
  std::replace(lit.begin(), lit.end(), '\\', '/');
  std::string name = ascii_lower(path.filename());
  size_t at = lit.find(name);
  if (at != std::string::npos && (at == 0 || lit[at - 1] == '/' || lit[at - 1] == '.')) {
    bool common = name.starts_with("__") || name == "conftest.py" || name == "setup.py";
    if (!common) return true;
    std::string folder = ascii_lower(path.parent());
    folder = folder.substr(folder.rfind('/') == std::string::npos ? 0 : folder.rfind('/') + 1);
    if (!folder.empty() && at > folder.size() && std::string_view(lit).substr(at - folder.size() - 1, folder.size()) == folder) return true;
  }
  if (!scans) return false;
  if (lit == ".py") return lists;
  std::string_view last = std::string_view(lit).substr(lit.rfind('/') == std::string::npos ? 0 : lit.rfind('/') + 1);
  return last.find_first_of("*?[") != std::string_view::npos && last.find(".py") != std::string_view::npos &&
         util::fnmatch(last, name);
}

bool collects_documentation(std::string_view pytest_arg) {
  std::string arg = ascii_lower(pytest_arg);
  // pytest's own doctest options read modules' docstrings, and --doctest-glob names the text files it
  // collects (they are tests of their own, rule `doctest-glob`): none makes other documentation a test.
  for (std::string_view own : {"--doctest-modules", "--doctest-continue-on-failure", "--doctest-report",
                               "--doctest-ignore-import-errors", "--doctest-glob"}) {
    if (arg.starts_with(own)) return false;
  }
  for (size_t begin = 0; begin < arg.size();) {
    size_t end = begin;
    while (end < arg.size() && std::isalnum(static_cast<unsigned char>(arg[end]))) ++end;
    std::string_view word(arg.data() + begin, end - begin);
    if (one_of(word, {"doctest", "doctests", "doctestplus", "markdown", "md", "rst", "codeblock", "codeblocks", "sybil",
                      "mdtest", "readme", "docs"})) {
      return true;
    }
    begin = end + 1;
  }
  return false;
}

bool runs_linters(std::string_view pytest_arg) {
  std::string arg = ascii_lower(pytest_arg);
  for (std::string_view tool : {"mypy", "flake8", "pylint", "ruff", "black", "isort", "codestyle", "docstyle", "pep8",
                                "lint", "pyright", "bandit", "pyflakes", "mccabe"}) {
    if (contains(arg, tool)) return true;
  }
  return false;
}

} // namespace impact
