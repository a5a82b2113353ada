#include "python/path_literals.hpp"

#include <algorithm>
#include <cctype>
#include <tsl/robin_set.h>

namespace impact::python {

namespace {

// A string longer than this is prose or a block of text more often than a path: only fragments that
// look like paths are kept from it.
constexpr size_t k_short_string = 200;
constexpr size_t k_max_fragment = 255;

bool path_char(unsigned char c) {
  if (c >= 0x80) return true; // non-ASCII file names
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
  case '_': case '-': case '.': case '/': case '*': case '?': case '[': case ']': case '~': case '+':
  case '@': case '!': case '=': case '%': case '#': case '&':
    return true;
  default:
    return false;
  }
}

bool has_extension(std::string_view f) {
  auto dot = f.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == f.size() || f.size() - dot > 9) return false;
  return std::all_of(f.begin() + static_cast<std::ptrdiff_t>(dot) + 1, f.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0; });
}

bool worth_keeping(std::string_view f, bool long_string) {
  if (f.empty() || f.size() > k_max_fragment) return false;
  bool wild = f.find_first_of("*?") != std::string_view::npos;
  bool letter = std::any_of(f.begin(), f.end(), [](unsigned char c) { return std::isalpha(c) != 0 || c >= 0x80; });
  // A lone wildcard ("*" of `import *`, of `count(*)`) is prose or SQL far more often than a pattern; a
  // glob("*") call then counts as a listing without a literal bound, which reads everything anyway.
  if (!letter && !(wild && f.find_first_of("./") != std::string_view::npos)) return false;
  // Wildcards and separators with no name between them ("/*" of the regular expression r'/\*.*?\*/')
  // bound nothing: kept, they would name every file; dropped, a glob call they feed is a listing.
  if (!letter && f.find_first_not_of("*?/.") == std::string_view::npos &&
      f.find_first_not_of("*?/") == std::string_view::npos) {
    return false;
  }
  if (!long_string) return true;
  return wild || f.find('/') != std::string_view::npos || has_extension(f);
}

// The text of a string token without its prefix and quotes, with escapes and an f-string's
// replacement fields turned into separators (a backslash that doubles as a Windows path separator
// becomes '/').
std::string contents_of(std::string_view token) {
  size_t q = token.find_first_of("'\"");
  if (q == std::string_view::npos) return {};
  std::string_view prefix = token.substr(0, q);
  bool is_f = prefix.find_first_of("fF") != std::string_view::npos;
  bool is_raw = prefix.find_first_of("rR") != std::string_view::npos;
  char quote = token[q];
  size_t open = token.compare(q, 3, std::string(3, quote)) == 0 ? 3 : 1;
  size_t begin = q + open;
  size_t end = token.size();
  if (end >= begin + open && token.compare(end - open, open, std::string(open, quote)) == 0) end -= open;
  std::string out;
  out.reserve(end > begin ? end - begin : 0);
  for (size_t i = begin; i < end; ++i) {
    char c = token[i];
    if (c == '\\') {
      if (is_raw) out += '/';
      else if (i + 1 < end && token[i + 1] == '\\') out += '/', ++i;
      else out += ' ', ++i;
      continue;
    }
    if (is_f && c == '{') {
      if (i + 1 < end && token[i + 1] == '{') {
        ++i;
        out += ' ';
        continue;
      }
      int depth = 1;
      while (i + 1 < end && depth > 0) {
        ++i;
        if (token[i] == '{') ++depth;
        else if (token[i] == '}') --depth;
      }
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

struct Collector {
  std::string_view src;
  const std::vector<Token>& tokens;
  PathReads out;
  tsl::robin_set<std::string> seen;
  std::vector<uint32_t> line_starts;
  bool wildcard_literal = false;
  uint32_t glob_line = 0;

  uint32_t line_of(uint32_t offset) {
    if (line_starts.empty()) {
      line_starts.push_back(0);
      for (size_t i = 0; i < src.size(); ++i) {
        if (src[i] == '\n') line_starts.push_back(static_cast<uint32_t>(i + 1));
      }
    }
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
    return static_cast<uint32_t>(it - line_starts.begin());
  }

  std::string_view text(const Token& t) const { return src.substr(t.begin, t.end - t.begin); }
  bool is_name(size_t i, std::string_view name) const {
    return i < tokens.size() && tokens[i].kind == Tok::name && text(tokens[i]) == name;
  }
  bool is(size_t i, Tok kind) const { return i < tokens.size() && tokens[i].kind == kind; }

  void add(std::string_view fragment, uint32_t offset) {
    if (out.truncated) return;
    if (fragment.find_first_of("*?") != std::string_view::npos) wildcard_literal = true;
    if (seen.contains(std::string(fragment))) return;
    if (out.literals.size() >= k_max_path_literals) {
      out.truncated = true;
      return;
    }
    seen.emplace(fragment);
    out.literals.push_back(PathLiteral{std::string(fragment), line_of(offset)});
  }

  void string(const Token& t) { fragments(contents_of(text(t)), t.begin); }

  // Adjacent literals are one string to Python (`'py' 'project.toml'`): after each piece's own
  // fragments, those of the whole. `i` is the run's first token.
  void adjacent(size_t i) {
    size_t j = i;
    std::string whole;
    while (is(j, Tok::string)) whole += contents_of(text(tokens[j++]));
    if (j - i > 1) fragments(whole, tokens[i].begin);
  }

  void fragments(const std::string& body, uint32_t offset) {
    bool long_string = body.size() > k_short_string;
    size_t i = 0;
    while (i < body.size()) {
      while (i < body.size() && !path_char(static_cast<unsigned char>(body[i]))) ++i;
      size_t start = i;
      while (i < body.size() && path_char(static_cast<unsigned char>(body[i]))) ++i;
      std::string_view fragment(body.data() + start, i - start);
      if (worth_keeping(fragment, long_string)) add(fragment, offset);
    }
  }

  // `name(` after `module.`: the call's line when it lists a folder.
  void listing(size_t i) {
    if (!is(i + 1, Tok::lparen)) return;
    std::string_view name = text(tokens[i]);
    bool dotted = i >= 2 && tokens[i - 1].kind == Tok::dot;
    std::string_view owner = dotted && tokens[i - 2].kind == Tok::name ? text(tokens[i - 2]) : std::string_view();
    bool unbounded = false;
    if (dotted && (name == "iterdir" || name == "walk" || name == "scandir" || name == "listdir" || name == "fwalk")) unbounded = true;
    if (owner == "shutil" && name == "copytree") unbounded = true;
    if (owner == "resources" && name == "contents") unbounded = true;
    if (name == "resource_listdir") unbounded = true;
    if (unbounded && out.listing_line == 0) out.listing_line = line_of(tokens[i].begin);
    if ((name == "glob" || name == "iglob" || name == "rglob") && glob_line == 0) glob_line = line_of(tokens[i].begin);
  }

  // Skips the strings of `collect_ignore = [...]` / `collect_ignore_glob += [...]` / `.append(...)`.
  size_t skip_collect_ignore(size_t i) {
    if (!(is_name(i, "collect_ignore") || is_name(i, "collect_ignore_glob"))) return i;
    if (i > 0 && tokens[i - 1].kind != Tok::newline) return i;
    size_t j = i + 1;
    while (j < tokens.size() && tokens[j].kind != Tok::newline) ++j;
    return j;
  }

  // `# impact-loads: data/*.json, templates/` declares what the file reads where no string shows it
  // (docs/selection.md, loads-annotation): each entry counts as one of its path strings.
  void annotations() {
    constexpr std::string_view k_marker = "impact-loads:";
    for (size_t at = src.find(k_marker); at != std::string_view::npos; at = src.find(k_marker, at + 1)) {
      size_t line_start = src.rfind('\n', at);
      line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
      if (src.substr(line_start, at - line_start).find('#') == std::string_view::npos) continue;
      size_t end = src.find('\n', at);
      std::string_view rest = src.substr(at + k_marker.size(), end == std::string_view::npos ? std::string_view::npos
                                                                                          : end - at - k_marker.size());
      while (!rest.empty()) {
        size_t comma = rest.find(',');
        std::string_view entry = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        while (!entry.empty() && (entry.front() == ' ' || entry.front() == '\t')) entry.remove_prefix(1);
        while (!entry.empty() && (entry.back() == ' ' || entry.back() == '\t' || entry.back() == '\r')) entry.remove_suffix(1);
        if (!entry.empty()) add(entry, static_cast<uint32_t>(at));
      }
    }
  }

  // A string that is a statement of its own (a docstring, or prose between statements) is read by no
  // code: the index of the token after it, or `i` for any other string. A docstring with a doctest
  // (`>>>`) is code that pytest may run (--doctest-modules): it counts.
  size_t skip_statement_string(size_t i) const {
    if (!is(i, Tok::string) || (i > 0 && tokens[i - 1].kind != Tok::newline)) return i;
    size_t j = i;
    while (is(j, Tok::string)) ++j;
    if (j < tokens.size() && tokens[j].kind != Tok::newline) return i;
    for (size_t k = i; k < j; ++k) {
      if (text(tokens[k]).find(">>>") != std::string_view::npos) return i;
    }
    return j;
  }

  void run() {
    annotations();
    for (size_t i = 0; i < tokens.size(); ++i) {
      i = skip_statement_string(skip_collect_ignore(i));
      if (i >= tokens.size()) break;
      const Token& t = tokens[i];
      if (t.kind == Tok::string) {
        size_t last = i;
        while (is(last + 1, Tok::string)) string(tokens[last++]);
        string(tokens[last]);
        if (last > i) adjacent(i);
        i = last;
      } else if (t.kind == Tok::name) {
        listing(i);
      }
    }
    // A glob call with a literal pattern in the file is bounded by that pattern (the fragment rule
    // matches it against file names); without any, the pattern is computed and could match anything.
    if (glob_line != 0 && !wildcard_literal && out.listing_line == 0) out.listing_line = glob_line;
  }
};

} // namespace

PathReads read_path_literals(std::string_view source, const std::vector<Token>& tokens) {
  Collector c{source, tokens, {}, {}, {}, false, 0};
  c.run();
  return std::move(c.out);
}

void read_paths(std::string_view source, const std::vector<Token>& tokens, PathStrings& out) {
  PathReads reads = read_path_literals(source, tokens);
  out.strings.clear();
  out.strings.reserve(reads.literals.size());
  for (auto& l : reads.literals) out.strings.emplace_back(std::move(l.text), l.line);
  out.listing_line = reads.listing_line;
  out.reads_anything = reads.truncated;
}

} // namespace impact::python
