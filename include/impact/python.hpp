#pragma once
// What one Python file says about itself, read with tree-sitter: its imports, its symbols (functions,
// classes, methods) and the things pytest cares about. Facts depend on the file's content alone, so
// they are cached by content id (src/python/facts_cache.*) and a warm run parses only what changed.
#include "impact/vocabulary.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impact {

enum class ImportKind : uint8_t {
  plain,      // import a.b.c [as x]
  from,       // from a.b import c [as x], d
  star,       // from a.b import *
  dynamic,    // importlib.import_module("a.b") / __import__("a.b") with a literal argument
  plugin,     // pytest_plugins = ["a.b"] (or a string)
  string_ref, // a string literal naming a dotted path ("a.b.c", "a.b:c"): mock.patch targets, settings
};

std::string_view to_string(ImportKind kind);

// Where an import statement sits; every placement still counts as an edge.
enum ImportFlag : uint8_t {
  k_import_in_function = 1,  // inside a def: runs when called, not at import
  k_import_type_checking = 2, // under `if TYPE_CHECKING:`
  k_import_guarded = 4,       // inside try/except (optional dependency)
  k_import_conditional = 8,   // inside if/else or another compound statement
};

// One import of a module. For `from` imports, `names` holds the imported names and `aliases` the local
// names they are bound to (equal when there is no `as`).
struct ImportFact {
  ImportKind kind = ImportKind::plain;
  uint8_t level = 0; // leading dots of a relative import
  uint8_t flags = 0; // ImportFlag bits
  uint32_t line = 0;
  std::string module; // dotted name without the leading dots; "" for `from . import x`
  std::vector<std::string> names;
  std::vector<std::string> aliases; // for `plain`: one entry, the `as` name or "" when absent
};

// An import whose target is computed at run time (importlib.import_module(name)). `prefix` is the
// literal start of the module name when one is known ("app.plugins."), which bounds what it can load.
struct UncertainImport {
  uint32_t line = 0;
  std::string call;   // the callee as written: "importlib.import_module"
  std::string prefix; // "" when nothing is known
  uint8_t level = 0;  // leading dots of a relative literal prefix
};

enum class SymbolKind : uint8_t { function, method, class_ };

std::string_view to_string(SymbolKind kind);

// The reference recorded for getattr(self, <computed>): it may read any member of an object, and no
// module-level name.
inline constexpr std::string_view k_any_member = ".*";
// How that reference stands among a file's names (ProjectFacts::mentions): its one component.
inline constexpr std::string_view k_any_member_name = "*";
// The reference recorded for setattr/delattr(obj, <computed>): it runs no method but a property's
// setter or deleter (any object's), and reads nothing.
inline constexpr std::string_view k_any_setter = ".*=";
inline constexpr std::string_view k_any_setter_name = "*=";
// The reference recorded for hasattr(obj, <computed>): it calls nothing but a property's getter.
inline constexpr std::string_view k_any_getter = ".*?";
inline constexpr std::string_view k_any_getter_name = "*?";

// A function, method or class definition, nested ones included.
struct Symbol {
  std::string qualname; // "f", "C", "C.m", "f.inner", "C.Inner"
  SymbolKind kind = SymbolKind::function;
  uint32_t first_line = 0; // first decorator, or the def/class line
  uint32_t def_line = 0;   // the line of `def` / `class`
  uint32_t body_line = 0;  // the first line of the body
  uint32_t last_line = 0;
  int32_t parent = -1;     // index of the enclosing symbol in FileFacts::symbols, -1 at module level
  std::vector<std::string> decorators; // the callee of each decorator as written: "pytest.fixture", "app.route"
  std::vector<std::string> params;     // parameter names (functions), in order
  std::vector<std::string> bases;      // base class expressions as written (classes)
  bool is_async = false;
  bool has_init = false; // a class that defines __init__ (pytest does not collect it)
  bool has_metaclass = false; // a class with `metaclass=` (other than ABCMeta): it may register its subclasses
  std::string fixture;   // the fixture's name when this is a pytest fixture (name= honoured), else ""
  bool autouse = false;  // autouse=True, or an autouse value that cannot be read
  std::vector<std::string> usefixtures; // @pytest.mark.usefixtures("a", ...) names; a class's pytestmark too
  bool usefixtures_dynamic = false;     // a usefixtures argument that cannot be read
  uint32_t body_begin = 0, body_end = 0; // byte range of the body: the symbol's own scope
  uint32_t header_begin = 0; // byte where the def/class statement starts (extraction only, not cached)
  // The dotted names the symbol's own code reads (not its nested definitions'): "helper",
  // "models.Order.save", "self.total"; ".name" for an attribute of a computed value (`f().name`).
  // Names bound locally (assigned, parameters other than self/cls) are left out.
  std::vector<std::string> refs;
  bool dynamic_access = false; // getattr/setattr with a computed name, globals(), vars(), eval, exec

  std::string_view name() const {
    auto dot = qualname.rfind('.');
    return dot == std::string::npos ? std::string_view(qualname) : std::string_view(qualname).substr(dot + 1);
  }
};

// What the compile check (src/python/compile_check.*) found first in a file that CPython would refuse,
// or may refuse; `none` when it would compile on every Python 3 version that has its constructs.
enum class SyntaxIssue : uint8_t {
  none,
  // CPython refuses these on every version impact supports (3.7 and later):
  syntax_error,          // tree-sitter found an ERROR or MISSING node
  print_statement,       // print "hi" (Python 2)
  exec_statement,        // exec "code" (Python 2)
  invalid_number,        // 0777, 10L, 1__0, 0x
  diamond_operator,      // a <> b (Python 2)
  invalid_string_prefix, // ur"", bf""
  invalid_string,        // non-ASCII in bytes, a bad escape, bytes mixed with str, '}' alone in an f-string
  outside_loop,          // break / continue outside a loop
  outside_function,      // return / yield outside a function, yield in a comprehension
  outside_async,         // await / async for / async with outside async def
  invalid_target,        // assignment, del, augmented or annotated assignment to what cannot be assigned
  invalid_parameters,    // duplicate names, a parameter without default after one with, bare *, ...
  invalid_arguments,     // positional after keyword, duplicate keyword, unparenthesized generator
  misplaced_future,      // from __future__ not at the top, or an unknown feature
  invalid_scope,         // nonlocal at module level, a parameter declared global, import * in a def
  reserved_name,         // async / await / __debug__ used as a name
  invalid_clause,        // bare except: not last, except with except*, try/else without except, ...
  invalid_starred,       // *a where CPython allows no starred expression
  invalid_character,     // $ ? ` or a non-printable or non-ASCII space outside strings and comments
  null_byte,
  invalid_utf8,          // not UTF-8 and no coding declaration that says otherwise
  inconsistent_tabs,     // TabError
  unindent_mismatch,     // IndentationError: unindent does not match any outer level
  unexpected_indent,     // IndentationError: an indent no ':' opens, or a ':' with no indented block
  too_deep_indent,       // more than 100 levels of indentation
  too_many_parentheses,  // brackets nested past 200
  // CPython may refuse these; impact cannot tell, so it widens:
  unsure_encoding,       // a coding declaration naming a codec impact does not know
  unsure_name_escape,    // \N{...}: impact has no Unicode name table
  too_many_blocks,       // loops/try/with nested near CPython's limit of 20 statically nested blocks
  too_complex,           // nesting deeper than impact follows (CPython's recursion limits)
  unsure_construct,      // a construct whose validity depends on scopes impact does not model
};

std::string_view to_string(SyntaxIssue issue);
// True for issues CPython certainly refuses; false for the ones where impact widens.
bool is_certain(SyntaxIssue issue);

// The compile check of one file: its first issue, and the newest Python 3 minor version its
// constructs need (walrus 3.8, match 3.10, except* 3.11, type parameters 3.12, ...). Depends on the
// content alone, so it is cached with the facts; the project's Python version is applied on use.
struct CompileCheck {
  SyntaxIssue issue = SyntaxIssue::none;
  uint32_t line = 0;       // the issue's line (1-based)
  uint8_t needs_minor = 0; // 0: any Python 3
  uint32_t needs_line = 0; // the first line that needs it

  bool operator==(const CompileCheck&) const = default;
};

// What a check means for a project whose lowest Python is 3.`project_minor` (nullopt: unknown, so any
// construct newer than 3.0 may fail).
struct CompileVerdict {
  bool fails = false;   // CPython refuses it for sure
  bool unsure = false;  // it may refuse it
  uint32_t line = 0;
  std::string why;      // "line 3: print statement (Python 2)"
  bool compiles() const { return !fails && !unsure; }
};
CompileVerdict compile_verdict(const CompileCheck& check, std::optional<uint8_t> project_minor);
// Parses `source` and checks it (src/python/compile_check.*).
CompileCheck compile_check_of(std::string_view source);

// The facts of one Python source file.
// What a file's strings could name on disk, and whether it lists folders (docs/selection.md,
// `file-readers`).
struct PathStrings {
  std::vector<std::pair<std::string, uint32_t>> strings; // path-like fragment of a string, its first line
  uint32_t listing_line = 0; // the first call that lists a folder the code computes; 0 when none
  bool reads_anything = false; // too many strings to keep, or not read at all: it may read any file
};

struct FileFacts {
  std::vector<ImportFact> imports;
  std::vector<UncertainImport> uncertain_imports;
  std::vector<Symbol> symbols;
  std::vector<std::string> module_names; // names bound at module level by assignment (NAME = ...)
  std::optional<std::vector<std::string>> all_names; // a literal __all__, when there is one
  bool all_dynamic = false;       // __all__ is built in a way that cannot be read
  std::vector<std::string> collect_ignore; // a literal module-level collect_ignore (conftest.py)
  std::vector<std::string> collect_ignore_glob;
  bool pytest_plugins_dynamic = false; // pytest_plugins that cannot be read literally
  bool has_doctest = false;  // some string contains ">>> " (doctests, when --doctest-modules is on)
  bool parse_error = false;  // tree-sitter found syntax errors; imports were also read by a line scan
  // Larger than k_max_parsed_bytes: not parsed, only its import lines and dotted strings read (and
  // parse_error set, so that every rule treats it at file level).
  bool oversized = false;
  CompileCheck compile;      // whether CPython would compile it (docs/selection.md, syntax-error)
  bool defines_module_getattr = false; // module-level __getattr__: any attribute may exist
  // What module-level code reads: statements outside definitions, decorators and default values of
  // module-level definitions. Everything here runs when the module is imported.
  std::vector<std::string> module_refs;
  bool module_dynamic_access = false;
  // A module-level `pytestmark = pytest.mark.usefixtures(...)`.
  std::vector<std::string> module_usefixtures;
  bool module_usefixtures_dynamic = false;
  PathStrings paths;
};

// A Python file larger than this is not parsed (a 50 MB generated module took a minute and 3 GB): its
// imports are read by a line scan and it is analysed at file level (docs/selection.md, `large-files`).
constexpr size_t k_max_parsed_bytes = size_t{2} << 20;

// Reads the facts of one Python source file. Never throws: unparseable input yields what could be read
// and parse_error = true.
class FactsExtractor {
public:
  FactsExtractor();
  ~FactsExtractor();
  FactsExtractor(const FactsExtractor&) = delete;
  FactsExtractor& operator=(const FactsExtractor&) = delete;

  FileFacts extract(std::string_view source);

private:
  struct Impl;
  Impl* m_impl;
};

// One import as read from encoded facts: strings are views into the facts' storage.
struct ImportView {
  ImportKind kind = ImportKind::plain;
  uint8_t level = 0;
  uint8_t flags = 0;
  uint32_t line = 0;
  std::string_view module;
  size_t names_begin = 0, names_end = 0;     // [begin, end) in the scratch's names
  size_t aliases_begin = 0, aliases_end = 0; // [begin, end) in the scratch's aliases
};

// A contiguous run of a FactsView's string pool.
struct ViewRange {
  uint32_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};

// A symbol read as views into its file's encoded facts (see FactsView).
struct SymbolView {
  std::string_view qualname;
  std::string_view fixture;
  SymbolKind kind = SymbolKind::function;
  int32_t parent = -1;
  uint32_t first_line = 0, def_line = 0, last_line = 0;
  bool has_init = false, autouse = false, usefixtures_dynamic = false, dynamic_access = false, has_metaclass = false;
  ViewRange decorators, params, bases, usefixtures, refs;

  std::string_view name() const {
    auto dot = qualname.rfind('.');
    return dot == std::string_view::npos ? qualname : qualname.substr(dot + 1);
  }
};

// Everything the symbol walk reads of one file, as views into the encoded facts: no string is copied.
// Valid while the ProjectFacts it came from lives.
struct FactsView {
  std::vector<std::string_view> strings; // the pool the ranges index
  std::vector<SymbolView> symbols;
  std::vector<std::string_view> module_names;
  ViewRange module_refs, module_usefixtures;
  bool module_dynamic_access = false, module_usefixtures_dynamic = false, defines_module_getattr = false;

  const std::string_view* begin(ViewRange r) const { return strings.data() + r.begin; }
  const std::string_view* end(ViewRange r) const { return strings.data() + r.end; }
};

// Reusable storage for decoding one file's imports without allocating per import.
struct ImportScratch {
  std::vector<ImportView> imports;
  std::vector<std::string_view> names;
  std::vector<std::string_view> aliases;
};

// The small, always-decoded part of a file's facts.
struct FactsHeader {
  bool parse_error = false;
  bool has_doctest = false;
  bool all_dynamic = false;
  bool has_all = false;
  bool pytest_plugins_dynamic = false;
  bool defines_module_getattr = false;
  bool has_uncertain_imports = false;
  bool has_collect_ignore = false;
  bool has_dynamic_access = false; // some code reads attributes or names by computed strings
  bool oversized = false;          // too large to parse: read at file level (FileFacts::oversized)
  CompileCheck compile;
};

// The facts of every Python file of the state under test, kept in their encoded form (as in the
// cache) and decoded on demand: a warm run touches only what its stages read.
class ProjectFacts {
public:
  std::vector<SourceFile> files; // sorted by path
  size_t parsed = 0;             // how many were parsed this run; the others came from the cache

  size_t size() const { return files.size(); }
  // The index of `path`, or npos when it is not a Python file of the state under test.
  size_t find(std::string_view path) const;
  static constexpr size_t npos = static_cast<size_t>(-1);

  FactsHeader header(size_t i) const;
  // Decodes file i's imports into `scratch` (cleared first); the views live as long as this object.
  void imports(size_t i, ImportScratch& scratch) const;
  // Everything about file i, decoded into owning storage.
  FileFacts full(size_t i) const;
  // File i's symbols, references and module-level names as views (cheap: no strings are copied).
  void view(size_t i, FactsView& out) const;
  // What file i's strings could name on disk (reads_anything when its facts cannot be read).
  PathStrings paths(size_t i) const;
  // Whether file i's code reads `name` anywhere (a component of a reference, a fixture request):
  // a cheap test on a sorted table of name hashes, without decoding the file.
  bool mentions(size_t i, std::string_view name) const;
  // The files that mention `name` (as mentions() says), ascending: a lookup in an inverted index of
  // every file's name table, built on first use, so that a walk asking about many names does not scan
  // every file for each.
  std::vector<uint32_t> files_mentioning(std::string_view name) const;

  // For load_facts and tests: append a file with its encoded facts (viewed, not copied, when
  // `storage` already owns them).
  void add(SourceFile file, std::string_view encoded);
  void keep_alive(std::shared_ptr<const void> storage) { m_storage.push_back(std::move(storage)); }
  // Encodes `facts` into storage owned by this object and returns the view.
  std::string_view own(const FileFacts& facts);

private:
  std::vector<std::string_view> m_blobs;
  mutable std::vector<std::string_view> m_name_tables; // filled on first use by mentions()
  mutable std::vector<char> m_name_table_ready;
  const std::string_view& name_table(size_t i) const;
  // files_mentioning's index: the sorted distinct name hashes, where each one's files start in
  // m_mention_files (one more offset than hashes), and the files whose table cannot be read.
  mutable std::vector<uint32_t> m_mention_hashes, m_mention_offsets, m_mention_files, m_mention_all;
  mutable bool m_mention_ready = false;
  std::vector<std::shared_ptr<const void>> m_storage;
};

namespace python {
class FactsCache;
// The modules the >>> examples of a text doctest file import (`import a.b`, `from a import b` gives
// "a" and "a.b"), with their 1-based lines.
std::vector<std::pair<std::string, uint32_t>> doctest_imports(std::string_view text);
}

using ReadSource = std::function<std::optional<std::string>(const SourceFile&)>;

// Reads the facts of `files` (Python files, sorted by path): from `cache` when it has them, else by
// parsing on `threads` threads; what was parsed is added to the cache (the caller saves it while the
// returned facts live: the cache's new entries are views of them). A file
// that cannot be read gets empty facts with parse_error set.
ProjectFacts load_facts(std::vector<SourceFile> files, const ReadSource& read, python::FactsCache& cache,
                        unsigned threads);

} // namespace impact

namespace impact {

// The shape of one symbol for the semantic diff: hashes of its parts, computed from the syntax tree
// with comments and layout left out, so that two versions compare equal exactly when they mean the
// same code.
struct SymbolShape {
  std::string qualname;
  SymbolKind kind = SymbolKind::function;
  LineSpan lines;              // first decorator to last line
  uint64_t at_definition = 0;  // what runs when the def/class statement runs: decorators, default
                               // values, annotations; for a class also its bases and own body
  uint64_t signature = 0;      // parameter names and kinds, return annotation (functions)
  uint64_t docstring = 0;
  uint64_t body = 0;           // the body without its docstring (for a class: nothing, see at_definition)
  uint64_t with_comments = 0;  // everything, comments included: tells comment-only from layout-only
};

// The shape of a whole file: its symbols (in source order) and its module-level parts.
struct FileShape {
  std::vector<SymbolShape> symbols;
  uint64_t imports = 0;       // module-level import statements (also inside if/try at module level)
  uint64_t module_code = 0;   // every other module-level statement, defs and classes excluded
  uint64_t docstring = 0;
  uint64_t with_comments = 0; // the whole file, comments included
  uint64_t tokens = 0;        // the whole file without comments
  bool parse_error = false;
  // Bytes between tokens that tree-sitter skips and CPython rejects (a vertical tab, a no-break or
  // zero-width space, a NUL, a stray backslash): the hashes ignore layout, so they cannot see these.
  bool layout_error = false;
  CompileCheck compile;       // whether CPython would compile it
};

// Computes the shape of `source` (parses it; one call per side of a changed file).
FileShape shape_of(std::string_view source);

} // namespace impact

namespace impact {

// For each line of `source` (index = line number, 1-based; [0] unused), the first line of the innermost
// statement that holds it: coverage.py records a multi-line statement on its first line only. 0 for a
// line outside any statement (blank lines and comments between statements).
std::vector<uint32_t> statement_starts(std::string_view source);

} // namespace impact
