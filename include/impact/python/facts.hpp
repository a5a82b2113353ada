#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// What one Python file says about itself, read with tree-sitter: its imports, its symbols (functions,
// classes, methods) and the things pytest cares about. Facts depend on the file's content alone, so
// they are cached by content id (src/python/facts_cache.*) and a warm run parses only what changed.
#include "impact/python/compile_check.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
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
  k_import_held = 16,         // a string reference that a module-level value holds (python/stored_values.hpp)
  k_import_code = 32,         // a string reference made by an import inside a string of code (python/code_strings.hpp)
};

// How a file with imports inside strings of code (k_import_code) stands among its names
// (ProjectFacts::mentions): that code may read any name of the modules it imports.
inline constexpr std::string_view k_code_string_name = "*code";

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
// The reference recorded for getattr(value, <computed>) on any value but `self`/`cls` (and
// operator.attrgetter / methodcaller with a computed name): any member of an object, or any
// module-level name of a module object the code was given (docs/selection.md `dynamic-access`).
inline constexpr std::string_view k_any_value_attr = ".*@";
inline constexpr std::string_view k_any_value_attr_name = "*@";
// The reference recorded for `sys.modules["a.b"]` / `sys.modules.get("a.b")`, a lookup by a literal
// key: `*modules.a.b` holds module a.b and no other (`*modules.__name__`: the reading file's own).
inline constexpr std::string_view k_module_lookup = "*modules";
// Symbol::fixture of a fixture whose `name=` cannot be read (`name=make_name()`): it may be requested
// by any name.
inline constexpr std::string_view k_unknown_fixture = "*";

// How a name the file hands to other code as a value (FileFacts::handed) stands among its names
// (ProjectFacts::mentions): `&Longest`, apart from the reads of `Longest`.
inline std::string handed_name(std::string_view name) {
  std::string out(name.size() + 1, '&');
  name.copy(out.data() + 1, name.size());
  return out;
}
// How a name read as an attribute of a value the code cannot name (a reference `.name`, `.x.name`:
// a parameter's, a local's, a call's) stands among the file's names: `.name`, beside the plain one,
// so that the files reading it so are found without decoding every file that mentions it.
inline std::string value_attr_name(std::string_view name) {
  std::string out(name.size() + 1, '.');
  name.copy(out.data() + 1, name.size());
  return out;
}
// The reference recorded for setattr/delattr(obj, <computed>): it runs no method but a property's
// setter or deleter (any object's), and reads nothing.
inline constexpr std::string_view k_any_setter = ".*=";
inline constexpr std::string_view k_any_setter_name = "*=";
// The reference recorded for hasattr(obj, <computed>): it calls nothing but a property's getter.
inline constexpr std::string_view k_any_getter = ".*?";
inline constexpr std::string_view k_any_getter_name = "*?";
// The same on `self` or `cls` (setattr(self, name, v), hasattr(self, name)): only a setter or getter
// of the object's own class's MRO (docs/selection.md `self-calls`).
inline constexpr std::string_view k_self_setter = ".*=self";
inline constexpr std::string_view k_self_setter_name = "*=self";
inline constexpr std::string_view k_self_getter = ".*?self";
inline constexpr std::string_view k_self_getter_name = "*?self";
// getattr(self, "visit_" + kind) is recorded as k_any_member followed by the literal start of the name
// (`.*visit_`): it reads only the members whose names start so. Its name table component (`*visit_`)
// stands for k_any_member_name too. Returns the start ("visit_"), or "" for any other reference.
// The start is made of ASCII letters, digits and underscores only.
inline bool is_ascii_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
inline std::string_view any_member_prefix(std::string_view ref) {
  if (!ref.starts_with(k_any_member) || ref.size() == k_any_member.size()) return {};
  return is_ascii_identifier_char(ref[k_any_member.size()]) ? ref.substr(k_any_member.size()) : std::string_view();
}
// The same for getattr(value, "bump_" + part): k_any_value_attr followed by the literal start
// (`.*@bump_`), a reader of the value attributes whose names start so; its name table component
// (`*@bump_`) stands for k_any_value_attr_name too.
inline std::string_view any_value_attr_prefix(std::string_view ref) {
  if (!ref.starts_with(k_any_value_attr) || ref.size() == k_any_value_attr.size()) return {};
  return is_ascii_identifier_char(ref[k_any_value_attr.size()]) ? ref.substr(k_any_value_attr.size()) : std::string_view();
}
// Whether `ref` is a getattr(value, computed) reader, with or without a literal start.
inline bool is_value_attr_reader(std::string_view ref) {
  return ref == k_any_value_attr || !any_value_attr_prefix(ref).empty();
}

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
  bool wraps_only = false;    // a decorator that only wraps what it is given (python/decorator_shape.hpp)
  bool wraps_direct = false;  // ... and wraps its first argument when called with it (not only a factory)
  std::string fixture;   // the fixture's name when this is a pytest fixture (name= honoured), else ""
  bool autouse = false;  // autouse=True, or an autouse value that cannot be read
  std::vector<std::string> usefixtures; // @pytest.mark.usefixtures("a", ...) names; a class's pytestmark too
  bool usefixtures_dynamic = false;     // a usefixtures argument that cannot be read
  // A method's other names in its class body (`next = __next__`, `__radd__ = __add__`): the class
  // body stores it under them without calling it (docs/selection.md `stored-values`).
  std::vector<std::string> aliases;
  uint32_t body_begin = 0, body_end = 0; // byte range of the body: the symbol's own scope
  uint32_t header_begin = 0; // byte where the def/class statement starts (extraction only, not cached)
  // The dotted names the symbol's own code reads (not its nested definitions'): "helper",
  // "models.Order.save", "self.total"; ".name" for an attribute of a computed value (`f().name`).
  // Names bound locally (assigned, parameters other than self/cls) are left out.
  std::vector<std::string> refs;
  bool dynamic_access = false; // globals(), vars() of a computed value, eval, exec (a computed getattr is k_any_value_attr)
  // The last this many of `refs` are read only to be stored into pytest's doctest_namespace
  // (python/namespace_stores.hpp).
  uint32_t namespace_values = 0;
  // A class: the last this many of `refs` are read only in the annotations of its body's annotated
  // assignments (`config: Final[IniConfig]`), where evaluating them runs none of their code
  // (python/class_annotations.hpp).
  uint32_t annotation_refs = 0;

  std::string_view name() const {
    auto dot = qualname.rfind('.');
    return dot == std::string::npos ? std::string_view(qualname) : std::string_view(qualname).substr(dot + 1);
  }
};

// The facts of one Python source file.
// What a file's strings could name on disk, and whether it lists folders (docs/selection.md,
// `file-readers`).
struct PathStrings {
  std::vector<std::pair<std::string, uint32_t>> strings; // path-like fragment of a string, its first line
  uint32_t listing_line = 0; // the first call that lists a folder the code computes; 0 when none
  bool reads_anything = false; // too many strings to keep, or not read at all: it may read any file
};

// A module-level `NAME = <value>` whose value holds what it names without running it
// (python/stored_values.hpp): `refs` are the chains in stored positions, `wrappers[k]` the callee whose
// first argument refs[k] is (`old = deprecated(f)`), "" when it is stored as it is. A `parametrize`
// value is the argvalues of a `pytest.mark.parametrize` decorating the module-level function `name`:
// pytest hands them to that function (or its fixtures) as arguments, and calls none of them.
struct StoredValue {
  std::string name;
  uint32_t line = 0;
  std::vector<std::string> refs;
  std::vector<std::string> wrappers;
  bool parametrize = false;
};

struct FileFacts {
  std::vector<ImportFact> imports;
  std::vector<UncertainImport> uncertain_imports;
  std::vector<Symbol> symbols;
  std::vector<std::string> module_names; // names bound at module level by assignment (NAME = ...)
  // Those of module_names whose value no code of the file can change (python/constant_names.hpp).
  std::vector<std::string> constant_names;
  // The modules the `>>> ` examples in the file's strings import (`>>> from pkg.b import f` gives
  // "pkg.b" and "pkg.b.f"): what its doctests load besides the module itself (--doctest-modules).
  std::vector<std::string> doctest_modules;
  // The classes and callables the file hands to other code as values, "value\tcallee": arguments
  // of calls, elements of displays, values stored by assignment (python/handed_values.hpp). Outside
  // code may call their methods by names the project never spells.
  std::vector<std::string> handed;
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
  // Code stores into globals() by key or update() (`globals()["test_" + n] = make(n)`): the module
  // may bind names no statement spells, tests among them.
  bool stores_globals = false;
  // What module-level code reads: statements outside definitions, decorators and default values of
  // module-level definitions. Everything here runs when the module is imported.
  std::vector<std::string> module_refs;
  // The last this many of module_refs are read only in stored positions of stored_values.
  uint32_t module_stored = 0;
  // The this many before those are read only in the body of a main guard (python/main_guard.hpp),
  // which runs when the module runs as a program, not on import.
  uint32_t module_program = 0;
  std::vector<StoredValue> stored_values;
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
  std::unique_ptr<Impl> m_impl;
};

} // namespace impact
