// diff_semantics(): both versions' shapes, matched by qualified name (and occurrence, for names
// defined twice such as a property and its setter), then compared part by part.
#include "impact/python/shape.hpp"
#include "impact/semantic.hpp"
#include "impact/python/source_view.hpp"

#include <fmt/format.h>

#include <cctype>
#include <future>
#include <map>

namespace impact {

std::string_view to_string(Confidence confidence) {
  switch (confidence) {
  case Confidence::high: return "high";
  case Confidence::low: return "low";
  }
  return "high";
}

std::string_view to_string(ChangeKind kind) {
  switch (kind) {
  case ChangeKind::comment_only: return "comment_only";
  case ChangeKind::formatting_only: return "formatting_only";
  case ChangeKind::docstring_only: return "docstring_only";
  case ChangeKind::implementation: return "implementation";
  case ChangeKind::signature: return "signature";
  case ChangeKind::definition: return "definition";
  case ChangeKind::class_body: return "class_body";
  case ChangeKind::import_: return "import";
  case ChangeKind::module_code: return "module_code";
  case ChangeKind::main_block: return "main_block";
  case ChangeKind::type_checking: return "type_checking";
  case ChangeKind::added_symbol: return "added_symbol";
  case ChangeKind::deleted_symbol: return "deleted_symbol";
  case ChangeKind::added_file: return "added_file";
  case ChangeKind::deleted_file: return "deleted_file";
  case ChangeKind::renamed_file: return "renamed_file";
  case ChangeKind::unclassifiable: return "unclassifiable";
  case ChangeKind::syntax_error: return "syntax_error";
  }
  return "unclassifiable";
}

namespace {

// The shape hash of a part that is absent (no decorators, no docstring).
const uint64_t k_empty_hash = [] {
  FileShape empty = shape_of("");
  return empty.docstring;
}();

using Key = std::pair<std::string, int>; // qualname, occurrence

std::map<Key, const SymbolShape*> by_key(const FileShape& shape) {
  std::map<Key, const SymbolShape*> out;
  std::map<std::string, int> seen;
  for (const auto& s : shape.symbols) out[{s.qualname, seen[s.qualname]++}] = &s;
  return out;
}

// The change between two versions of one symbol, or nullopt when they mean the same code.
std::optional<ChangeKind> compare(const SymbolShape& a, const SymbolShape& b) {
  if (a.kind != b.kind) return ChangeKind::definition;
  if (a.at_definition != b.at_definition) {
    return a.kind == SymbolKind::class_ ? ChangeKind::class_body : ChangeKind::definition;
  }
  if (a.signature != b.signature) return ChangeKind::signature;
  if (a.body != b.body) return ChangeKind::implementation;
  if (a.docstring != b.docstring) return ChangeKind::docstring_only;
  return std::nullopt;
}

// Whether the symbols both sides define appear in another order (each side's symbols are in the order
// of their source).
bool reordered(const FileShape& before, const FileShape& after) {
  auto old_keys = by_key(before), new_keys = by_key(after);
  auto common = [](const FileShape& side, const std::map<Key, const SymbolShape*>& other) {
    std::vector<Key> out;
    std::map<std::string, int> seen;
    for (const auto& s : side.symbols) {
      Key key{s.qualname, seen[s.qualname]++};
      if (other.contains(key)) out.push_back(std::move(key));
    }
    return out;
  };
  return common(before, new_keys) != common(after, old_keys);
}

// Adding or removing a definition runs code at import when its definition does: decorators, default
// values, a class body.
bool defines_at_import(const SymbolShape& s) { return s.kind == SymbolKind::class_ || s.at_definition != k_empty_hash; }

// Whether `qualname` is defined inside a function of `side` (a test's local class, a closure): its
// definition (a class body, decorators, defaults) runs when that function runs, not at import. Every
// symbol of an enclosing name must be a function: where a class of that name exists too, it may be
// the one around it.
bool in_function(const std::map<Key, const SymbolShape*>& side, const std::string& qualname) {
  for (size_t dot = qualname.find('.'); dot != std::string::npos; dot = qualname.find('.', dot + 1)) {
    std::string prefix = qualname.substr(0, dot);
    bool any = false, functions = true;
    for (int n = 0;; ++n) {
      auto it = side.find({prefix, n});
      if (it == side.end()) break;
      any = true;
      functions = functions && it->second->kind != SymbolKind::class_;
    }
    if (any && functions) return true;
  }
  return false;
}

FileSemantics whole_file(const ChangedFile& change, ChangeKind kind) {
  FileSemantics out;
  out.path = change.path();
  if (change.status == FileStatus::renamed) out.old_path = change.old_path;
  out.kind = kind;
  out.runs_at_import = true;
  return out;
}

// Why a side of the change may not compile for the project's Python, or "" (docs/selection.md,
// syntax-error). The old side counts only while the file exists: a fix changes every import too.
std::string syntax_problem(const std::optional<std::string>& old_text, const std::optional<std::string>& new_text,
                           const std::optional<FileShape>& before, const std::optional<FileShape>& after,
                           std::optional<uint8_t> python_minor) {
  if (!new_text) return {};
  CompileCheck new_check = after ? after->compile : compile_check_of(*new_text);
  std::optional<CompileCheck> old_check;
  if (old_text) old_check = before ? before->compile : compile_check_of(*old_text);
  // Without a readable requires-python, syntax of a newer Python that the base side has already (`/`
  // parameters in an unchanged line) ran on the project's interpreter before this change: only a
  // need newer than the base's is the change's.
  if (!python_minor && old_check && old_check->issue == SyntaxIssue::none && new_check.issue == SyntaxIssue::none &&
      new_check.needs_minor <= old_check->needs_minor) {
    return {};
  }
  auto side = [&](const CompileCheck& check, std::string_view name) {
    CompileVerdict v = compile_verdict(check, python_minor);
    if (v.compiles()) return std::string();
    return fmt::format("{} side {}, {}", name, v.fails ? "does not compile" : "may not compile", v.why);
  };
  std::string why = side(new_check, "new");
  if (why.empty() && old_check) why = side(*old_check, "old");
  return why;
}

FileSemantics classify(const ChangedFile& change, const std::optional<std::string>& old_text,
                       const std::optional<std::string>& new_text, std::optional<FileShape>& before_shape,
                       std::optional<FileShape>& after_shape);

// Both sides together from this size on are parsed on two threads.
constexpr size_t k_parse_apart_bytes = 16 * 1024;

} // namespace

FileSemantics diff_semantics(const ChangedFile& change, const std::optional<std::string>& old_text,
                             const std::optional<std::string>& new_text, std::optional<uint8_t> python_minor) {
  std::optional<FileShape> before, after;
  FileSemantics out = classify(change, old_text, new_text, before, after);
  if (change.symlink) return out; // its text is a path, not Python
  out.syntax = syntax_problem(old_text, new_text, before, after, python_minor);
  out.syntax_judged = old_text.has_value() && new_text.has_value();
  if (!out.syntax.empty()) {
    out.kind = ChangeKind::syntax_error;
    out.runs_at_import = true;
  }
  return out;
}

namespace {

FileSemantics classify(const ChangedFile& change, const std::optional<std::string>& old_text,
                       const std::optional<std::string>& new_text, std::optional<FileShape>& before_shape,
                       std::optional<FileShape>& after_shape) {
  switch (change.status) {
  case FileStatus::added: return whole_file(change, ChangeKind::added_file);
  case FileStatus::deleted: return whole_file(change, ChangeKind::deleted_file);
  case FileStatus::renamed: return whole_file(change, ChangeKind::renamed_file);
  case FileStatus::type_changed: return whole_file(change, ChangeKind::unclassifiable);
  case FileStatus::modified: break;
  }
  if (change.binary || change.symlink || !old_text || !new_text) return whole_file(change, ChangeKind::unclassifiable);

  // A large module takes tens of milliseconds a side to parse (docs/performance.md): the old side
  // parses on a thread of its own meanwhile. Small files are not worth a thread.
  std::future<FileShape> old_shape;
  bool apart = old_text->size() + new_text->size() >= k_parse_apart_bytes;
  if (apart) old_shape = std::async(std::launch::async, [&] { return shape_of(*old_text); });
  const FileShape& after = after_shape.emplace(shape_of(*new_text));
  const FileShape& before = before_shape.emplace(apart ? old_shape.get() : shape_of(*old_text));
  // A file tree-sitter cannot read, or whose layout CPython would reject, is no mere edit.
  if (before.parse_error || after.parse_error || before.layout_error || after.layout_error) {
    FileSemantics out = whole_file(change, ChangeKind::unclassifiable);
    out.confidence = Confidence::low;
    return out;
  }
  std::string old_buffer, new_buffer; // the declaration is read from the lines CPython sees
  if (python::coding_declaration(python::cpython_source(*old_text, old_buffer)) !=
      python::coding_declaration(python::cpython_source(*new_text, new_buffer))) {
    return whole_file(change, ChangeKind::module_code);
  }
  FileSemantics out;
  out.path = change.path();
  if (before.tokens == after.tokens) {
    out.kind = before.with_comments == after.with_comments ? ChangeKind::formatting_only : ChangeKind::comment_only;
    for (const auto& [key, a] : by_key(before)) {
      auto b = by_key(after);
      if (auto it = b.find(key); it != b.end() && it->second->with_comments != a->with_comments) {
        out.comment_changed.push_back(key.first);
      }
    }
    return out;
  }
  out.kind = ChangeKind::implementation;
  if (before.imports != after.imports) {
    out.kind = ChangeKind::import_;
    out.runs_at_import = true;
  } else if (before.module_code != after.module_code) {
    out.kind = ChangeKind::module_code;
    out.runs_at_import = true;
  } else if (before.docstring != after.docstring) {
    out.kind = ChangeKind::docstring_only; // the module's __doc__
    out.runs_at_import = true;
  } else if (before.main_block != after.main_block) {
    out.kind = ChangeKind::main_block;
  } else if (before.type_checking != after.type_checking) {
    out.kind = ChangeKind::type_checking;
  }
  // A type checker reads an `if TYPE_CHECKING:` body where a test runs one as a program (`mypy src`).
  out.runs_as_program = before.main_block != after.main_block || before.type_checking != after.type_checking;

  auto old_symbols = by_key(before);
  auto new_symbols = by_key(after);
  for (const auto& [key, b] : new_symbols) {
    auto it = old_symbols.find(key);
    SymbolChange sc;
    sc.qualname = key.first;
    sc.kind = b->kind;
    sc.new_lines = b->lines;
    if (it == old_symbols.end()) {
      sc.change = ChangeKind::added_symbol;
      sc.runs_at_import = defines_at_import(*b) && !in_function(new_symbols, key.first);
    } else {
      sc.old_lines = it->second->lines;
      auto kind = compare(*it->second, *b);
      if (!kind) {
        if (it->second->with_comments != b->with_comments) out.comment_changed.push_back(key.first);
        continue;
      }
      sc.change = *kind;
      sc.runs_at_import = (*kind == ChangeKind::definition || *kind == ChangeKind::class_body) &&
                          !(in_function(old_symbols, key.first) && in_function(new_symbols, key.first));
      sc.docstring_changed = it->second->docstring != b->docstring;
    }
    out.runs_at_import |= sc.runs_at_import;
    out.symbols.push_back(std::move(sc));
  }
  for (const auto& [key, a] : old_symbols) {
    if (new_symbols.contains(key)) continue;
    SymbolChange sc;
    sc.qualname = key.first;
    sc.kind = a->kind;
    sc.old_lines = a->lines;
    sc.change = ChangeKind::deleted_symbol;
    sc.runs_at_import = defines_at_import(*a) && !in_function(old_symbols, key.first);
    out.runs_at_import |= sc.runs_at_import;
    out.symbols.push_back(std::move(sc));
  }
  // Definitions that moved: the same text in another order. Order is behaviour at import (a def moved
  // below its first use raises NameError, a registry's last entry wins, the first matching route
  // answers), so a change of order, or a change the parts above cannot see (only a move is left), is
  // one of the module's code: its importers are reached whole.
  if (reordered(before, after) || (out.symbols.empty() && !out.runs_at_import && out.kind == ChangeKind::implementation)) {
    if (out.kind == ChangeKind::implementation) out.kind = ChangeKind::module_code;
    out.runs_at_import = true;
  }
  std::stable_sort(out.symbols.begin(), out.symbols.end(), [](const SymbolChange& x, const SymbolChange& y) {
    uint32_t a = x.new_lines.first != 0 ? x.new_lines.first : 0xffffffffU;
    uint32_t b = y.new_lines.first != 0 ? y.new_lines.first : 0xffffffffU;
    return a < b;
  });
  return out;
}

} // namespace

} // namespace impact
