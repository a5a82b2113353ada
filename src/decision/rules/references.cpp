// docs/selection.md `symbol-precision`, `member-precision`, `re-exports`: a reference is a dotted name
// read by some code; it matches when a component is the changed symbol's name (or an alias of it) and
// name resolution cannot rule it out. `runs-at-import`: code that runs at import (module level, class
// bodies) reaching a symbol makes its whole file a file-level seed (`module_level`, `class_body`).
// `string-references`: strings naming the symbol's module (`string_ref`). `added-deleted-symbols`: a
// symbol gone is read by every user of its name, and a module importing the old name fails
// (`imports_the_old_name`). `star-import`, `test-node-ids`: a test module importing a reached test
// collects it (`imports_test`). `dynamic-access`: code reading computed names reads every name
// (`dynamic_access`).
#include "decision/rules/references.hpp"

#include "decision/rules/dynamic_access.hpp"
#include "decision/symbol_walk.hpp"

#include <algorithm>
#include <functional>

namespace impact::decision::rules {

using resolve::FileInfo;
using resolve::Read;

namespace {

// The function a class `i` of `info` is made in (at any depth of classes inside it), or -1 for a class
// of the module level, whose body runs at import.
int32_t enclosing_function(const FileInfo& info, int32_t i) {
  for (int32_t p = info.at(i).parent; p >= 0; p = info.at(p).parent) {
    if (info.at(p).kind != SymbolKind::class_) return p;
  }
  return -1;
}

// Python mangles a private name (`__secret`, not `__init__`) written in a class body: `self.__secret`
// in class Vault is `self._Vault__secret`, which other code may spell so (`v._Vault__secret()`,
// `getattr(v, "_Vault__hint")`). The other spelling of member `name` of class `owner` (the last part
// of `qualname`'s parent), or of module-level `name` when it is spelled mangled (`def _Box__pack`,
// called in class Box as `__pack(x)`), or "" when there is none.
std::string mangling_twin(std::string_view qualname, std::string_view name, bool member) {
  auto is_private = [](std::string_view n) { return n.size() > 2 && n.starts_with("__") && !n.ends_with("__"); };
  if (member) {
    std::string_view owner = parent_part(qualname);
    if (auto dot = owner.rfind('.'); dot != std::string_view::npos) owner.remove_prefix(dot + 1);
    while (owner.starts_with('_')) owner.remove_prefix(1);
    if (owner.empty() || !is_private(name)) return {};
    return std::string(1, '_').append(owner).append(name);
  }
  if (name.size() < 5 || name[0] != '_' || name[1] == '_') return {};
  auto at = name.find("__", 1);
  if (at == std::string_view::npos || !is_private(name.substr(at))) return {};
  return std::string(name.substr(at));
}

} // namespace

ReferenceRules::ReferenceRules(SymbolWalk& walk) : RuleFamily(walk), m_plain(m_index, m_facts, m_tables) {}

void ReferenceRules::enclosing(const Key& key, const SymbolView& parent, WalkKey self) {
  m_walk.reach(key.node, std::string(parent.qualname), self, Relation::nested_in, parent.def_line);
}

void ReferenceRules::referrers(const Key& key, WalkKey self, std::string_view name, Scan scan) {
  Search search{key, self, name, scan,
                key.qualname.find('.') != std::string_view::npos, {std::string(name)}, {}, {}, {}, false};
  // `super().__init__(...)` names no class: it runs a constructor of its own class's MRO only.
  search.constructor = search.member && (name == "__init__" || name == "__new__" || name == "__post_init__");
  search.markers = m_walk.dynamic_access().markers(key, search.member);
  std::string twin = mangling_twin(key.qualname, name, search.member);
  if (search.member && !twin.empty()) search.names.push_back(twin);
  std::vector<uint32_t> files = candidates(key, search.member, search.markers, search.names);
  if (!search.member) search.names = aliases(key.node, files, name);
  if (!search.member && !twin.empty()) search.names.push_back(twin);
  // A string naming the module (`loadTestsFromName("pkg.selftest")`, `pyclbr.readmodule("pkg.api")`)
  // hands it whole to code that may read any of its names, which its file need not spell.
  std::vector<uint32_t> by_string;
  for (const auto& [h, edge] : m_graph.in[key.node]) {
    if (edge.kind == EdgeKind::string_ref) by_string.push_back(h);
  }
  std::sort(by_string.begin(), by_string.end());
  by_string.erase(std::unique(by_string.begin(), by_string.end()), by_string.end());
  for (uint32_t h : by_string) {
    if (std::find(files.begin(), files.end(), h) == files.end()) files.push_back(h);
  }
  for (const auto& n : search.names) search.ids.push_back(m_index.intern(n));
  for (std::string_view m : search.markers) search.marker_ids.push_back(m_index.intern(m));
  bool test_like = !search.member && (m_layout.is_test_name(name) || m_layout.is_test_class_name(name));
  // The names' hashes for the name-table test below, computed once for every candidate.
  std::vector<uint32_t> hashes;
  if (!search.member) {
    for (const auto& n : search.names) hashes.push_back(ProjectFacts::mention_hash(n));
  }
  auto look = [&](uint32_t h) {
    if (h >= m_facts.size()) return;
    if (test_like && h != key.node && m_graph.nodes[h].test && m_tables.star_imports(h, key.node)) {
      m_walk.whole_file(h, search.self, Relation::imports_test); // `from test_a import *` collects test_a's tests here too
    }
    if (!search.member && !std::binary_search(by_string.begin(), by_string.end(), h)) {
      // Most importers never read the name: a look at the name table skips them. (A member's candidates
      // come from that table already.)
      bool mentioned = false;
      for (uint32_t hash : hashes) mentioned = mentioned || m_facts.mentions_hash(h, hash);
      if (!mentioned && !m_tables.reads_unspelled_names(h)) return;
    }
    const FileInfo* info = m_index.get(h);
    if (info == nullptr) return;
    readers_in(search, h, *info);
  };
  // A module-level name searched many times over (a change that reaches a module most others import):
  // only the files that can give a reader, in the same order (PlainReaders).
  if (!search.member && scan == Scan::all && !test_like && m_walk.mode() != Mode::safe && !m_index.linked() &&
      m_plain.hot(search.ids)) {
    for (uint32_t at : m_plain.positions(key.node, files, by_string, search.ids, search.names)) look(files[at]);
  } else {
    for (uint32_t h : files) look(h);
  }
  if (!search.member) value_readers_elsewhere(search, files, look);
}

// docs/selection.md `dynamic-access`: a module-level name read as an attribute of a value (`m.render()`,
// `m` a parameter, a comprehension's variable, `registry.current`) in a file that does not name the
// module (a function its callers hand module objects to) reads it only where the value is the module:
// the code holding the module is reached, as for such a read in a candidate. In safe mode, and for a
// name gone, such a read is a reader itself, wherever it is. The name table (`.name`) gives the files
// that may read so; resolution tells.
void ReferenceRules::value_readers_elsewhere(const Search& search, const std::vector<uint32_t>& files,
                                             const std::function<void(uint32_t)>& look) {
  std::vector<uint32_t> elsewhere;
  std::vector<uint32_t> candidates; // `files`, sorted, made only when some file reads the name so
  for (size_t k = 0; k < search.names.size(); ++k) {
    const std::vector<uint32_t>& reading = m_value_readers.get(search.ids[k], [&] {
      std::vector<uint32_t> out;
      for (uint32_t h : m_facts.files_mentioning(value_attr_name(search.names[k]))) {
        if (h < m_facts.size() && m_index.denoting_files(h, search.ids[k], search.names[k]).unknown) out.push_back(h);
      }
      std::sort(out.begin(), out.end());
      return out;
    });
    if (!reading.empty() && candidates.empty()) {
      candidates = files;
      std::sort(candidates.begin(), candidates.end());
    }
    std::set_difference(reading.begin(), reading.end(), candidates.begin(), candidates.end(), std::back_inserter(elsewhere));
  }
  if (elsewhere.empty()) return;
  if (m_walk.mode() != Mode::safe && search.scan == Scan::all) {
    m_walk.dynamic_access().value_attribute(search.key, search.self);
    return;
  }
  std::sort(elsewhere.begin(), elsewhere.end());
  elsewhere.erase(std::unique(elsewhere.begin(), elsewhere.end()), elsewhere.end());
  for (uint32_t h : elsewhere) look(h);
}

void ReferenceRules::readers_in(const Search& search, uint32_t h, const FileInfo& info) {
  const Key& key = search.key;
  reading_code(search, h, info);
  if (search.scan == Scan::gone) {
    // `from module import gone_name` fails when the module is imported.
    for (const auto& imp : info.imports.imports) {
      if (imp.kind != ImportKind::from) continue;
      for (size_t k = imp.names_begin; k < imp.names_end; ++k) {
        if (info.imports.names[k] == search.name) m_walk.file_level(h, search.self, Relation::imports_the_old_name, imp.line);
      }
    }
  }
  // Code that runs at import: the module, and class bodies. A module-level value that only holds the
  // symbol (`stored-values`) is followed by its name instead, where it can be.
  bool module_level = std::binary_search(m_reading.begin(), m_reading.end(), -1);
  if (!module_level && std::binary_search(m_reading.begin(), m_reading.end(), resolve::k_stored_read)) {
    module_level = !stored_in(search, h, info);
  }
  // A main guard's body runs only where the module runs as a program (`main-guard`); safe mode reads it as module code.
  if (std::binary_search(m_reading.begin(), m_reading.end(), resolve::k_program_read)) {
    if (m_walk.mode() == Mode::safe) module_level = true;
    else if (!module_level) m_walk.program_reached(h, search.self);
  }
  if (module_level || info.facts.module_dynamic_access) m_walk.file_level(h, search.self, Relation::module_level, 0);
  for (int32_t i : m_reading) {
    if (i < 0) continue;
    const SymbolView& s = info.at(i);
    if (h == key.node && s.qualname == key.qualname) continue;
    bool class_body = s.kind == SymbolKind::class_;
    if (class_body && annotated_only(search, h, info, i) && m_walk.classes().inert_annotations(h, i)) {
      reach(h, s, search.self); // read in its annotations only: through the class (`annotations`)
    } else if (int32_t around = class_body ? enclosing_function(info, i) : -1; around >= 0) {
      // A class made inside a function runs its body when the function runs, not at import.
      m_walk.reach(h, std::string(info.at(around).qualname), search.self, Relation::class_body, s.def_line);
    } else if (class_body) {
      m_walk.file_level(h, search.self, Relation::class_body, s.def_line);
    } else if (s.dynamic_access && h != key.node && m_graph.nodes[h].test && s.parent != -1 &&
               info.at(s.parent).kind == SymbolKind::class_ && m_walk.mode() != Mode::safe) {
      m_walk.dynamic_access().test_class_reader(h, info, i, search.self);
    } else if (std::binary_search(m_self_only.begin(), m_self_only.end(), i)) {
      if (!m_walk.self_calls().bounded(key, h, info, i, search.self)) reach(h, s, search.self);
    } else if (std::binary_search(m_value_only.begin(), m_value_only.end(), i)) {
      if (!m_walk.self_calls().bounded_value(key, h, info, i, search.self)) reach(h, s, search.self);
    } else {
      reach(h, s, search.self);
    }
  }
  if (m_graph.nodes[h].test && (m_layout.is_test_name(search.name) || m_layout.is_test_class_name(search.name)) &&
      collects_by_import(m_index, m_layout, h, info, search.key.node, search.key.qualname)) {
    m_walk.whole_file(h, search.self, Relation::imports_test);
  }
  string_refs(search, h, info);
}

// docs/selection.md `annotations`: class body `i` of `h` reads the searched name only in the
// annotations of its annotated assignments (Read::annotation), and in no other way (a computed
// getattr, a namespace read, code reading computed names). A symbol gone keeps every reader: a name
// the annotation no longer finds fails where it is evaluated.
bool ReferenceRules::annotated_only(const Search& search, uint32_t h, const FileInfo& info, int32_t i) {
  if (m_walk.mode() == Mode::safe || search.scan != Scan::all) return false;
  if (std::binary_search(info.dynamic_symbols.begin(), info.dynamic_symbols.end(), i)) return false;
  auto by = [i](const Read& r) { return r.symbol == i; };
  for (size_t k = 0; k < search.markers.size(); ++k) {
    const auto& reads = m_index.reads(h, search.marker_ids[k], search.markers[k]);
    if (std::any_of(reads.begin(), reads.end(), by)) return false;
  }
  const auto& spaces = m_index.namespace_reads(h);
  if (std::any_of(spaces.begin(), spaces.end(), by)) return false;
  bool found = false;
  for (size_t k = 0; k < search.names.size(); ++k) {
    for (const Read& r : m_index.reads(h, search.ids[k], search.names[k])) {
      if (r.symbol != i) continue;
      if (!r.annotation || r.stored) return false;
      found = true;
    }
  }
  return found;
}

void ReferenceRules::reach(uint32_t h, const SymbolView& s, WalkKey self) {
  m_walk.reach(h, std::string(s.qualname), self, s.dynamic_access ? Relation::dynamic_access : Relation::references, s.def_line);
}

// docs/selection.md `stored-values`: module-level code of `h` reads the symbol only in stored positions
// of values (`ALIAS = f`, `TABLE = {"a": f}`, `partial(f, 1)`, `old = deprecated(f)`). Each value
// holding it is reached by its name; false (the module level, as any import-time code) when one cannot
// be: safe mode, a member (`X = obj.prop` runs a property at import), an attribute of the symbol
// (`X = cls.method` looks it up at import), a callee that is not the project's wrapping decorator, a
// test module or conftest.py (pytest collects a test-like name bound there). The argvalues of a
// `parametrize` mark are followed there too: they reach the function the mark decorates.
bool ReferenceRules::stored_in(const Search& search, uint32_t h, const FileInfo& info) {
  if (search.member || search.scan == Scan::gone || m_walk.mode() == Mode::safe) return false;
  bool values = values_followed(h);
  const FactsView& facts = info.facts;
  std::vector<std::pair<std::string_view, uint32_t>> holders; // reached once every read is known to be stored
  for (const StoredValueView& v : facts.stored_values) {
    const std::string_view* wrapper = facts.begin(v.wrappers);
    for (auto ref = facts.begin(v.refs); ref != facts.end(v.refs); ++ref, ++wrapper) {
      auto parts = resolve::split_chain(*ref);
      for (size_t i = 0; i < parts.size(); ++i) {
        if (std::find(search.names.begin(), search.names.end(), parts[i]) == search.names.end()) continue;
        if (!m_index.may_refer(h, parts, i, search.key.node, search.key.qualname)) continue;
        if (!values && !v.parametrize) return false;
        if (i + 1 != parts.size()) return false;
        if (!holds_only(h, *wrapper)) return false;
        holders.emplace_back(v.name, v.line);
      }
    }
  }
  if (holders.empty()) return false; // a read the values do not explain: the module level's
  for (const auto& [name, line] : holders) m_walk.reach(h, name, search.self, Relation::stored_in, line);
  return true;
}

// Whether the module-level values of `h` are followed by their names (`stored-values`): not in safe
// mode, nor in a test module or conftest.py (pytest collects a test-like name bound there).
bool ReferenceRules::values_followed(uint32_t h) const {
  return m_walk.mode() != Mode::safe && !m_graph.nodes[h].test && !m_graph.nodes[h].conftest;
}

// Whether a value made by calling `wrapper` (empty: no call, or functools.partial) in file `h` only
// holds its arguments: the project's wrapping decorator does.
bool ReferenceRules::holds_only(uint32_t h, std::string_view wrapper) {
  return wrapper.empty() || m_walk.registration().wrapping_call(h, wrapper);
}

// getattr(self, "visit_" + kind) looks up a name that starts with "visit_": it runs such a member, or,
// when there is none, __getattr__; __getattribute__ runs for every lookup (`member-precision`).
bool ReferenceRules::looks_up(std::string_view prefix, std::string_view member) {
  return prefix.empty() || member.starts_with(prefix) || member == "__getattr__" || member == "__getattribute__";
}

void ReferenceRules::reading_code(const Search& search, uint32_t h, const FileInfo& info) {
  const Key& key = search.key;
  std::vector<int32_t>& reading = m_reading;
  reading.clear();
  m_self_only.clear();
  m_value_only.clear();
  auto mark = [&](const Read& r) { reading.push_back(r.stored ? resolve::k_stored_read : r.program ? resolve::k_program_read : r.symbol); };
  // `self.<name>` of a changed member of a class, read where the member is defined: `self-calls` may
  // bound the code that reads it so and in no other way.
  bool self_calls = search.member && !search.constructor && search.scan == Scan::all;
  // `--mode safe` keeps every getattr(value, computed) a reader of every name, literal start or not.
  bool safe = m_walk.mode() == Mode::safe;
  for (size_t k = 0; k < search.markers.size(); ++k) {
    bool any_name = safe && search.markers[k] == k_any_value_attr_name;
    // getattr(self, <computed>) finds a member of self's class's MRO only, as `self.m` does; so do
    // hasattr(self, ...) and setattr(self, ...). A constructor too: getattr(self, name) may return
    // self's own `__init__`, never another class's.
    std::string_view marker = search.markers[k];
    bool on_self = search.member && search.scan == Scan::all &&
                   (marker == k_any_member_name || marker == k_self_getter_name || marker == k_self_setter_name);
    for (const Read& r : m_index.reads(h, search.marker_ids[k], search.markers[k])) {
      if (!any_name && !looks_up(r.name_prefix, search.name)) continue;
      if (on_self && r.symbol >= 0) m_self_only.push_back(r.symbol);
      else mark(r);
    }
  }
  // A module-level name: its readers are the reads whose target may denote it (no constructor or
  // `self.` rule applies), found without looking at the reads of other files' names. Read as an
  // attribute of a value (`param.name`, `"...".format`), it is the module's name only where the value
  // is the module object, which the code holding the module made so (`dynamic-access`, module_value);
  // --mode safe keeps every such read.
  bool plain = !search.member && search.scan == Scan::all;
  for (size_t k = 0; plain && k < search.names.size(); ++k) {
    if (m_index.reads_denoting(h, search.ids[k], search.names[k], key.node, key.qualname, reading, safe) && !safe) {
      m_walk.dynamic_access().value_attribute(key, search.self);
    }
  }
  for (size_t k = 0; !plain && k < search.names.size(); ++k) {
    for (const Read& r : m_index.reads(h, search.ids[k], search.names[k])) {
      // A symbol that is gone cannot be resolved in the new file: every user by name counts.
      if (search.scan == Scan::gone) {
        mark(r);
      } else if (m_index.may_denote(*r.target, key.node, key.qualname) &&
                 (r.target->kind != resolve::Target::unknown || !search.constructor ||
                  m_walk.classes().may_call_constructor(h, r.symbol, key.node, parent_part(key.qualname)))) {
        bool unknown = r.target->kind == resolve::Target::unknown;
        if (self_calls && r.on_self && unknown) m_self_only.push_back(r.symbol);
        else if (self_calls && r.value_attr && unknown && r.symbol >= 0 && !safe) m_value_only.push_back(r.symbol);
        else mark(r);
      }
    }
  }
  // `module.__dict__`, vars(module) and inspect.getmembers(module) read every name of the module;
  // vars(cls), cls.__dict__ and type(obj).__dict__ every member of a class.
  for (const Read& r : m_index.namespace_reads(h)) {
    if (m_walk.dynamic_access().reads_namespace(r, key, search.member)) mark(r);
  }
  // Code that reads names by computed strings may read this one. In source order from here.
  reading.insert(reading.end(), info.dynamic_symbols.begin(), info.dynamic_symbols.end());
  std::sort(reading.begin(), reading.end());
  reading.erase(std::unique(reading.begin(), reading.end()), reading.end());
  if (m_self_only.empty() && m_value_only.empty()) return;
  // Self-only and value-only: the symbols no other read marked (a symbol reading the member both ways
  // is a plain reader); then every reader, in source order.
  for (auto* only : {&m_self_only, &m_value_only}) {
    std::sort(only->begin(), only->end());
    only->erase(std::unique(only->begin(), only->end()), only->end());
  }
  std::vector<int32_t> both;
  std::set_intersection(m_self_only.begin(), m_self_only.end(), m_value_only.begin(), m_value_only.end(), std::back_inserter(both));
  reading.insert(reading.end(), both.begin(), both.end());
  std::sort(reading.begin(), reading.end());
  for (auto* only : {&m_self_only, &m_value_only}) {
    std::erase_if(*only, [&](int32_t i) { return std::binary_search(reading.begin(), reading.end(), i); });
    reading.insert(reading.end(), only->begin(), only->end());
  }
  std::sort(reading.begin(), reading.end());
}

bool collects_by_import(resolve::FileIndex& index, const ProjectLayout& layout, uint32_t h, const FileInfo& info,
                        uint32_t node, std::string_view qualname) {
  for (const auto& imp : info.imports.imports) {
    if (imp.kind != ImportKind::from || (imp.flags & k_import_in_function) != 0) continue;
    for (size_t a = imp.aliases_begin; a < imp.aliases_end; ++a) {
      std::string_view alias = info.imports.aliases[a];
      if (!layout.is_test_name(alias) && !layout.is_test_class_name(alias)) continue;
      std::vector<std::string_view> chain{alias};
      if (index.may_refer(h, chain, 0, node, qualname)) return true;
    }
  }
  return false;
}

void ReferenceRules::string_refs(const Search& search, uint32_t h, const FileInfo& info) {
  const Key& key = search.key;
  std::string_view top = std::string_view(key.qualname).substr(0, key.qualname.find('.'));
  for (const StringRef& ref : m_tables.string_refs(h, info)) {
    bool names_module = false;
    for (const auto& [module, next] : ref.modules) {
      // The string names the module itself, or a name in it that could be the symbol.
      // Code in a string that imports the module (`"-c", "from pkg import core; core.add(1, 2)"`) may read
      // any of its names.
      if (module == key.node && (!next || *next == top || *next == search.name || ref.code)) names_module = true;
    }
    if (!names_module || h == key.node) continue; // a module naming itself (its docstring) is no user
    if (ref.owner == -1 && ref.held && held_by_value(search, h, info, ref.line)) continue;
    if (ref.owner == -1 || info.at(ref.owner).kind == SymbolKind::class_) {
      m_walk.file_level(h, search.self, Relation::string_ref, ref.line);
    } else {
      m_walk.reach(h, std::string(info.at(ref.owner).qualname), search.self, Relation::string_ref, ref.line);
    }
  }
}

// docs/selection.md `stored-values`: a string that a module-level value holds (`old = deprecated(f,
// replace="pkg.new")`, `partial(f, "a.b")`) is handed to the wrapper or to `f`, which may resolve it
// when the value is called, not at import: the value is reached by its name. False (the module level's,
// as any import-time string) where stored_in() would not follow the value: safe mode, a test module or
// conftest.py, a callee that is not the project's wrapping decorator.
bool ReferenceRules::held_by_value(const Search& search, uint32_t h, const FileInfo& info, uint32_t line) {
  if (!values_followed(h)) return false;
  const FactsView& facts = info.facts;
  // The value whose statement holds the line: the last one starting at or before it.
  const StoredValueView* holder = nullptr;
  for (const StoredValueView& v : facts.stored_values) {
    if (v.line <= line && (holder == nullptr || v.line >= holder->line)) holder = &v;
  }
  if (holder == nullptr) return false;
  if (!std::all_of(facts.begin(holder->wrappers), facts.end(holder->wrappers), [&](std::string_view w) { return holds_only(h, w); })) {
    return false;
  }
  m_walk.reach(h, holder->name, search.self, Relation::stored_in, holder->line);
  return true;
}

// Where references to a symbol can be: code that imports its module (directly or not) names a
// module-level function or class; a member (a method, an attribute) is read through objects, which
// travel anywhere, so every file that mentions one of its names (or any member, by a computed getattr)
// is a candidate. Files that read names by computed strings could reach anything: they always are.
// Tests are still bounded by the file level later.
std::vector<uint32_t> ReferenceRules::candidates(const Key& key, bool member, const std::vector<std::string_view>& markers,
                                             const std::vector<std::string>& names) {
  const std::vector<uint32_t>& dynamic = m_tables.dynamic_files();
  if (!member) {
    return m_module_candidates.get(key.node, [&] {
      std::vector<uint32_t> out = m_tables.importers(key.node);
      NodeSet& seen = m_seen.clear(m_graph.nodes.size());
      for (uint32_t n : out) seen.insert(n);
      for (uint32_t n : dynamic) {
        if (seen.insert(n)) out.push_back(n);
      }
      return out;
    });
  }
  std::vector<uint32_t> out = m_facts.files_mentioning("__dict__"); // vars(cls), getmembers(cls)
  auto add = [&](std::string_view name) {
    std::vector<uint32_t> files = m_facts.files_mentioning(name);
    out.insert(out.end(), files.begin(), files.end());
  };
  for (std::string_view m : markers) add(m); // getattr(self, computed), setattr/hasattr(obj, computed)
  for (const auto& n : names) add(n);
  out.insert(out.end(), dynamic.begin(), dynamic.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> ReferenceRules::names_known(uint32_t module, std::string_view name) {
  return aliases(module, candidates(Key{module, name}, false, {}, {}), name);
}

// Names a module-level symbol is also known by: `from x import name as alias` in the candidate files,
// followed through re-exports. In up to 4 rounds, every renamed import of the candidates (`files`, the
// module's), in file order, whose imported name is known by then adds its alias. The renamed imports
// are indexed by imported name once per module, so that a name nobody renames costs one look-up
// (the core change of the benchmark visits thousands of symbols, each of which scanned every
// importer's renamed imports); a round visits the matching imports in the same order as a scan would.
std::vector<std::string> ReferenceRules::aliases(uint32_t module, const std::vector<uint32_t>& files, std::string_view name) {
  // Past the first modules, a name that no file of the project renames is answered without indexing
  // the module's candidates (a core change visits thousands of modules, most naming nothing renamed).
  if (m_renames.size() >= k_modules_before_renamed_names) {
    const auto& renamed = m_renamed_names.get([&] {
      std::unordered_set<std::string_view> all;
      for (uint32_t h = 0; h < m_facts.size(); ++h) {
        for (const auto& pair : m_tables.renamed_imports(h)) all.insert(pair.first);
      }
      return all;
    });
    if (!renamed.contains(name)) return {std::string(name)};
  }
  const Renames& renames = m_renames.get(module, [&] {
    Renames out;
    for (uint32_t h : files) {
      if (h >= m_facts.size()) continue;
      for (const auto& [imported, alias] : m_tables.renamed_imports(h)) {
        out.by_imported[imported].push_back(static_cast<uint32_t>(out.pairs.size()));
        out.pairs.emplace_back(imported, alias);
      }
    }
    return out;
  });
  std::vector<std::string> names{std::string(name)};
  if (!renames.by_imported.contains(name)) return names;
  auto known = [&](std::string_view n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  std::vector<uint32_t> queue; // a min-heap of positions in renames.pairs
  auto push_after = [&](std::string_view imported, int64_t after) {
    auto it = renames.by_imported.find(imported);
    if (it == renames.by_imported.end()) return;
    for (uint32_t at : it->second) {
      if (at > after) {
        queue.push_back(at);
        std::push_heap(queue.begin(), queue.end(), std::greater<>());
      }
    }
  };
  for (size_t round = 0; round < 4; ++round) {
    size_t before = names.size();
    queue.clear();
    for (size_t k = 0; k < before; ++k) push_after(names[k], -1);
    while (!queue.empty()) {
      std::pop_heap(queue.begin(), queue.end(), std::greater<>());
      uint32_t at = queue.back();
      queue.pop_back();
      std::string_view alias = renames.pairs[at].second;
      if (known(alias)) continue;
      names.emplace_back(alias);
      push_after(alias, at); // its renames later in this round match in this round, as in a scan
    }
    if (names.size() == before) break;
  }
  return names;
}

} // namespace impact::decision::rules
