#include "impact/config_sections.hpp"

#include "util/ini.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <set>

namespace impact {

namespace {

// Tools that read their section to check, format or release code; none is imported by tests or
// changes what pytest runs. A pytest plugin that runs one of them (pytest-mypy, pytest-ruff, ...)
// makes its section matter again: the caller checks pytest's arguments for those.
constexpr std::string_view k_lint_tools[] = {
    "ruff", "black", "isort", "mypy", "pylint", "flake8", "pyright", "codespell", "bandit", "pydocstyle",
    "docformatter", "autopep8", "yapf", "towncrier", "bumpversion", "bumpver", "tbump", "commitizen",
    "semantic_release", "check-manifest", "check_manifest", "pyproject-fmt", "mdformat", "typos", "vulture",
    "interrogate", "darglint", "pycln", "autoflake", "flynt", "refurb", "pyupgrade", "pep8", "pycodestyle",
    "pyflakes", "mccabe", "doc8", "rstcheck", "blacken-docs", "cibuildwheel", "repo-review", "sp-repo-review",
    "zest.releaser", "zest-releaser", "build_sphinx", "sphinx", "jupyterbook", "pydoclint", "slotscheck",
    "pylsp", "jedi", "basedpyright", "deptry", "licensecheck"};

bool is_lint_tool(std::string_view name) {
  return std::find(std::begin(k_lint_tools), std::end(k_lint_tools), name) != std::end(k_lint_tools);
}

std::optional<toml::table> parse_toml(std::string_view text) {
  try {
    return toml::parse(text);
  } catch (const toml::parse_error&) {
    return std::nullopt;
  }
}

const toml::table* subtable(const toml::table& t, std::string_view key) {
  const toml::node* n = t.get(key);
  return n == nullptr ? nullptr : n->as_table();
}

bool same_node(const toml::node* a, const toml::node* b) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->type() != b->type()) return false;
  switch (a->type()) {
  case toml::node_type::table: return *a->as_table() == *b->as_table();
  case toml::node_type::array: return *a->as_array() == *b->as_array();
  case toml::node_type::string: return *a->as_string() == *b->as_string();
  case toml::node_type::integer: return *a->as_integer() == *b->as_integer();
  case toml::node_type::floating_point: return *a->as_floating_point() == *b->as_floating_point();
  case toml::node_type::boolean: return *a->as_boolean() == *b->as_boolean();
  case toml::node_type::date: return *a->as_date() == *b->as_date();
  case toml::node_type::time: return *a->as_time() == *b->as_time();
  case toml::node_type::date_time: return *a->as_date_time() == *b->as_date_time();
  case toml::node_type::none: return true;
  }
  return false;
}

// Keys of `a` and `b` (either may be null) whose values differ, each named `prefix` + key.
void differing_keys(const toml::table* a, const toml::table* b, std::string_view prefix, std::set<std::string>& out) {
  std::set<std::string> keys;
  for (const toml::table* t : {a, b}) {
    if (t == nullptr) continue;
    for (const auto& [k, v] : *t) keys.emplace(k.str());
  }
  for (const auto& k : keys) {
    const toml::node* x = a == nullptr ? nullptr : a->get(k);
    const toml::node* y = b == nullptr ? nullptr : b->get(k);
    if (!same_node(x, y)) out.emplace(std::string(prefix) + k);
  }
}

std::optional<std::vector<std::string>> toml_sections(std::string_view before, std::string_view after) {
  auto a = parse_toml(before);
  auto b = parse_toml(after);
  if (!a || !b) return std::nullopt;
  std::set<std::string> out;
  std::set<std::string> top;
  for (const toml::table* t : {&*a, &*b}) {
    for (const auto& [k, v] : *t) top.emplace(k.str());
  }
  for (const auto& k : top) {
    if (k == "tool" || k == "project") {
      const toml::node* x = a->get(k);
      const toml::node* y = b->get(k);
      bool tables = (x == nullptr || x->is_table()) && (y == nullptr || y->is_table());
      if (tables) {
        differing_keys(subtable(*a, k), subtable(*b, k), k + ".", out);
        continue;
      }
    }
    if (!same_node(a->get(k), b->get(k))) out.emplace(k);
  }
  return std::vector<std::string>(out.begin(), out.end());
}

std::optional<std::vector<std::string>> ini_sections(std::string_view before, std::string_view after) {
  std::string error;
  auto a = util::parse_ini(before, error);
  auto b = util::parse_ini(after, error);
  if (!a || !b) return std::nullopt;
  std::set<std::string> names;
  for (const auto* ini : {&*a, &*b}) {
    for (const auto& [name, keys] : ini->sections) names.emplace(name);
  }
  std::vector<std::string> out;
  for (const auto& name : names) {
    const auto* x = a->section(name);
    const auto* y = b->section(name);
    if (x == nullptr || y == nullptr || *x != *y) out.push_back(name);
  }
  return out;
}

} // namespace

bool sectioned_config(const RepoPath& path) {
  std::string_view name = path.filename();
  return name == "pyproject.toml" || name == "setup.cfg" || name == "tox.ini";
}

std::optional<std::vector<std::string>> changed_sections(const RepoPath& path, std::string_view before,
                                                          std::string_view after) {
  if (path.filename() == "pyproject.toml") return toml_sections(before, after);
  return ini_sections(before, after);
}

bool dependency_section(std::string_view section) {
  return section == "project.dependencies" || section == "project.optional-dependencies" ||
         section == "dependency-groups";
}

std::optional<std::vector<std::pair<std::string, std::vector<std::string>>>> dependency_lists(std::string_view pyproject) {
  auto doc = parse_toml(pyproject);
  if (!doc) return std::nullopt;
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  auto list = [&](std::string name, const toml::node& node) {
    const auto* array = node.as_array();
    if (array == nullptr) return false;
    std::vector<std::string> items;
    for (const auto& item : *array) {
      if (auto s = item.value<std::string>()) {
        items.push_back(*s);
      } else if (const auto* t = item.as_table(); t != nullptr && (*t)["include-group"].value<std::string>()) {
        items.push_back("include-group:" + *(*t)["include-group"].value<std::string>());
      } else {
        return false;
      }
    }
    out.emplace_back(std::move(name), std::move(items));
    return true;
  };
  if (const auto* project = (*doc)["project"].as_table()) {
    if (const auto* deps = project->get("dependencies"); deps != nullptr && !list("project.dependencies", *deps)) {
      return std::nullopt;
    }
    if (const auto* extras = (*project)["optional-dependencies"].as_table()) {
      for (const auto& [k, v] : *extras) {
        std::string group = "project.optional-dependencies.";
        group += k.str();
        if (!list(std::move(group), v)) return std::nullopt;
      }
    }
  }
  if (const auto* groups = (*doc)["dependency-groups"].as_table()) {
    for (const auto& [k, v] : *groups) {
      std::string group = "dependency-groups.";
      group += k.str();
      if (!list(std::move(group), v)) return std::nullopt;
    }
  }
  return out;
}

std::vector<std::string> packaging_files(std::string_view pyproject) {
  std::vector<std::string> out;
  auto doc = parse_toml(pyproject);
  if (!doc) return out;
  const auto* project = (*doc)["project"].as_table();
  if (project == nullptr) return out;
  for (const char* key : {"readme", "license"}) {
    const toml::node* n = project->get(key);
    if (n == nullptr) continue;
    if (auto s = n->value<std::string>(); s && std::string_view(key) == "readme") out.push_back(*s);
    if (const auto* t = n->as_table()) {
      if (auto f = (*t)["file"].value<std::string>()) out.push_back(*f);
    }
  }
  if (const auto* files = (*project)["license-files"].as_array()) {
    for (const auto& f : *files) {
      if (auto s = f.value<std::string>()) out.push_back(*s);
    }
  }
  return out;
}

bool lint_section(std::string_view section) {
  if (section.starts_with("tool.")) return is_lint_tool(section.substr(5));
  // INI: "flake8", "mypy", "mypy-pkg.*", "pylint.messages control", "isort", "pycodestyle".
  std::string_view head = section.substr(0, section.find_first_of("-.: "));
  if (section.starts_with("tool:")) return false; // setup.cfg's [tool:pytest]
  return is_lint_tool(section) || is_lint_tool(head);
}

} // namespace impact
