// A pyproject.toml's distribution name and what it depends on (pyproject.hpp, read_distribution): the
// declared edges between the projects of a monorepo.
#include "config/pyproject.hpp"
#include "impact/error.hpp"
#include "impact/pyproject.hpp"
#include "util/files.hpp"
#include "util/ini.hpp"

#include <algorithm>
#include <cctype>

namespace impact::config {

namespace {

// The distribution a PEP 508 requirement names ("libs-a[extra]>=1; python_version>'3'" gives
// "libs-a"), and its path when it is "name @ file:..." or "name @ ./path".
void add_requirement(std::string_view text, Distribution& out) {
  size_t start = 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  size_t end = start;
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; };
  while (end < text.size() && name_char(text[end])) ++end;
  if (end > start) out.requirements.push_back(normalise_distribution(text.substr(start, end - start)));
  size_t at = text.find('@', end);
  if (at == std::string_view::npos) return;
  std::string_view url = text.substr(at + 1);
  while (!url.empty() && std::isspace(static_cast<unsigned char>(url.front()))) url.remove_prefix(1);
  url = url.substr(0, url.find_first_of(" ;"));
  if (url.starts_with("file://")) {
    url.remove_prefix(7);
    if (url.starts_with("localhost/")) url.remove_prefix(9);
  } else if (url.starts_with("file:")) {
    url.remove_prefix(5); // file:../a, as pip writes a relative one
  }
  // ${PROJECT_ROOT}/../a (uv, hatch) is relative to the file's folder, as a bare relative path is.
  if (url.starts_with("/${PROJECT_ROOT}/")) url.remove_prefix(1);
  if (url.starts_with("${PROJECT_ROOT}/")) url.remove_prefix(16);
  if (!url.empty() && url.find("://") == std::string_view::npos) out.paths.emplace_back(url);
}

void add_requirements(const toml::node* node, Distribution& out) {
  const toml::array* list = node != nullptr ? node->as_array() : nullptr;
  if (list == nullptr) return;
  for (const auto& item : *list) {
    if (auto text = item.value<std::string>()) add_requirement(*text, out);
    // [dependency-groups] may include another group ({include-group = "x"}): its names are read there.
  }
}

// A table of tables of requirement lists ([project.optional-dependencies], [dependency-groups]).
void add_requirement_lists(const toml::node* node, Distribution& out) {
  const toml::table* table = node != nullptr ? node->as_table() : nullptr;
  if (table == nullptr) return;
  for (const auto& [key, list] : *table) add_requirements(&list, out);
}

// Poetry's dependency tables: a name, then a version string or a table that may hold a path.
void add_poetry_dependencies(const toml::node* node, Distribution& out) {
  const toml::table* table = node != nullptr ? node->as_table() : nullptr;
  if (table == nullptr) return;
  for (const auto& [key, spec] : *table) {
    if (key.str() == "python") continue;
    out.requirements.push_back(normalise_distribution(key.str()));
    if (const toml::table* t = spec.as_table()) {
      if (auto path = (*t)["path"].value<std::string>()) out.paths.push_back(*path);
    }
  }
}

// Tables of sources by name whose entries may hold a path ([tool.uv.sources]).
void add_source_paths(const toml::node* node, Distribution& out) {
  const toml::table* table = node != nullptr ? node->as_table() : nullptr;
  if (table == nullptr) return;
  for (const auto& [key, spec] : *table) {
    if (const toml::table* t = spec.as_table()) {
      if (auto path = (*t)["path"].value<std::string>()) out.paths.push_back(*path);
    }
  }
}

// One logical line of a requirements file (comments and continuations already removed).
void add_requirements_line(std::string_view line, Distribution& out) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  line = trim(line);
  if (line.starts_with("-e") || line.starts_with("--editable")) {
    line.remove_prefix(line.starts_with("-e") ? 2 : 10);
    if (!line.empty() && line.front() == '=') line.remove_prefix(1);
    line = trim(line);
  } else if (line.starts_with("-")) {
    return; // -r, -c, --index-url, ...: no distribution of the monorepo
  }
  line = line.substr(0, line.find('#')); // an #egg= fragment
  std::string_view target = line.substr(0, line.find(';'));
  target = trim(target);
  if (target.starts_with("file:")) {
    target.remove_prefix(5);
    if (target.starts_with("//")) {
      target.remove_prefix(2);
      if (target.starts_with("localhost/")) target.remove_prefix(9);
    }
  } else if (target.find("://") != std::string_view::npos) {
    return; // git+https://..., a wheel's URL
  } else if (size_t slash = target.find_first_of("/\\"); slash == std::string_view::npos ||
                                                             target.find_first_of(" @<>=!~;") < slash) {
    if (!target.starts_with('.')) {
      add_requirement(line, out); // a name, or "name @ file:..."
      return;
    }
  }
  target = target.substr(0, target.find('[')); // ../a[test]
  target = trim(target);
  if (!target.empty()) out.paths.emplace_back(target);
}

} // namespace

std::vector<RequirementsFile> read_requirements_files(const std::filesystem::path& dir, const std::string& display_dir) {
  std::vector<std::pair<std::string, std::filesystem::path>> files; // (folder relative to dir, file)
  std::error_code ec;
  for (const auto& [folder, all_txt] : {std::pair<std::string, bool>{"", false}, {"requirements", true}}) {
    std::filesystem::path here = folder.empty() ? dir : dir / folder;
    if (!std::filesystem::is_directory(here, ec)) continue;
    for (std::filesystem::directory_iterator it(here, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (!name.ends_with(".txt") || (!all_txt && !name.starts_with("requirements"))) continue;
      if (!it->is_regular_file(ec)) continue;
      files.emplace_back(folder, it->path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<RequirementsFile> out;
  for (const auto& [folder, path] : files) {
    std::string rel = folder.empty() ? path.filename().string() : folder + "/" + path.filename().string();
    RequirementsFile file{display_dir.empty() ? rel : display_dir + "/" + rel, folder, {}};
    auto text = util::read_file(path);
    if (!text) throw Error("{}: cannot be read; fix its permissions", file.display_name);
    std::string logical;
    size_t start = 0;
    while (start < text->size()) {
      size_t end = text->find('\n', start);
      if (end == std::string::npos) end = text->size();
      std::string_view line(text->data() + start, end - start);
      start = end + 1;
      if (line.ends_with('\r')) line.remove_suffix(1);
      // a comment: '#' at the start or after whitespace (pip's rule); a URL's #egg= stays
      for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))) {
          line = line.substr(0, i);
          break;
        }
      }
      if (line.ends_with('\\')) {
        logical.append(line.substr(0, line.size() - 1));
        continue;
      }
      logical.append(line);
      add_requirements_line(logical, file.declared);
      logical.clear();
    }
    if (!logical.empty()) add_requirements_line(logical, file.declared);
    out.push_back(std::move(file));
  }
  return out;
}

std::string normalise_distribution(std::string_view name) {
  std::string out;
  bool separator = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      separator = true;
      continue;
    }
    if (separator && !out.empty()) out += '-';
    separator = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<Distribution> read_distribution(const std::filesystem::path& path, const std::string& display_name) {
  auto doc = read_pyproject(path, display_name);
  if (!doc) return std::nullopt;
  Distribution out;
  if (auto name = doc->at_path("project.name").value<std::string>()) out.name = normalise_distribution(*name);
  else if (auto poetry = doc->at_path("tool.poetry.name").value<std::string>()) out.name = normalise_distribution(*poetry);
  add_requirements(doc->at_path("project.dependencies").node(), out);
  add_requirement_lists(doc->at_path("project.optional-dependencies").node(), out);
  add_requirement_lists(doc->at_path("dependency-groups").node(), out);
  add_poetry_dependencies(doc->at_path("tool.poetry.dependencies").node(), out);
  add_poetry_dependencies(doc->at_path("tool.poetry.dev-dependencies").node(), out);
  if (const toml::table* groups = doc->at_path("tool.poetry.group").as_table()) {
    for (const auto& [group, table] : *groups) {
      if (const toml::table* t = table.as_table()) add_poetry_dependencies((*t)["dependencies"].node(), out);
    }
  }
  add_source_paths(doc->at_path("tool.uv.sources").node(), out);
  if (const toml::array* members = doc->at_path("tool.uv.workspace.members").as_array()) {
    for (const auto& m : *members) {
      if (auto text = m.value<std::string>()) out.workspace_members.push_back(*text);
    }
  }
  return out;
}

std::optional<Distribution> read_setup_cfg_distribution(const std::filesystem::path& path,
                                                        const std::string& display_name) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  auto text = util::read_file(path);
  if (!text) throw Error("{}: cannot be read; fix its permissions", display_name);
  std::string error;
  auto ini = util::parse_ini(*text, error);
  if (!ini) throw Error("{}: {}; fix the file (setuptools and pytest cannot read it either)", display_name, error);
  Distribution out;
  if (const auto* metadata = ini->section("metadata")) {
    if (auto it = metadata->find("name"); it != metadata->end()) out.name = normalise_distribution(it->second);
  }
  // One requirement a line ("file:" directives and comments name no distribution of the monorepo).
  auto add_lines = [&](const std::string& value) {
    size_t start = 0;
    while (start <= value.size()) {
      size_t end = value.find('\n', start);
      if (end == std::string::npos) end = value.size();
      std::string_view line(value.data() + start, end - start);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
      if (!line.empty() && line.front() != '#' && !line.starts_with("file:")) add_requirement(line, out);
      start = end + 1;
    }
  };
  if (const auto* options = ini->section("options")) {
    for (const char* key : {"install_requires", "tests_require", "setup_requires"}) {
      if (auto it = options->find(key); it != options->end()) add_lines(it->second);
    }
  }
  if (const auto* extras = ini->section("options.extras_require")) {
    for (const auto& [extra, value] : *extras) add_lines(value);
  }
  return out;
}

} // namespace impact::config
