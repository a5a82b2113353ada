#pragma once
#ifdef IMPACT_FORBID_RESOLVE // defined for the stages that may not use resolve (src/CMakeLists.txt)
#error "this stage may not use resolve (docs/architecture.md, allowed edges)"
#endif
// The resolve stage, between the graph and the decision: name resolution over the project's files.
// FileInfo: one file's facts for the symbol walk, decoded once per run as views (no string copies),
// with its top-level namespace; FileIndex answers "may this reference denote that symbol?". It answers
// only "certainly not": anything it cannot follow is Unknown, which keeps the reference.
#include "impact/graph.hpp"
#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"
#include "util/string_set.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace impact::resolve {

// What a name of a module's namespace is bound to.
struct Binding {
  enum Kind : uint8_t { definition, assignment, module, from_import, conflict } kind = conflict;
  int32_t import = -1;   // module / from_import: the import statement (FileInfo::imports), resolved on use
  std::string_view name; // definition / from_import: the name in that module; module: the bound prefix
};

// What a dotted prefix denotes.
struct Target {
  enum Kind : uint8_t { unknown, nothing, module, definition } kind = unknown;
  std::vector<uint32_t> modules; // module
  uint32_t node = 0;             // definition: the file
  std::string qualname;          // definition: the symbol
};

// A place where a file's code reads a name: its module-level code (symbol -1) or symbol `symbol`, and
// what the reference's components up to that name denote (any member, for getattr(self, computed)).
struct Read {
  int32_t symbol = -1;
  const Target* target = nullptr;
  bool class_like = false; // namespace_reads(): the namespace of a class (`cls.__dict__`, `x.__class__.__dict__`)
  bool on_self = false;    // reads(): the name is read as `self.<name>` or `super().<name>` (docs/selection.md `self-calls`)
  // reads() of k_any_member_name or k_any_value_attr_name: the literal start of the computed name
  // (getattr(self, "visit_" + kind) reads only members whose names start with "visit_"); empty for any.
  std::string_view name_prefix;
  // Module-level code reads the name only in stored positions of module-level values
  // (FactsView::stored_values, docs/selection.md `stored-values`): it holds, not runs, what it names.
  bool stored = false;
  // The name is an attribute of a computed value or of a local one (a reference ".name": `f().name`,
  // `"...".format`, `param.name`): a module-level name only when that value is a module object.
  bool value_attr = false;
  // The name is read only in the annotations of a class body's annotated assignments
  // (Symbol::annotation_refs): looked up where the class statement runs, not run.
  bool annotation = false;
  // Module-level code reads the name only in the body of a main guard (FileFacts::module_program):
  // when the module runs as a program, not on import.
  bool program = false;
};

// How reads_denoting() reports a read whose `stored` is set (symbol -1 otherwise) ...
inline constexpr int32_t k_stored_read = -2;
// ... and one whose `program` is set.
inline constexpr int32_t k_program_read = -3;

struct FileInfo {
  uint32_t node = 0;
  FactsView facts;
  ImportScratch imports;
  std::vector<std::pair<std::string_view, Binding>> names; // sorted: the top-level namespace
  std::vector<std::pair<std::string_view, int32_t>> by_qualname; // sorted
  bool star_imports = false;
  std::vector<int32_t> dynamic_symbols; // the symbols that read names by computed strings, ascending
  // FileIndex's answers about this file, computed on first use: reads() by interned name (a file is
  // asked about few names, so a scan of small ids beats hashing), prefix_target() by dotted prefix.
  // Both keep their elements in place, so that references and a Read's target pointer stay valid.
  std::vector<uint32_t> read_names;
  std::deque<std::vector<Read>> read_lists; // read_lists[k] for read_names[k]
  // FileIndex::reads_denoting()'s view of read_lists[k], made on first use: the readers through an
  // unknown target, and the definition targets' readers sorted by the target's file.
  struct Denoting {
    struct Definition {
      uint32_t node; // the target's file, kept here so that the look-up reads one array
      int32_t symbol;
      const Target* target;
    };
    std::vector<int32_t> unknown;
    std::vector<int32_t> value_attrs; // the unknown ones that are attributes of a value (Read::value_attr)
    std::vector<Definition> definitions;
  };
  std::deque<std::optional<Denoting>> denoting; // as long as read_lists
  util::StringMap<Target> prefixes;
  std::optional<std::vector<Read>> namespace_reads; // FileIndex::namespace_reads()

  const Binding* binding(std::string_view name) const;
  int32_t symbol(std::string_view qualname) const; // -1 when absent
  // The innermost symbol whose lines (decorators to last line) hold `line`; -1: module level.
  int32_t symbol_at(uint32_t line) const;
  const SymbolView& at(int32_t index) const { return facts.symbols[static_cast<size_t>(index)]; }
};

// Decodes and indexes files on first use.
class FileIndex {
public:
  FileIndex(const ImportGraph& graph, const ProjectFacts& facts);
  ~FileIndex();
  FileIndex(const FileIndex&) = delete;
  FileIndex& operator=(const FileIndex&) = delete;

  // nullptr for ghosts (deleted files have no facts).
  const FileInfo* get(uint32_t node) { return mutable_get(node); }

  // Whether reference `chain` of file `h`, whose component `index` is the referenced name, may denote
  // symbol `qualname` of file `g`.
  bool may_refer(uint32_t h, const std::vector<std::string_view>& chain, size_t index, uint32_t g,
                 std::string_view qualname);
  // A number for `name`, the same for every call with the same text: what reads() is keyed by.
  uint32_t intern(std::string_view name);
  // Where file `h` reads `name` (a component of a reference, interned as `id`); k_any_member_name
  // gives its getattr(self, computed) reads, k_any_value_attr_name its getattr(value, computed). Computed once per file and name.
  const std::vector<Read>& reads(uint32_t h, uint32_t id, std::string_view name);
  // Appends to `out` the symbol of every read of reads(h, id, name) whose target may_denote() symbol
  // `qualname` of file `g` (unsorted, possibly repeated): the same symbols as filtering reads() read by
  // read, with the reads through another file's definitions skipped by a look-up. A stored read
  // (Read::stored) is reported as k_stored_read, a read in a main guard (Read::program) as k_program_read. The reads of `name` as an attribute of a value
  // (Read::value_attr) are reported only when `value_attrs` is set; returns whether the file has any.
  bool reads_denoting(uint32_t h, uint32_t id, std::string_view name, uint32_t g, std::string_view qualname,
                      std::vector<int32_t>& out, bool value_attrs = true);
  // What reads_denoting(h, id, name, g, ...) can give for any `g`, as one answer per file and name:
  // whether some read has an unknown target or is an attribute of a value (then it gives something,
  // or reports value attributes, for every `g`), and the files of the definitions the other reads
  // denote (ascending, unique: it gives nothing for a `g` not among them). Not for a project with
  // linked files (linked()), where a definition is looked for under every number.
  struct DenotingFiles {
    bool unknown = false;
    std::vector<uint32_t> nodes;
  };
  DenotingFiles denoting_files(uint32_t h, uint32_t id, std::string_view name);
  bool linked() const { return m_links; }
  // Whether a function's references that are only stored into pytest's doctest_namespace
  // (Symbol::namespace_values) are reads of what they name: off by default (pytest hands the dict to
  // doctests only, which docs/selection.md `collection` selects), on in --mode safe. Set before any read.
  void count_namespace_stores(bool on) { m_namespace_stores = on; }
  // Whether test code may run a module with TYPE_CHECKING set (asked at most once, on the first name
  // that an `if TYPE_CHECKING:` import and a run-time statement both bind): when it may not, such a
  // name is the run-time binding only. Unset, it may. Set before any read.
  void type_checking_set_by(std::function<bool()> ask) { m_type_checking_ask = std::move(ask); }
  // Where file `h` reads a whole namespace (`ops.__dict__`, inspect.getmembers(ops)), with what the
  // part before `__dict__` denotes; `self.__dict__` (an instance's own attributes) is left out.
  const std::vector<Read>& namespace_reads(uint32_t h);
  // Whether a reference whose prefix denotes `t` may denote symbol `qualname` of file `g`: itself, or a
  // symbol defined inside what it denotes.
  bool may_denote(const Target& t, uint32_t g, std::string_view qualname) const;
  // What dotted name `chain` (e.g. a base class) denotes at the top level of file `h`.
  Target resolve(uint32_t h, std::string_view chain);
  // The submodules a `from X import name` binding of file `h` may bind (X.name, for each module X
  // resolves to): what the name may be when resolve() cannot tell (a star import or a cycle in X).
  std::vector<uint32_t> imported_submodules(uint32_t h, const Binding& b);
  // The project's modules that import `imp` of file `h` names (none for a module from outside the
  // repository).
  std::vector<uint32_t> imported_modules(uint32_t h, const ImportView& imp) const {
    std::vector<uint32_t> out;
    resolve_module(h, imp, out);
    return out;
  }

private:
  FileInfo* mutable_get(uint32_t node);
  // The position of reads(info's file, id, name) in info->read_lists, computed on first use.
  size_t read_list(FileInfo* info, uint32_t id, std::string_view name);
  // reads_denoting()'s view of info->read_lists[at], made on first use.
  const FileInfo::Denoting& denoting(FileInfo* info, size_t at);
  // What components 0..index of reference `chain` in file `info` denote: resolved once per run.
  const Target& prefix_target(FileInfo& info, const std::vector<std::string_view>& chain, size_t index);
  Target root(uint32_t h, std::string_view name, int depth);
  Target member(const Target& t, std::string_view name, int depth);
  Target from_binding(uint32_t h, const FileInfo& info, const Binding& b, int depth);
  bool star_may_rebind(const FileInfo& info, const Binding& b, std::string_view name);
  bool star_may_bind(const FileInfo& info, std::string_view name, uint32_t after);
  std::vector<uint32_t> submodules(const std::vector<uint32_t>& modules, std::string_view name) const;
  void resolve_module(uint32_t importer, const ImportView& imp, std::vector<uint32_t>& out) const;
  // The submodule `name` of the package `imp` imports from, when no file is that package (a namespace
  // package): `from nsp import mod` binds nsp/mod.py.
  std::vector<uint32_t> namespace_submodule(uint32_t importer, const ImportView& imp, std::string_view name) const;
  // Whether the module `imp` imports lies in a package of the project (a relative import, or a
  // dotted name whose prefix is a project module), though no file may be it.
  bool in_project_package(const ImportView& imp) const;
  // The graph's name_match targets of import `imp` of `importer` (an import no root resolves).
  void name_matched(uint32_t importer, const ImportView& imp, std::vector<uint32_t>& out) const;
  bool same_file(uint32_t a, uint32_t b) const;
  bool type_checking_may_run();

  const ImportGraph& m_graph;
  const ProjectFacts& m_facts;
  std::vector<std::unique_ptr<FileInfo>> m_files;
  std::string m_key; // prefix_target's key, reused
  util::StringMap<uint32_t> m_names; // intern()
  bool m_namespace_stores = false; // count_namespace_stores()
  std::function<bool()> m_type_checking_ask;  // type_checking_set_by()
  std::optional<bool> m_type_checking_may_run; // its answer, once asked
  bool m_links = false; // some file is a symbolic link: same_file() must compare paths
};

// Splits "a.b.c" (or ".b.c" for an attribute of a computed value, giving "" first).
std::vector<std::string_view> split_chain(std::string_view chain);

} // namespace impact::resolve
