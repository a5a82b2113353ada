#include "python/code_strings.hpp"

#include <algorithm>

namespace impact::python {

namespace {

bool word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool word_char(char c) { return word_start(c) || (c >= '0' && c <= '9'); }

// The words of one statement: dotted names, and single punctuation characters (, ( ) ...).
std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\\') {
      ++i;
      continue;
    }
    if (word_start(c)) {
      size_t start = i;
      while (i < s.size() && (word_char(s[i]) || (s[i] == '.' && i + 1 < s.size() && word_start(s[i + 1])))) ++i;
      out.push_back(s.substr(start, i - start));
      continue;
    }
    out.push_back(s.substr(i, 1));
    ++i;
  }
  return out;
}

void statement(std::string_view s, std::vector<std::string>& out) {
  auto w = words_of(s);
  if (w.size() < 2) return;
  size_t i = 0;
  auto name = [&](size_t k) { return k < w.size() && word_start(w[k].front()); };
  if (w[0] == "import") {
    for (i = 1; name(i);) {
      out.emplace_back(w[i]);
      ++i;
      if (i < w.size() && w[i] == "as") i += 2;
      if (i < w.size() && w[i] == ",") ++i;
      else break;
    }
    return;
  }
  if (w[0] != "from" || !name(1) || w.size() < 4 || w[2] != "import") return;
  std::string_view module = w[1];
  i = 3;
  if (i < w.size() && w[i] == "(") ++i;
  for (; name(i);) {
    if (w[i].find('.') != std::string_view::npos) return; // no dotted name after `import`: not code
    std::string full(module);
    full.append(".").append(w[i]);
    out.push_back(std::move(full));
    ++i;
    if (i < w.size() && w[i] == "as") i += 2;
    if (i < w.size() && w[i] == ",") ++i;
    else break;
  }
  if (i == 3) out.emplace_back(module); // `from a import *`: the module itself
}

// The text of a string token, without prefix and quotes; `\n` escapes become line ends and an
// f-string's replacement fields a character no name holds.
std::string text_of(std::string_view token) {
  size_t q = token.find_first_of("'\"");
  if (q == std::string_view::npos) return {};
  std::string_view prefix = token.substr(0, q);
  if (prefix.find_first_of("bB") != std::string_view::npos) return {}; // bytes run nothing
  bool raw = prefix.find_first_of("rR") != std::string_view::npos;
  bool f = prefix.find_first_of("fFtT") != std::string_view::npos;
  char quote = token[q];
  size_t open = token.compare(q, 3, std::string(3, quote)) == 0 ? 3 : 1;
  size_t begin = q + open, end = token.size();
  if (end >= begin + open && token.compare(end - open, open, std::string(open, quote)) == 0) end -= open;
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    char c = token[i];
    if (c == '\\' && !raw && i + 1 < end) {
      out.push_back(token[i + 1] == 'n' ? '\n' : ' ');
      ++i;
    } else if (f && c == '{' && i + 1 < end && token[i + 1] != '{') {
      int depth = 1;
      while (i + 1 < end && depth > 0) {
        ++i;
        depth += token[i] == '{' ? 1 : token[i] == '}' ? -1 : 0;
      }
      out.push_back('$');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

} // namespace

std::vector<std::string> imported_in_code(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of("\n;", start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view s = text.substr(start, end - start);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    if (s.starts_with("import ") || s.starts_with("from ")) statement(s, out);
    start = end + 1;
  }
  return out;
}

void scan_code_strings(std::string_view source, const std::vector<Token>& tokens, FileFacts& facts) {
  if (source.find("import") == std::string_view::npos) return;
  std::vector<uint32_t> line_starts;
  auto line_of = [&](uint32_t offset) {
    if (line_starts.empty()) {
      line_starts.push_back(0);
      for (size_t i = 0; i < source.size(); ++i) {
        if (source[i] == '\n') line_starts.push_back(static_cast<uint32_t>(i + 1));
      }
    }
    return static_cast<uint32_t>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) - line_starts.begin());
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != Tok::string) continue;
    // A string that is a statement of its own (a docstring, prose between statements) is run by nothing.
    if (i == 0 || tokens[i - 1].kind == Tok::newline) {
      size_t j = i;
      while (j < tokens.size() && tokens[j].kind == Tok::string) ++j;
      if (j >= tokens.size() || tokens[j].kind == Tok::newline) {
        i = j;
        continue;
      }
    }
    std::string_view token = source.substr(tokens[i].begin, tokens[i].end - tokens[i].begin);
    if (token.find("import") == std::string_view::npos) continue;
    for (auto& module : imported_in_code(text_of(token))) {
      ImportFact fact;
      fact.kind = ImportKind::string_ref;
      fact.line = line_of(tokens[i].begin);
      fact.flags = k_import_in_function | k_import_code;
      fact.module = std::move(module);
      facts.imports.push_back(std::move(fact));
    }
  }
}

} // namespace impact::python
