// What a text doctest file's examples (the code of its `>>> ` and `... ` prompts) import, read by the
// same import line scan as a Python file that does not parse, and the words they spell.
#include "impact/python/facts.hpp"
#include "impact/python/text_reads.hpp"
#include "python/scan.hpp"
#include "impact/python/source_view.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace impact::python {

namespace {

// The prompts' code, one statement per line (`a; import b` is split), and the file line of each; with
// `every_line`, every line is code (a prompt on it is dropped).
void prompt_code(std::string_view raw, std::string& code, std::vector<uint32_t>& lines, bool every_line = false) {
  // pytest reads the file with universal newlines, and the prompts' code is compiled: CPython's view.
  std::string text_buffer;
  std::string_view text = cpython_source(raw, text_buffer);
  uint32_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
    if (line.starts_with(">>>") || line.starts_with("...")) line.remove_prefix(3);
    else if (!every_line) continue;
    for (;;) {
      auto semi = line.find(';');
      code.append(line.substr(0, semi)).push_back('\n');
      lines.push_back(line_no);
      if (semi == std::string_view::npos) break;
      line.remove_prefix(semi + 1);
    }
  }
}

} // namespace

namespace {

std::vector<std::pair<std::string, uint32_t>> imports_of_lines(std::string_view raw, bool every_line) {
  std::string code, code_buffer;
  std::vector<uint32_t> lines;
  prompt_code(raw, code, lines, every_line);
  FileFacts facts;
  scan_import_lines(cpython_source(code, code_buffer), facts);
  std::vector<std::pair<std::string, uint32_t>> out;
  for (const auto& imp : facts.imports) {
    if (imp.level != 0) continue; // relative to nothing: a text file is no package
    uint32_t line = imp.line >= 1 && imp.line <= lines.size() ? lines[imp.line - 1] : 0;
    out.emplace_back(imp.module, line);
    // A name may be a submodule: `from pkg import mod`.
    for (const auto& name : imp.names) out.emplace_back(imp.module + "." + name, line);
  }
  return out;
}

} // namespace

std::vector<std::pair<std::string, uint32_t>> doctest_imports(std::string_view raw) {
  return imports_of_lines(raw, false);
}

std::vector<std::pair<std::string, uint32_t>> code_text_imports(std::string_view raw) {
  return imports_of_lines(raw, true);
}

std::vector<std::string> example_imports(std::string_view source) {
  // Only the prompts' lines (their line numbers are not kept).
  std::string text;
  while (!source.empty()) {
    auto nl = source.find('\n');
    std::string_view line = source.substr(0, nl);
    source.remove_prefix(nl == std::string_view::npos ? source.size() : nl + 1);
    auto prompt = line.find(">>>");
    if (prompt != std::string_view::npos) line.remove_prefix(prompt);
    else if (!line.substr(std::min(line.size(), line.find_first_not_of(" \t"))).starts_with("...")) continue;
    text.append(line).push_back('\n');
  }
  std::vector<std::string> out;
  for (auto& [module, line] : doctest_imports(text)) out.push_back(std::move(module));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

DoctestNames doctest_names(std::string_view raw) {
  std::string code;
  std::vector<uint32_t> lines;
  prompt_code(raw, code, lines);
  // Words that reach code by a name the examples need not spell.
  static constexpr std::string_view k_dynamic[] = {
      "getattr", "hasattr", "setattr", "delattr", "eval",    "exec",          "compile",    "dir",
      "vars",    "globals", "locals",  "help",    "__dict__", "import_module", "__import__", "reload",
      "getmembers", "modules", "run_module", "run_path", "resolve_name", "getfixture"};
  auto word_char = [](char c) { return is_ascii_identifier_char(c) || static_cast<unsigned char>(c) >= 0x80; };
  DoctestNames out;
  size_t i = 0;
  while (i < code.size()) {
    if (!word_char(code[i]) || std::isdigit(static_cast<unsigned char>(code[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < code.size() && word_char(code[j])) ++j;
    std::string_view word(code.data() + i, j - i);
    if (std::find(std::begin(k_dynamic), std::end(k_dynamic), word) != std::end(k_dynamic)) out.dynamic = true;
    out.names.emplace_back(word);
    i = j;
  }
  std::sort(out.names.begin(), out.names.end());
  out.names.erase(std::unique(out.names.begin(), out.names.end()), out.names.end());
  return out;
}

} // namespace impact::python
