// The modules a text doctest file imports: the code of its `>>> ` and `... ` prompts, read by the same
// import line scan as a Python file that does not parse.
#include "impact/python/facts.hpp"
#include "impact/python/text_reads.hpp"
#include "python/scan.hpp"
#include "impact/python/source_view.hpp"

#include <algorithm>

namespace impact::python {

std::vector<std::pair<std::string, uint32_t>> doctest_imports(std::string_view raw) {
  // pytest reads the file with universal newlines, and the prompts' code is compiled: CPython's view.
  std::string text_buffer, code_buffer;
  std::string_view text = cpython_source(raw, text_buffer);
  // The prompts' code, one statement per line (`a; import b` is split), and the file line of each.
  std::string code;
  std::vector<uint32_t> lines;
  uint32_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
    if (!line.starts_with(">>>") && !line.starts_with("...")) continue;
    line.remove_prefix(3);
    for (;;) {
      auto semi = line.find(';');
      code.append(line.substr(0, semi)).push_back('\n');
      lines.push_back(line_no);
      if (semi == std::string_view::npos) break;
      line.remove_prefix(semi + 1);
    }
  }
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

} // namespace impact::python
