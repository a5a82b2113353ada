#pragma once
// Which names each symbol's code reads, from the token stream: the input of the symbol-level graph.
#include "impact/python/facts.hpp"
#include "python/annotations.hpp"
#include "python/lexer.hpp"
#include "python/name_tables.hpp"
#include "python/stored_values.hpp"

#include <tsl/robin_set.h>

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::python {

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>; // byte ranges of the source, ascending

// A name as one owner's code has it: the owner is a symbol's index, or -1 for module-level code.
struct OwnedName {
  int32_t owner;
  std::string_view name;
  bool operator==(const OwnedName&) const = default;
};
struct OwnedNameHash {
  size_t operator()(const OwnedName& k) const noexcept {
    return std::hash<std::string_view>{}(k.name) ^ (static_cast<size_t>(static_cast<uint32_t>(k.owner)) * 0x9E3779B97F4A7C15ULL);
  }
};

// The reference pass's working memory, reused from file to file so that a file's sets cost no
// allocation once the tables have grown.
struct ReferenceScratch {
  std::vector<Token> tokens;
  tsl::robin_set<OwnedName, OwnedNameHash> seen;    // chains each owner has read
  tsl::robin_set<OwnedName, OwnedNameHash> locals;  // names each owner binds
  tsl::robin_set<OwnedName, OwnedNameHash> globals; // names each owner declares global / nonlocal
  tsl::robin_set<std::string_view> bound;           // the module's own bindings
  tsl::robin_set<std::string_view> kept;            // one symbol's published refs
  std::deque<std::string> arena;                    // chains that are no slice of the source

  // Empties everything for the next file; a table that one large file grew is given back.
  void reset() {
    auto empty = [](auto& set) {
      if (set.bucket_count() > 1024) set = {};
      else set.clear();
    };
    empty(seen);
    empty(locals);
    empty(globals);
    empty(bound);
    empty(kept);
    arena.clear();
  }
};

// Fills Symbol::refs / dynamic_access for every symbol of `facts` (whose body byte ranges the
// statement walk recorded) and FileFacts::module_refs for module-level code. Class bodies count as
// their class's code. `scratch` is reused from call to call; its tokens are the file's afterwards.
// `stored`: where the module-level values that only hold what they name are
// (python/stored_values.hpp); module-level code reads their chains only to store them, so those are
// kept apart: at the end of module_refs, counted by module_stored, unless also read otherwise. The
// names they are bound to are not read. `annotations`: the chains of functions' annotations
// (python/annotations.hpp), read as the function's own code.
// `choices`: getattr calls whose computed name is one of a table's strings (python/name_tables.hpp).
// `program`: the bodies of the module's main guards (python/main_guard.hpp); module-level chains read
// only there come after the other module-level ones, counted by module_program.
void collect_references(std::string_view source, FileFacts& facts, ReferenceScratch& scratch,
                        const StoredRanges& stored = {}, const std::vector<AnnotationChain>& annotations = {},
                        const std::vector<NameChoices>& choices = {}, const Ranges& program = {});

} // namespace impact::python
