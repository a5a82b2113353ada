#pragma once
// The reference rules of the symbol walk (docs/selection.md `symbol-precision`, `member-precision`,
// `re-exports`, `runs-at-import`, `string-references`, `added-deleted-symbols`, `star-import`): the
// code that may read a changed symbol's name, where name resolution cannot rule it out.
#include "decision/project_tables.hpp"
#include "decision/rules/plain_readers.hpp"
#include "decision/rules/rule_family.hpp"
#include "impact/resolve/file_index.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace impact::decision::rules {

// Whether test module `h` (`info`) binds, by a module-level `from x import name [as alias]`, a name
// pytest collects (test-like) that may denote symbol `qualname` of `node`: it then collects that test
// function or class as its own (docs/selection.md `test-node-ids`).
bool collects_by_import(resolve::FileIndex& index, const ProjectLayout& layout, uint32_t h, const resolve::FileInfo& info,
                        uint32_t node, std::string_view qualname);

class ReferenceRules : RuleFamily {
public:
  explicit ReferenceRules(SymbolWalk& walk);

  // gone: a symbol no longer defined, whose users resolution cannot rule out.
  enum class Scan { all, gone };
  // The code that may read symbol `key` (named `name`, walked as `self`): reached, or its file made file-level.
  void referrers(const Key& key, WalkKey self, std::string_view name, Scan scan);
  // Nested function `key` is reached: the function around it, which makes and usually calls it.
  void enclosing(const Key& key, const SymbolView& parent, WalkKey self);
  // The names module-level symbol `name` of file `module` is known by: itself, then the aliases of
  // renamed imports (`from x import name as alias`), followed through re-exports.
  std::vector<std::string> names_known(uint32_t module, std::string_view name);
  // Whether getattr(self, <name starting with `prefix`>) may run member `member` (an empty prefix: any).
  static bool looks_up(std::string_view prefix, std::string_view member);

private:
  // What referrers() looks for: the symbol, the names it may be read by and the computed-name readers
  // (DynamicAccessRules::markers) that may run it, with their interned ids.
  struct Search {
    Key key;
    WalkKey self;
    std::string_view name;
    Scan scan;
    bool member;
    std::vector<std::string> names;
    std::vector<uint32_t> ids;
    std::vector<std::string_view> markers;
    std::vector<uint32_t> marker_ids;
    bool constructor; // a member named __init__, __new__ or __post_init__ (ClassRules::may_call_constructor)
  };

  // Reads of a module-level name as a value's attribute in files that are no candidates.
  void value_readers_elsewhere(const Search& search, const std::vector<uint32_t>& files,
                               const std::function<void(uint32_t)>& look);
  // The code of file `h` that reads the symbol, reached or made file-level.
  void readers_in(const Search& search, uint32_t h, const resolve::FileInfo& info);
  void reach(uint32_t h, const SymbolView& reader, WalkKey self); // `reader` reads the symbol: reached as a reference
  // Class body `i` of `h` reads the symbol only in its annotations (docs/selection.md `annotations`).
  bool annotated_only(const Search& search, uint32_t h, const resolve::FileInfo& info, int32_t i);
  // Module-level code of `h` reads the symbol only to store it in values: reaches each (false: it cannot).
  bool stored_in(const Search& search, uint32_t h, const resolve::FileInfo& info);
  // A string reference on `line` that a module-level value holds: reaches the value (false: it cannot).
  bool held_by_value(const Search& search, uint32_t h, const resolve::FileInfo& info, uint32_t line);
  bool values_followed(uint32_t h) const;               // the gate of both
  bool holds_only(uint32_t h, std::string_view wrapper); // a value made by calling `wrapper` holds, not runs
  // The symbols of `h` (-1: module-level code; resolve::k_stored_read: only to store it in a
  // module-level value) that read the symbol, ascending.
  void reading_code(const Search& search, uint32_t h, const resolve::FileInfo& info);
  // Strings that name the symbol's module (mock.patch targets, settings) count as references by the
  // code on their line.
  void string_refs(const Search& search, uint32_t h, const resolve::FileInfo& info);
  // `markers`: the computed-name readers (k_any_member_name, ...) whose files may run the member.
  std::vector<uint32_t> candidates(const Key& key, bool member, const std::vector<std::string_view>& markers,
                                   const std::vector<std::string>& names);
  std::vector<std::string> aliases(uint32_t module, const std::vector<uint32_t>& files, std::string_view name);

  // The renamed imports (`from x import imported as alias`) of a module's candidates, in file order,
  // and their positions by imported name.
  struct Renames {
    std::vector<std::pair<std::string_view, std::string_view>> pairs;
    std::unordered_map<std::string_view, std::vector<uint32_t>> by_imported;
  };

  LazyMap<uint32_t, std::vector<uint32_t>> m_module_candidates; // candidates() of a module-level name
  LazyMap<uint32_t, Renames> m_renames; // aliases()' index, by module
  // Every name some file of the project imports under another name, made once aliases() has indexed
  // this many modules: a superset of any module's `by_imported` keys.
  static constexpr size_t k_modules_before_renamed_names = 32;
  Lazy<std::unordered_set<std::string_view>> m_renamed_names;
  PlainReaders m_plain;           // referrers()' look-up of a module-level name searched many times
  LazyMap<uint32_t, std::vector<uint32_t>> m_value_readers; // value_readers_elsewhere()'s readers, by name id
  NodeSet m_seen;                 // candidates()' visited set, reused
  std::vector<int32_t> m_reading; // reading_code()'s answer, reused
  std::vector<int32_t> m_self_only; // ... the symbols of it that read the member only as `self.<name>`, ascending
  std::vector<int32_t> m_value_only; // ... only as `value.<name>` (a parameter's, a local's, a call's), ascending
};

} // namespace impact::decision::rules
