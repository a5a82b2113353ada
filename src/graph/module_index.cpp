#include "graph/module_index.hpp"

#include <cctype>
#include <unordered_set>

namespace impact::graph {

namespace {

// Whether importlib can find a module file named `s`: any name without a dot. An import statement
// needs an identifier, but importlib.import_module("pkg.my-mod") and pytest's `-p my-plugin` take any
// text, so a file named like that is a module of the project too, reachable only by a literal name.
bool importable_part(std::string_view s) { return !s.empty() && s.find('.') == std::string_view::npos; }

// The dotted name of `rel` (a '/'-separated path without ".py"), or "" when a part holds a dot.
std::string dotted_name(std::string_view rel) {
  std::string name;
  size_t start = 0;
  for (;;) {
    size_t slash = rel.find('/', start);
    std::string_view part = rel.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!importable_part(part)) return {};
    if (!name.empty()) name.push_back('.');
    name.append(part);
    if (slash == std::string_view::npos) return name;
    start = slash + 1;
  }
}

} // namespace

std::vector<std::string> module_names_of(std::string_view path, const util::StringSet& roots) {
  std::vector<std::string> names;
  if (!path.ends_with(".py")) return names;
  std::string_view stem = path.substr(0, path.size() - 3);
  if (stem.ends_with("/__init__")) stem.remove_suffix(9);
  else if (stem == "__init__") return names;
  // Every folder above the module that is an import root gives it a name.
  if (roots.contains(std::string_view())) {
    if (auto name = dotted_name(stem); !name.empty()) names.push_back(std::move(name));
  }
  for (size_t slash = stem.find('/'); slash != std::string_view::npos; slash = stem.find('/', slash + 1)) {
    if (!roots.contains(stem.substr(0, slash))) continue;
    if (auto name = dotted_name(stem.substr(slash + 1)); !name.empty()) names.push_back(std::move(name));
  }
  return names;
}

const std::vector<uint32_t>& ModuleIndex::find(std::string_view name) const {
  static const std::vector<uint32_t> k_none;
  auto it = m_names.find(name);
  return it == m_names.end() ? k_none : it->second;
}

} // namespace impact::graph
