#pragma once
// FileInfo: one file's facts, decoded once per run, with its top-level namespace, and the name
// resolution the symbol walk uses to rule references out. Resolution answers only "certainly not":
// anything it cannot follow is Unknown, which keeps the reference.
#include "impact/graph.hpp"
#include "impact/python.hpp"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace impact::decision {

// What a name of a module's namespace is bound to.
struct Binding {
  enum Kind { definition, assignment, module, from_import, conflict } kind = conflict;
  std::vector<uint32_t> modules; // module: the module's nodes; from_import: the source module's nodes
  std::string name;              // definition / from_import: the name in that module
};

struct FileInfo {
  uint32_t node = 0;
  FileFacts facts;
  std::unordered_map<std::string, Binding> names; // the top-level namespace (imports inside functions too)
  std::unordered_map<std::string, int32_t> by_qualname;
  bool star_imports = false;
  bool module_getattr = false;
};

// What a dotted prefix denotes.
struct Target {
  enum Kind { unknown, nothing, module, definition } kind = unknown;
  std::vector<uint32_t> modules; // module
  uint32_t node = 0;             // definition: the file
  std::string qualname;          // definition: the symbol
};

// Decodes and indexes files on first use.
class FileIndex {
public:
  FileIndex(const ImportGraph& graph, const ProjectFacts& facts) : m_graph(graph), m_facts(facts), m_files(graph.nodes.size()) {}

  // nullptr for ghosts (deleted files have no facts).
  const FileInfo* get(uint32_t node);

  // Whether reference `chain` of file `h`, whose component `index` is the referenced name, may denote
  // symbol `qualname` of file `g`.
  bool may_refer(uint32_t h, const std::vector<std::string_view>& chain, size_t index, uint32_t g,
                 const std::string& qualname);

private:
  Target root(uint32_t h, std::string_view name, int depth);
  Target member(const Target& t, std::string_view name, int depth);
  Target from_binding(uint32_t h, const Binding& b, std::string_view name, int depth);
  std::vector<uint32_t> submodules(const std::vector<uint32_t>& modules, std::string_view name) const;
  std::vector<uint32_t> resolve_module(uint32_t importer, const ImportFact& imp) const;
  bool same_file(uint32_t a, uint32_t b) const;

  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  std::vector<std::unique_ptr<FileInfo>> m_files;
};

// Splits "a.b.c" (or ".b.c" for an attribute of a computed value, giving "" first).
std::vector<std::string_view> split_chain(std::string_view chain);

} // namespace impact::decision
