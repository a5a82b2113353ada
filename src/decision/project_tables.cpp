#include "decision/project_tables.hpp"

#include "decision/rules/session_hooks.hpp"
#include "decision/walk.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace impact::decision {

using resolve::FileInfo;

namespace {

constexpr size_t k_max_closures = 256; // past this many plugin modules, a plugin's scope is every file
constexpr size_t k_max_reexporters = 4096; // a bound on reexporters()' modules, against pathological graphs

} // namespace

// The files that can name a module-level symbol of `node`: the module itself, the packages and
// star-importers that re-export it (transitively), the modules that re-export one of its names by a
// module-level from-import (`from ._bag import Bag` in core.py, at any depth: reexporters()), the
// modules importing any of those, and the modules importing those (`helpers.models.save` reads
// `save` through `helpers`' import of `models`), and the files in the scope of such a conftest.py.
const std::vector<uint32_t>& ProjectTables::importers(uint32_t node) {
  return m_importers.get(node, [&] {
    std::vector<uint32_t> exporters = reexporters(node);
    NodeSet& seen = m_seen.clear(m_graph.nodes.size());
    for (uint32_t n : exporters) seen.insert(n);
    for (size_t i = 0; i < exporters.size(); ++i) {
      for (const auto& [from, edge] : m_graph.in[exporters[i]]) {
        bool reexports = m_graph.nodes[from].path.filename() == "__init__.py" || edge.kind == EdgeKind::star_import;
        if (reexports && seen.insert(from)) exporters.push_back(from);
      }
    }
    std::vector<uint32_t> out = exporters;
    for (int hop = 0; hop < 2; ++hop) {
      size_t end = out.size();
      for (size_t i = 0; i < end; ++i) {
        for (const auto& [from, edge] : m_graph.in[out[i]]) {
          if (edge.kind == EdgeKind::package_init || edge.kind == EdgeKind::conftest) continue;
          if (seen.insert(from)) out.push_back(from);
        }
      }
    }
    // A conftest.py holding the module hands it to the tests in its scope as a fixture's value
    // (`def legacy(): return api`), which read its names as `legacy.get`.
    size_t end = out.size();
    for (size_t i = 0; i < end; ++i) {
      if (m_graph.nodes[out[i]].path.filename() != "conftest.py") continue;
      for (const auto& [from, edge] : m_graph.in[out[i]]) {
        if (edge.kind == EdgeKind::conftest && seen.insert(from)) out.push_back(from);
      }
    }
    return out;
  });
}

// `node`, and the modules that bind one of its names, or of theirs, by a module-level from-import:
// each known with the names it binds so (`*` for every name of `node` itself). A package's __init__.py
// and a star import re-export every name, which importers() adds; here only the names a plain
// module imports carry on, so that a module importing one helper of another does not hand on the rest.
std::vector<uint32_t> ProjectTables::reexporters(uint32_t node) {
  std::map<uint32_t, std::set<std::string_view>> names{{node, {"*"}}};
  std::vector<uint32_t> order{node}, queue{node};
  while (!queue.empty() && order.size() < k_max_reexporters) {
    uint32_t m = queue.back();
    queue.pop_back();
    for (const auto& [from, edge] : m_graph.in[m]) {
      if (edge.kind != EdgeKind::from_import || from >= m_facts.size()) continue;
      const std::set<std::string_view>& exported = names[m];
      std::vector<std::string_view> bound;
      m_facts.imports(from, m_scratch);
      for (const auto& imp : m_scratch.imports) {
        if (imp.kind != ImportKind::from || imp.line != edge.line || (imp.flags & k_import_in_function) != 0) continue;
        for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
          if (!exported.contains("*") && !exported.contains(m_scratch.names[k])) continue;
          size_t a = imp.aliases_begin + (k - imp.names_begin);
          bound.push_back(a < imp.aliases_end && !m_scratch.aliases[a].empty() ? m_scratch.aliases[a] : m_scratch.names[k]);
        }
      }
      if (bound.empty()) continue;
      auto [it, added] = names.try_emplace(from);
      size_t before = it->second.size();
      it->second.insert(bound.begin(), bound.end());
      if (added) order.push_back(from);
      if (it->second.size() != before) queue.push_back(from);
    }
  }
  if (!queue.empty()) return all_files(); // past the bound: any module may hand the name on
  return order;
}

const std::vector<uint32_t>& ProjectTables::closure(uint32_t node) {
  if (const auto* known = m_closures.find(node)) return *known;
  if (m_closures.size() >= k_max_closures) return all_files();
  return m_closures.get(node, [&] {
    ReverseWalk walk(m_graph);
    walk.seed(node, Relation::changed);
    walk.run();
    return walk.order();
  });
}

const std::vector<uint32_t>& ProjectTables::all_files() {
  return m_all.get([&] {
    std::vector<uint32_t> all(m_facts.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
  });
}

const ProjectTables::Dynamic& ProjectTables::dynamic() {
  return m_dynamic.get([&] {
    Dynamic dynamic;
    dynamic.is.assign(m_facts.size(), 0);
    for (uint32_t i = 0; i < m_facts.size(); ++i) {
      if (m_facts.header(i).has_dynamic_access) {
        dynamic.files.push_back(i);
        dynamic.is[i] = 1;
      }
    }
    // Candidates for every name too, found by the name they spell: an import of a module no file is
    // may bind any module's symbol (`from pkg._native import speed`, with pkg.pure put in sys.modules).
    for (uint32_t n : m_graph.open_submodule_importers) {
      if (n < m_facts.size() && dynamic.is[n] == 0) dynamic.files.push_back(n);
    }
    std::sort(dynamic.files.begin(), dynamic.files.end());
    return dynamic;
  });
}

const std::vector<uint32_t>& ProjectTables::dynamic_files() { return dynamic().files; }

bool ProjectTables::is_dynamic(uint32_t node) {
  const std::vector<char>& is = dynamic().is;
  return node < is.size() && is[node] != 0;
}

bool ProjectTables::reads_unspelled_names(uint32_t node) {
  static const uint32_t k_dict_hash = ProjectFacts::mention_hash("__dict__");
  static const uint32_t k_code_hash = ProjectFacts::mention_hash(k_code_string_name);
  return is_dynamic(node) || m_facts.mentions_hash(node, k_dict_hash) || m_facts.mentions_hash(node, k_code_hash);
}

bool ProjectTables::star_imports(uint32_t importer, uint32_t node) const {
  return std::any_of(m_graph.in[node].begin(), m_graph.in[node].end(), [&](const auto& link) {
    return link.first == importer && link.second.kind == EdgeKind::star_import;
  });
}

std::span<const std::pair<std::string_view, std::string_view>> ProjectTables::renamed_imports(uint32_t node) {
  return m_renamed.get(node, [&] {
    Renamed renamed;
    m_facts.imports(node, m_scratch);
    for (const auto& imp : m_scratch.imports) {
      if (imp.kind != ImportKind::from) continue;
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        size_t a = imp.aliases_begin + (k - imp.names_begin);
        if (a < imp.aliases_end && m_scratch.aliases[a] != m_scratch.names[k]) {
          renamed.emplace_back(m_scratch.names[k], m_scratch.aliases[a]);
        }
      }
    }
    return renamed;
  });
}

const std::vector<StringRef>& ProjectTables::string_refs(uint32_t node, const FileInfo& info) {
  // Asked once per (symbol, candidate file): the answers made already are found by position.
  if (m_string_refs_at.size() != m_graph.nodes.size()) m_string_refs_at.assign(m_graph.nodes.size(), nullptr);
  if (node < m_string_refs_at.size() && m_string_refs_at[node] != nullptr) return *m_string_refs_at[node];
  const std::vector<StringRef>& refs = m_string_refs.get(node, [&] {
    std::vector<StringRef> out;
    for (const auto& imp : info.imports.imports) {
      if (imp.kind != ImportKind::string_ref) continue;
      std::string full(imp.module);
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) full.append(".").append(info.imports.names[k]);
      auto parts = resolve::split_chain(full);
      StringRef ref;
      ref.line = imp.line;
      for (size_t k = parts.size(); k > 0; --k) {
        std::string_view prefix(full.data(), static_cast<size_t>(parts[k - 1].data() + parts[k - 1].size() - full.data()));
        for (uint32_t module : m_graph.modules_named(prefix)) {
          std::optional<std::string> next;
          if (k < parts.size()) next = std::string(parts[k]);
          ref.modules.emplace_back(module, std::move(next));
        }
      }
      if (ref.modules.empty()) continue;
      ref.owner = info.symbol_at(imp.line);
      ref.held = (imp.flags & k_import_held) != 0;
      ref.code = (imp.flags & k_import_code) != 0;
      out.push_back(std::move(ref));
    }
    return out;
  });
  if (node < m_string_refs_at.size()) m_string_refs_at[node] = &refs;
  return refs;
}

bool ProjectTables::hook_defined(bool (*wanted)(std::string_view)) {
  FactsView view;
  for (uint32_t node = 0; node < m_graph.nodes.size(); ++node) {
    if (rules::hook_line(m_graph, m_facts, node, view, wanted)) return true;
  }
  return false;
}

bool ProjectTables::custom_items() {
  return m_custom_items.get([&] {
    return hook_defined([](std::string_view name) {
      return name == "pytest_pycollect_makeitem" || name == "pytest_pycollect_makemodule";
    });
  });
}

bool ProjectTables::collect_hooks() {
  return m_collect_hooks.get([&] { return hook_defined(&rules::collect_hook_name); });
}

const std::vector<uint32_t>& ProjectTables::subclass_enumerators() {
  return m_subclass_enumerators.get([&] { return m_facts.files_mentioning("__subclasses__"); });
}

} // namespace impact::decision
