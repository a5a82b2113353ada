#include "python/scan.hpp"

#include "python/literals.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace impact::python {

namespace {

constexpr std::array<std::string_view, 7> k_dynamic_callees = {
    "import_module", "__import__", "run_module", "resolve_name", "run_path", "spec_from_file_location", "load_source",
};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A part of a module name in a string: importlib takes file names that are no identifiers, so a
// dash and non-ASCII letters count (mock.patch("pkg.round-half.apply") imports pkg/round-half.py).
bool is_name_start(char c) { return is_ident_start(c) || static_cast<unsigned char>(c) >= 0x80; }
bool is_name_char(char c) { return is_ident_char(c) || c == '-' || static_cast<unsigned char>(c) >= 0x80; }

// True for "a.b", "a.b.c", "a.b:c" and "a:b.c" with name components.
bool looks_dotted(std::string_view s) {
  if (s.empty() || s.size() > 200 || !is_name_start(s.front())) return false;
  bool separator = false, colon = false;
  char prev = 0;
  for (char c : s) {
    if (c == '.' || c == ':') {
      if (prev == '.' || prev == ':' || prev == 0) return false;
      if (c == ':') {
        if (colon) return false;
        colon = true;
      }
      separator = true;
    } else if (!is_name_char(c)) {
      return false;
    } else if ((prev == '.' || prev == ':') && !is_name_start(c)) {
      return false;
    }
    prev = c;
  }
  return separator && prev != '.' && prev != ':';
}

// "data.json" and friends are file names, not modules.
bool looks_like_file_name(std::string_view s) {
  static constexpr std::array<std::string_view, 18> k_ext = {
      "py", "pyc", "json", "txt", "cfg", "ini", "yml", "yaml", "toml", "csv", "html", "md", "rst", "log", "xml",
      "sql", "sh", "lock"};
  auto dot = s.rfind('.');
  if (dot == std::string_view::npos || s.find('.') != dot) return false;
  auto ext = s.substr(dot + 1);
  for (auto e : k_ext) {
    if (ext == e) return true;
  }
  return false;
}

// The `package` argument of importlib.import_module(name, package): what a relative name is relative to.
struct Anchor {
  enum Kind { none, literal, own_package, unknown } kind = none;
  std::string package; // for `literal`
};

Anchor package_anchor(TSNode args, std::string_view source) {
  const Grammar& g = Grammar::get();
  Anchor anchor;
  TSNode value{};
  uint32_t positional = 0;
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode arg = ts_node_named_child(args, i);
    if (ts_node_symbol(arg) == g.keyword_argument) {
      TSNode name = ts_node_child_by_field_id(arg, g.f_name);
      if (!ts_node_is_null(name) && node_text(name, source) == "package") value = ts_node_child_by_field_id(arg, g.f_value);
    } else if (++positional == 2) {
      value = arg;
    }
  }
  if (ts_node_is_null(value)) return anchor;
  std::string_view text = node_text(value, source);
  if (text == "__name__" || text == "__package__" || text == "__spec__.parent") {
    anchor.kind = Anchor::own_package;
  } else if (auto literal = string_value(value, source, g)) {
    anchor.kind = Anchor::literal;
    anchor.package = *literal;
  } else {
    anchor.kind = Anchor::unknown;
  }
  return anchor;
}

// Turns ".x" relative to a literal package "a.b.c" into "a.b.c.x" ("..x" into "a.b.x").
std::string absolute_from(const std::string& package, uint8_t level, std::string_view name) {
  std::string base = package;
  for (uint8_t up = 1; up < level; ++up) {
    auto dot = base.rfind('.');
    base = dot == std::string::npos ? std::string() : base.substr(0, dot);
  }
  if (base.empty()) return std::string(name);
  if (name.empty()) return base;
  return base + "." + std::string(name);
}

// The text of 1-based line `line`.
std::string_view line_text(std::string_view source, uint32_t line) {
  size_t start = 0;
  for (uint32_t l = 1; l < line && start != std::string_view::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start >= source.size()) return {};
  size_t end = source.find('\n', start);
  return source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// `# impact-loads: a.b, app.plugins.*` on the call's line or the line above names what a computed import
// can load: literal modules, or every module under a prefix. It replaces the uncertainty.
bool record_annotation(std::string_view source, uint32_t line, FileFacts& facts) {
  constexpr std::string_view k_marker = "impact-loads:";
  std::string_view text = line_text(source, line);
  auto at = text.find(k_marker);
  if (at == std::string_view::npos && line > 1) {
    text = line_text(source, line - 1);
    at = text.find(k_marker);
  }
  if (at == std::string_view::npos || text.substr(0, at).find('#') == std::string_view::npos) return false;
  std::string_view rest = text.substr(at + k_marker.size());
  bool any = false;
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!entry.empty() && (entry.front() == ' ' || entry.front() == '\t')) entry.remove_prefix(1);
    while (!entry.empty() && (entry.back() == ' ' || entry.back() == '\t' || entry.back() == '\r')) entry.remove_suffix(1);
    if (entry.empty()) continue;
    any = true;
    if (entry.ends_with(".*")) {
      UncertainImport u;
      u.line = line;
      u.call = "impact-loads";
      u.prefix = std::string(entry.substr(0, entry.size() - 1));
      facts.uncertain_imports.push_back(std::move(u));
    } else {
      ImportFact fact;
      fact.kind = ImportKind::dynamic;
      fact.line = line;
      fact.flags = k_import_in_function;
      fact.module = std::string(entry);
      facts.imports.push_back(std::move(fact));
    }
  }
  return any;
}

void record_dynamic(TSNode call, std::string_view callee, std::string_view source, FileFacts& facts) {
  const Grammar& g = Grammar::get();
  uint32_t line = line_of(ts_node_start_point(call));
  TSNode args = ts_node_child_by_field_id(call, g.f_arguments);
  TSNode first{};
  if (!ts_node_is_null(args) && ts_node_named_child_count(args) > 0) first = ts_node_named_child(args, 0);
  bool by_module = callee.ends_with("import_module") || callee.ends_with("__import__") ||
                   callee.ends_with("run_module") || callee.ends_with("resolve_name");
  if (by_module && !ts_node_is_null(first) && ts_node_symbol(first) != g.keyword_argument) {
    Anchor anchor = callee.ends_with("import_module") ? package_anchor(args, source) : Anchor{};
    auto value = string_value(first, source, g);
    std::string text = value ? *value : string_prefix(first, source, g);
    std::string_view name = text;
    uint8_t level = 0;
    while (!name.empty() && name.front() == '.') {
      ++level;
      name.remove_prefix(1);
    }
    std::string module(name.substr(0, name.find(':'))); // pkgutil.resolve_name("a.b:attr")
    if (level > 0 && anchor.kind == Anchor::literal) {
      module = absolute_from(anchor.package, level, name);
      level = 0;
    }
    bool anchored = level == 0 || anchor.kind != Anchor::unknown;
    if (value && anchored) {
      ImportFact fact;
      fact.kind = ImportKind::dynamic;
      fact.line = line;
      fact.level = level;
      fact.module = std::move(module);
      fact.flags = k_import_in_function;
      facts.imports.push_back(std::move(fact));
      return;
    }
    if (record_annotation(source, line, facts)) return;
    UncertainImport u;
    u.line = line;
    u.call = std::string(callee);
    if (anchored) {
      u.level = level;
      u.prefix = std::move(module);
    }
    facts.uncertain_imports.push_back(std::move(u));
    return;
  }
  if (record_annotation(source, line, facts)) return;
  UncertainImport u;
  u.line = line;
  u.call = std::string(callee);
  facts.uncertain_imports.push_back(std::move(u));
}

} // namespace

bool names_dynamic_import(std::string_view source, const std::vector<Token>& tokens) {
  for (const Token& t : tokens) {
    if (t.kind != Tok::name || t.end - t.begin < 8) continue; // the shortest callee, run_path, has 8
    std::string_view name = source.substr(t.begin, t.end - t.begin);
    if (std::find(k_dynamic_callees.begin(), k_dynamic_callees.end(), name) != k_dynamic_callees.end()) return true;
  }
  return false;
}

void scan_dynamic_imports(TSNode root, std::string_view source, FileFacts& facts) {
  const Grammar& g = Grammar::get();
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_symbol(node) == g.call) {
      TSNode fn = ts_node_child_by_field_id(node, g.f_function);
      if (!ts_node_is_null(fn)) {
        std::string_view callee = node_text(fn, source);
        auto dot = callee.rfind('.');
        std::string_view last = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
        for (auto name : k_dynamic_callees) {
          if (last == name) {
            record_dynamic(node, callee, source, facts);
            break;
          }
        }
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
    }
  }
}

void scan_string_references(std::string_view source, FileFacts& facts) {
  const size_t n = source.size();
  // The next '"' and the next '\'' at or after the cursor (n when there is none): memchr finds each.
  auto next_of = [&](char quote, size_t from) {
    const void* at = from < n ? std::memchr(source.data() + from, quote, n - from) : nullptr;
    return at == nullptr ? n : static_cast<size_t>(static_cast<const char*>(at) - source.data());
  };
  size_t next_double = next_of('"', 0), next_single = next_of('\'', 0);
  uint32_t line = 1;
  size_t counted = 0; // newlines before `counted` are in `line`
  size_t i = 0;
  while (true) {
    if (next_double < i) next_double = next_of('"', i);
    if (next_single < i) next_single = next_of('\'', i);
    i = std::min(next_double, next_single);
    if (i >= n) break;
    char c = source[i];
    // Content up to the same quote on this line, if it is made of identifier characters, dots and ':'.
    size_t j = i + 1;
    while (j < n && (is_name_char(source[j]) || source[j] == '.' || source[j] == ':')) ++j;
    if (j < n && source[j] == c && j > i + 1) {
      std::string_view content = source.substr(i + 1, j - i - 1);
      if (looks_dotted(content) && !looks_like_file_name(content)) {
        line += static_cast<uint32_t>(std::count(source.begin() + static_cast<std::ptrdiff_t>(counted),
                                                 source.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
        counted = i;
        ImportFact fact;
        fact.kind = ImportKind::string_ref;
        fact.line = line;
        fact.flags = k_import_in_function;
        auto colon = content.find(':');
        fact.module = std::string(content.substr(0, colon));
        if (colon != std::string_view::npos) fact.names.emplace_back(content.substr(colon + 1));
        facts.imports.push_back(std::move(fact));
      }
      i = j + 1;
      continue;
    }
    i = j == i + 1 ? i + 1 : j;
  }
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == '\\')) s.remove_suffix(1);
  return s;
}

std::string_view take_dotted(std::string_view& s) {
  s = trim(s);
  size_t k = 0;
  while (k < s.size() && (is_ident_char(s[k]) || s[k] == '.')) ++k;
  auto out = s.substr(0, k);
  s.remove_prefix(k);
  return out;
}

} // namespace

void scan_import_lines(std::string_view source, FileFacts& facts) {
  uint32_t line = 0;
  while (!source.empty()) {
    ++line;
    size_t nl = source.find('\n');
    std::string_view text = trim(source.substr(0, nl));
    source = nl == std::string_view::npos ? std::string_view() : source.substr(nl + 1);
    if (text.starts_with("import ")) {
      std::string_view rest = text.substr(7);
      while (!rest.empty()) {
        auto comma = rest.find(',');
        std::string_view part = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        std::string_view name = take_dotted(part);
        if (name.empty()) continue;
        ImportFact fact;
        fact.kind = ImportKind::plain;
        fact.line = line;
        fact.module = std::string(name);
        part = trim(part);
        fact.aliases.emplace_back(part.starts_with("as ") ? trim(part.substr(3)) : std::string_view());
        facts.imports.push_back(std::move(fact));
      }
    } else if (text.starts_with("from ")) {
      std::string_view rest = text.substr(5);
      rest = trim(rest);
      ImportFact fact;
      fact.kind = ImportKind::from;
      fact.line = line;
      while (!rest.empty() && rest.front() == '.') {
        ++fact.level;
        rest.remove_prefix(1);
      }
      fact.module = std::string(take_dotted(rest));
      rest = trim(rest);
      if (!rest.starts_with("import")) continue;
      rest = trim(rest.substr(6));
      if (rest.starts_with("*")) {
        fact.kind = ImportKind::star;
      } else {
        if (rest.starts_with("(")) rest.remove_prefix(1);
        while (!rest.empty()) {
          auto comma = rest.find(',');
          std::string_view part = trim(rest.substr(0, comma));
          rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
          std::string_view name = take_dotted(part);
          if (name.empty()) continue;
          part = trim(part);
          fact.names.emplace_back(name);
          if (part.starts_with("as ")) {
            part.remove_prefix(3);
            fact.aliases.emplace_back(take_dotted(part));
          } else {
            fact.aliases.emplace_back(name);
          }
        }
      }
      if (fact.module.empty() && fact.level == 0) continue;
      facts.imports.push_back(std::move(fact));
    }
  }
}

} // namespace impact::python
