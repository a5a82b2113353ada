#pragma once
#ifdef IMPACT_FORBID_SEMANTIC // defined for the stages that may not use semantic (src/CMakeLists.txt)
#error "this stage may not use semantic (docs/architecture.md, allowed edges)"
#endif
// Stage 2, the semantic diff: for each changed Python file, which symbols changed and how, read from
// both versions' syntax trees. A change it cannot classify is never treated as a no-op.
#include "impact/changes.hpp"
#include "impact/python/facts.hpp"

#include <optional>
#include <string>
#include <vector>

namespace impact {

enum class ChangeKind : uint8_t {
  comment_only,    // only comments differ
  formatting_only, // the same tokens, laid out differently
  docstring_only,  // only a docstring differs
  implementation,  // a function's body
  signature,       // parameter names or kinds, async
  definition,      // decorators, default values, annotations: code that runs when the def runs
  class_body,      // a class's bases, decorators or own statements: run when the class is defined
  import_,         // module-level imports
  module_code,     // any other module-level statement
  main_block,      // the body of a module-level `if __name__ == "__main__":`: runs only as a program
  type_checking,   // the body of a module-level `if TYPE_CHECKING:`: only a type checker reads it
  added_symbol,
  deleted_symbol,
  added_file,
  deleted_file,
  renamed_file,
  unclassifiable,  // binary, unparseable, a type change: analysed as a whole-file change
  syntax_error,    // a side CPython may not compile: every import of the module changes
};

std::string_view to_string(ChangeKind kind);

// How far the semantic diff of a file can be trusted (`impact changes`: `confidence`).
enum class Confidence {
  high, // both sides parsed: the classification stands
  low,  // a side did not parse (or its layout is one CPython rejects): the file is unclassifiable
};

std::string_view to_string(Confidence confidence); // "high", "low" (docs/json.md: never renamed)

// One changed symbol. `old_lines` / `new_lines` are {0, 0} on the side where it does not exist.
struct SymbolChange {
  std::string qualname;
  SymbolKind kind = SymbolKind::function;
  ChangeKind change = ChangeKind::implementation;
  LineSpan old_lines;
  LineSpan new_lines;
  bool runs_at_import = false; // the changed code runs when the module is imported
  bool docstring_changed = false; // its docstring changed too (an implementation change besides)
};

// What changed in one Python file.
struct FileSemantics {
  RepoPath path;     // the current path (the old one for a deleted file)
  RepoPath old_path; // for renames
  // The file as a whole: comment_only / formatting_only when nothing else changed; added_file,
  // deleted_file, renamed_file, unclassifiable; else the kind of its first module-level change, or
  // implementation when only symbols changed.
  ChangeKind kind = ChangeKind::implementation;
  // A change to code that runs when the module is imported: every importer is affected, whatever
  // names it uses (the file-level rule applies).
  bool runs_at_import = false;
  // A change to the body of a module-level `if __name__ == "__main__":` block: code that runs where the
  // module runs as a program (`python -m pkg.mod`, `runpy`), never on import. Also a change to the body
  // of a module-level `if TYPE_CHECKING:`, which only a type checker run as a program reads.
  bool runs_as_program = false;
  std::vector<SymbolChange> symbols; // in the order of the new file (deleted ones after)
  Confidence confidence = Confidence::high;
  // Symbols whose comments changed (and nothing else): what `--mode safe` counts as changed.
  std::vector<std::string> comment_changed;
  // Why CPython may not compile a side of the change ("new side, line 3: print statement (Python 2)"),
  // or "" when both sides compile for the project's Python; then kind is syntax_error.
  std::string syntax;
  // The compile check judged both sides (false for an added file, or a side that could not be read:
  // the facts' check of the new side is taken instead).
  bool syntax_judged = false;
};

// Compares the two versions of a changed Python file (std::nullopt for a side that does not exist).
// `python_minor` is the project's lowest Python 3 minor version (nullopt: unknown), by which the
// compile check of each side is judged.
FileSemantics diff_semantics(const ChangedFile& change, const std::optional<std::string>& old_text,
                             const std::optional<std::string>& new_text,
                             std::optional<uint8_t> python_minor = std::nullopt);

} // namespace impact
