// impact_compile_check: the compile check (src/python/compile_check.*) over many files, for the
// differential test against CPython (tests/differential/compile_check.py). Reads one path per line on
// stdin and prints, per file, tab-separated: the verdict ("compiles", "fails", "unsure"), the issue,
// its line, the Python 3 minor version the constructs need (0: any), that line, and the path.
#include "impact/python/compile_check.hpp"
#include "util/files.hpp"

#include <fmt/format.h>

#include <iostream>
#include <string>

int main() {
  std::string path;
  while (std::getline(std::cin, path)) {
    if (path.empty()) continue;
    auto source = impact::util::read_file(path);
    if (!source) {
      fmt::print("unreadable\t-\t0\t0\t0\t{}\n", path);
      continue;
    }
    impact::CompileCheck c = impact::compile_check_of(*source);
    std::string_view verdict = c.issue == impact::SyntaxIssue::none ? "compiles"
                               : impact::is_certain(c.issue)        ? "fails"
                                                                    : "unsure";
    fmt::print("{}\t{}\t{}\t{}\t{}\t{}\n", verdict, impact::to_string(c.issue), c.line, c.needs_minor, c.needs_line, path);
    std::fflush(stdout);
  }
  return 0;
}
