#pragma once
// ProjectTables: what the symbol walk and its rules look up about the project's files again and
// again (who imports a module, which files read names by computed strings, the renamed imports and
// the module-naming strings of a file), each computed on first use and kept for the run.
#include "decision/lazy.hpp"
#include "impact/resolve/file_index.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace impact::decision {

// A set of graph nodes that is emptied in constant time (by a new generation), for walks that visit
// a few nodes of a large graph many times over.
class NodeSet {
public:
  NodeSet& clear(size_t nodes) {
    if (m_stamp.size() != nodes || m_generation == UINT32_MAX) {
      m_stamp.assign(nodes, 0);
      m_generation = 0;
    }
    ++m_generation;
    return *this;
  }
  // Adds `node`; false when it was already in the set.
  bool insert(uint32_t node) {
    if (m_stamp[node] == m_generation) return false;
    m_stamp[node] = m_generation;
    return true;
  }

private:
  std::vector<uint32_t> m_stamp;
  uint32_t m_generation = 0;
};

// A string in a file that names a module of the repository (a mock.patch target, a setting): the
// modules it may name, each with the name after the module in the string (none when the string ends
// there), and the innermost symbol whose code holds it (-1: module level).
struct StringRef {
  uint32_t line = 0;
  int32_t owner = -1;
  bool held = false; // a module-level value holds it (k_import_held): see ReferenceRules::string_refs
  bool code = false; // an import inside a string of code (k_import_code): it may read any name of the module
  std::vector<std::pair<uint32_t, std::optional<std::string>>> modules;
};

class ProjectTables {
public:
  ProjectTables(const ImportGraph& graph, const ProjectFacts& facts) : m_graph(graph), m_facts(facts) {}

  // The files that can name a module-level symbol of `node` (see the definition).
  const std::vector<uint32_t>& importers(uint32_t node);
  // Every file that loads `node`, directly or not (past k_max_closures modules asked: every file).
  const std::vector<uint32_t>& closure(uint32_t node);
  const std::vector<uint32_t>& all_files(); // every file with facts
  // Files reading names by computed strings, and files importing a module of a project package no
  // file is (ImportGraph::open_submodule_importers; not is_dynamic: they read names they spell).
  const std::vector<uint32_t>& dynamic_files();
  bool is_dynamic(uint32_t node);               // whether `node` is one of them
  // Whether file `node` may read a name without spelling it, so that its name table cannot rule a
  // name out: it reads names by computed strings, a namespace (`__dict__`), or imports in code strings.
  bool reads_unspelled_names(uint32_t node);
  bool star_imports(uint32_t importer, uint32_t node) const; // `from node import *` in importer
  // The (imported name, alias) pairs of the `from x import a as b` imports of `node` that bind another
  // name than they import: only these give a symbol an alias.
  std::span<const std::pair<std::string_view, std::string_view>> renamed_imports(uint32_t node);
  const std::vector<StringRef>& string_refs(uint32_t node, const resolve::FileInfo& info);
  const std::vector<uint32_t>& subclass_enumerators(); // files reading __subclasses__
  // Whether a conftest.py or plugin defines pytest_pycollect_makeitem or pytest_pycollect_makemodule: a
  // hook that may make any function or class of a test module an item (docs/selection.md `collect-hook`).
  bool custom_items();
  // Whether a conftest.py or plugin defines any collection hook (rules::collect_hook_name).
  bool collect_hooks();

private:
  using Renamed = std::vector<std::pair<std::string_view, std::string_view>>;
  struct Dynamic {
    std::vector<uint32_t> files;
    std::vector<char> is; // per file: in `files`
  };
  const Dynamic& dynamic();
  std::vector<uint32_t> reexporters(uint32_t node);

  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  NodeSet m_seen; // importers()' visited set, reused
  LazyMap<uint32_t, std::vector<uint32_t>> m_importers;
  LazyMap<uint32_t, std::vector<uint32_t>> m_closures;
  Lazy<std::vector<uint32_t>> m_all;
  Lazy<Dynamic> m_dynamic;
  LazyMap<uint32_t, Renamed> m_renamed;
  ImportScratch m_scratch; // renamed_imports()' decoding
  LazyMap<uint32_t, std::vector<StringRef>> m_string_refs;
  std::vector<const std::vector<StringRef>*> m_string_refs_at; // by node: m_string_refs' value, once made
  Lazy<std::vector<uint32_t>> m_subclass_enumerators;
  Lazy<bool> m_custom_items;
  Lazy<bool> m_collect_hooks;
  bool hook_defined(bool (*wanted)(std::string_view));
};

} // namespace impact::decision
