// Rule `source-readers` through a module object (module_files.hpp).
#include "decision/rules/module_files.hpp"

#include "impact/python/names.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace impact::decision {

namespace {

constexpr std::array<std::string_view, 3> k_file_attributes = {"__file__", "__loader__", "__spec__"};
// inspect's functions that give the file a function, class or module was defined in.
constexpr std::array<std::string_view, 2> k_file_finders = {"getfile", "getsourcefile"};

// What `root` is bound to by the file's imports, as dotted text (`k` of `import pkg.kernels as k` is
// `pkg.kernels`; `kernels` of `from . import kernels` is `.kernels`), or `root` itself; and the line of
// the import that binds it (0: none).
std::pair<std::string, uint32_t> unalias(std::string_view root, const ImportScratch& imports) {
  for (const auto& imp : imports.imports) {
    if (imp.kind == ImportKind::plain) {
      std::string_view alias = imp.aliases_begin < imp.aliases_end ? imports.aliases[imp.aliases_begin] : std::string_view();
      if (!alias.empty() && alias == root) return {std::string(imp.module), imp.line};
      if (alias.empty() && imp.module.substr(0, imp.module.find('.')) == root) return {std::string(root), imp.line};
    } else if (imp.kind == ImportKind::from) {
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        size_t a = imp.aliases_begin + (k - imp.names_begin);
        std::string_view bound = a < imp.aliases_end && !imports.aliases[a].empty() ? imports.aliases[a] : imports.names[k];
        if (bound == root) return {std::string(imp.module) + "." + std::string(imports.names[k]), imp.line};
      }
    }
  }
  return {std::string(root), 0};
}

std::optional<uint32_t> reads_module_file(const FactsView& view, const ImportScratch& imports,
                                          const std::vector<std::string>& module_names) {
  // The module named by the part of `ref` before a file attribute, if it is one of the changed module's.
  auto names_changed = [&](std::string_view ref, uint32_t& line) {
    for (size_t dot = ref.find('.'); dot != std::string_view::npos; dot = ref.find('.', dot + 1)) {
      size_t end = ref.find('.', dot + 1);
      std::string_view part = ref.substr(dot + 1, end == std::string_view::npos ? std::string_view::npos : end - dot - 1);
      if (std::find(k_file_attributes.begin(), k_file_attributes.end(), part) == k_file_attributes.end()) continue;
      std::string_view prefix = ref.substr(0, dot);
      std::string_view root = prefix.substr(0, prefix.find('.'));
      if (root.empty()) return false; // `.__file__` of a computed value
      auto [module, bound_at] = unalias(root, imports);
      module.append(prefix.substr(root.size()));
      std::string_view last = python::last_part(module);
      for (const auto& name : module_names) {
        if (python::last_part(name) == last) {
          line = bound_at;
          return true;
        }
      }
      return false;
    }
    return false;
  };
  // A name the file imports from the changed module, or the module itself (`from pkg.kernels import
  // square`, `import pkg.kernels as k`), handed to inspect.getfile() or getsourcefile() beside it.
  auto imported_from_changed = [&](std::string_view ref, uint32_t& line) {
    auto [module, bound_at] = unalias(ref.substr(0, ref.find('.')), imports);
    if (bound_at == 0) return false;
    line = bound_at;
    for (size_t start = 0; start <= module.size();) {
      size_t dot = module.find('.', start);
      std::string_view part = std::string_view(module).substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      for (const auto& name : module_names) {
        if (python::last_part(name) == part) return true;
      }
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return false;
  };
  auto finds_file = [](std::string_view ref) {
    return std::find(k_file_finders.begin(), k_file_finders.end(), python::last_part(ref)) != k_file_finders.end();
  };
  uint32_t line = 0;
  bool module_finds = std::any_of(view.begin(view.module_refs), view.end(view.module_refs), finds_file);
  for (auto it = view.begin(view.module_refs); it != view.end(view.module_refs); ++it) {
    if (names_changed(*it, line) || (module_finds && !finds_file(*it) && imported_from_changed(*it, line))) {
      return std::max<uint32_t>(line, 1);
    }
  }
  for (const auto& sym : view.symbols) {
    bool finds = std::any_of(view.begin(sym.refs), view.end(sym.refs), finds_file);
    for (auto it = view.begin(sym.refs); it != view.end(sym.refs); ++it) {
      if (names_changed(*it, line) || (finds && !finds_file(*it) && imported_from_changed(*it, line))) return sym.def_line;
    }
  }
  return std::nullopt;
}

} // namespace

std::vector<std::pair<uint32_t, uint32_t>> module_file_readers(const ProjectFacts& facts, const ImportGraph& graph,
                                                               uint32_t changed) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  if (changed >= graph.nodes.size() || graph.nodes[changed].module_names.empty()) return out;
  std::vector<uint32_t> files;
  std::vector<std::string_view> words(k_file_attributes.begin(), k_file_attributes.end());
  words.insert(words.end(), k_file_finders.begin(), k_file_finders.end());
  for (std::string_view word : words) {
    auto some = facts.files_mentioning(word);
    files.insert(files.end(), some.begin(), some.end());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  FactsView view;
  ImportScratch imports;
  for (uint32_t f : files) {
    if (f == changed || f >= facts.size()) continue;
    facts.view(f, view);
    facts.imports(f, imports);
    if (auto line = reads_module_file(view, imports, graph.nodes[changed].module_names)) out.emplace_back(f, *line);
  }
  return out;
}

} // namespace impact::decision
