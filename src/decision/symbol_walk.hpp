#pragma once
// SymbolWalk: from changed symbols backwards over references and pytest fixtures to the tests that
// can reach them. Whatever it cannot follow precisely it hands back as a file-level seed (the file's
// importers are all affected), so it never answers with fewer tests than the file-level walk would
// for that file.
#include "decision/file_info.hpp"
#include "impact/decision.hpp"
#include "impact/project.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
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

struct SymbolSeed {
  uint32_t node = 0;
  std::string qualname;
  std::string change; // the kind of change, for the evidence
  uint32_t line = 0;
};

struct Budget {
  uint32_t max_depth = 100;
  double budget_ms = 0; // 0: no limit
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

struct SymbolResult {
  std::unordered_map<std::string, std::vector<Hop>> tests;            // node id -> chain
  std::unordered_map<uint32_t, std::vector<Hop>> whole_files;         // a test file selected whole
  std::unordered_map<uint32_t, std::vector<Hop>> file_level;          // every importer affected
  std::vector<std::string> warnings;
  bool budget_exceeded = false;
};

class SymbolWalk {
public:
  SymbolWalk(const ImportGraph& graph, const ProjectFacts& facts, const ProjectLayout& layout, Budget budget)
      : m_graph(graph), m_facts(facts), m_layout(layout), m_index(graph, facts), m_budget(budget) {}

  SymbolResult run(const std::vector<SymbolSeed>& seeds);

private:
  // A symbol of the walk: its file and its qualified name (interned: the view lives with the walk).
  struct Key {
    uint32_t node;
    std::string_view qualname;
  };
  // The same as one number: the file in the high half, the interned qualified name in the low half.
  using WalkKey = uint64_t;
  static constexpr WalkKey k_no_key = UINT64_MAX; // a seed's parent
  struct Via {
    WalkKey parent = k_no_key; // the symbol this one reaches
    std::string relation;
    uint32_t line = 0;
    uint32_t depth = 0;
  };

  // A string in a file that names a module of the repository (a mock.patch target, a setting): the
  // modules it may name, each with the name after the module in the string (none when the string ends
  // there), and the innermost symbol whose code holds it (-1: module level).
  struct StringRef {
    uint32_t line = 0;
    int32_t owner = -1;
    std::vector<std::pair<uint32_t, std::optional<std::string>>> modules;
  };

  WalkKey key_of(uint32_t node, std::string_view qualname); // interns the name
  Key key_from(WalkKey key) const;
  void reach(uint32_t node, std::string_view qualname, WalkKey from, std::string relation, uint32_t line);
  void visit(const Key& key);
  const Via* via_of(WalkKey key) const; // m_via, else m_member_of
  void file_level(uint32_t node, WalkKey from, std::string relation, uint32_t line);
  void whole_file(uint32_t node, WalkKey from, std::string relation);
  enum class Scan { all, gone }; // gone: a symbol no longer defined, whose users resolution cannot rule out
  void referrers(const Key& key, std::string_view name, Scan scan);
  std::vector<std::string> aliases(const std::vector<uint32_t>& files, std::string_view name);
  void fixture_consumers(uint32_t node, const SymbolView& fixture, WalkKey from);
  void test_reached(uint32_t node, const FileInfo& info, int32_t index, WalkKey from);
  const std::vector<StringRef>& string_refs(uint32_t node, const FileInfo& info); // cached per file
  std::vector<Hop> chain(WalkKey key) const;
  const std::vector<uint32_t>& closure(uint32_t node);
  const std::vector<uint32_t>& all_files();
  // `markers`: the computed-name readers (k_any_member_name, ...) whose files may run the member.
  std::vector<uint32_t> candidates(const Key& key, bool member, const std::vector<std::string_view>& markers,
                                   const std::vector<std::string>& names);
  bool is_property(const Key& key); // a property's getter (or a decorated member a lookup may run)
  // Whether a definition of `key` carries a decorator `wanted` accepts (true for a symbol gone).
  bool has_decorator(const Key& key, const std::function<bool(std::string_view)>& wanted);
  bool is_setter(const Key& key); // a property's setter or deleter (@x.setter, @x.deleter)
  // The classes of the repository whose bases may name class `qualname` of `node`: (file, symbol).
  std::vector<std::pair<uint32_t, int32_t>> subclasses(uint32_t node, std::string_view qualname);
  // A changed method's class: the test classes deriving from it, at any depth, run the tests they
  // inherit (their files are selected whole).
  void inherited_by_tests(WalkKey class_key);
  const std::vector<uint32_t>& dynamic_files(); // files reading names by computed strings
  bool is_dynamic(uint32_t node);               // whether `node` is one of them
  bool star_imports(uint32_t importer, uint32_t node) const; // `from node import *` in importer
  // The (imported name, alias) pairs of the `from x import a as b` imports of `node` that bind another
  // name than they import: only these give a symbol an alias. Decoded once per file; the span is
  // valid until the next call.
  std::span<const std::pair<std::string_view, std::string_view>> renamed_imports(uint32_t node);
  const std::vector<uint32_t>& importers(uint32_t node);
  bool is_test_symbol(const FileInfo& info, int32_t index) const;
  static bool is_fixture_hook(std::string_view name);
  // Methods that builtins and the standard library call by protocol (dict(obj): keys; a file: write).
  static bool is_protocol_method(std::string_view name);
  // Whether the class, or a class of the repository it derives from, defines __init_subclass__ or has
  // a metaclass: such hierarchies tend to keep a registry of their subclasses.
  bool registers_subclasses(uint32_t node, int32_t class_index, int depth);
  // Whether decorator `callee` of file `node` is the project's own code (defined or assigned in the
  // repository, or not known), rather than a builtin or something imported from outside.
  bool defined_in_project(uint32_t node, std::string_view callee);
  // Whether symbol `s` of `node` carries a decorator of the project's own (not pytest's marks), which
  // may be a usefixtures mark kept in a variable.
  bool marked_by_project(uint32_t node, const SymbolView& s);
  // Whether class `class_index` of `node` inherits, from a class of another file, a usefixtures mark
  // or a method that requests fixture `name`.
  bool inherits_request(uint32_t node, int32_t class_index, const std::string& name, int depth);
  // Whether a class inherits, at any depth, from a class defined outside the repository whose code
  // may call the class's methods by name (a template method: codecs, threading, logging, json, ...).
  bool has_external_base(uint32_t node, int32_t class_index); // memoized per class
  bool has_external_base(uint32_t node, int32_t class_index, int depth);
  std::string node_id(const FileInfo& info, int32_t index) const;
  bool over_budget();

  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  const ProjectLayout& m_layout;
  FileIndex m_index;
  Budget m_budget;
  std::deque<std::string> m_qualnames; // interned qualified names, by id (Key::qualname views them)
  std::unordered_map<std::string_view, uint32_t> m_qualname_ids;
  std::unordered_map<WalkKey, Via> m_via;
  // A class whose subclasses were searched for a changed method: how the chains from there read. Kept
  // apart from m_via, which says what is queued, so that the class itself can still be reached.
  std::unordered_map<WalkKey, Via> m_member_of;
  std::vector<Key> m_queue;
  std::unordered_map<uint32_t, std::vector<uint32_t>> m_closures;
  std::vector<uint32_t> m_all; // every file with facts: all_files()
  std::unordered_map<uint64_t, bool> m_external_base; // (node << 32 | class index) -> has_external_base
  std::unordered_map<uint32_t, std::vector<uint32_t>> m_importers;
  std::unordered_map<uint32_t, std::vector<uint32_t>> m_module_candidates;
  std::vector<uint32_t> m_dynamic; // dynamic_files()
  std::vector<char> m_is_dynamic;  // per file: in m_dynamic
  static constexpr uint32_t k_unknown = UINT32_MAX;
  std::vector<std::pair<uint32_t, uint32_t>> m_renamed; // per file: its range of m_renamed_pool
  std::vector<std::pair<std::string_view, std::string_view>> m_renamed_pool;
  ImportScratch m_scratch;         // renamed_imports()' decoding
  NodeSet m_seen;                  // importers() and candidates()' visited set, reused
  std::vector<uint32_t> m_subclass_enumerators; // files reading __subclasses__ (registers_subclasses)
  bool m_subclass_enumerators_ready = false;
  std::vector<int32_t> m_reading;  // referrers()' scratch: which code of a candidate reads the name
  std::vector<std::optional<std::vector<StringRef>>> m_string_refs; // per file, on first use
  bool m_dynamic_ready = false;
  SymbolResult m_result;
};

// Decorators that leave a function reachable only by its name (no registration anywhere).
bool is_transparent_decorator(std::string_view callee);

} // namespace impact::decision
