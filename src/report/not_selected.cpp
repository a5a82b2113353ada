// The words for people of why a test is not selected (why_not_selected.hpp), for explain and audit.
#include "impact/report.hpp"
#include "impact/why_not_selected.hpp"

#include <fmt/format.h>

namespace impact {

std::string changed_symbols(const Decision& d) {
  std::vector<std::string> parts;
  for (const auto& f : d.files) {
    if (f.symbols.empty()) {
      parts.push_back(fmt::format("{} ({})", f.path, f.change.empty() ? std::string(to_string(f.status)) : f.change));
      continue;
    }
    for (const auto& s : f.symbols) parts.push_back(fmt::format("{}:{} ({})", f.path, s.qualname, to_string(s.change)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

namespace {

// The files the coverage index answered for, each with the base bodies the test never ran; then what
// the static analysis says of the others.
std::vector<std::string> describe_index_excluded(const Decision& d) {
  std::vector<std::string> out;
  bool static_files = false;
  for (const auto& f : d.files) {
    if (f.source != TestSource::coverage) {
      static_files = static_files || f.source == TestSource::static_;
      continue;
    }
    std::vector<std::string> spans;
    for (const auto& b : f.covered_bodies) {
      spans.push_back(b.first == b.last ? fmt::format("{}", b.first) : fmt::format("{}-{}", b.first, b.last));
    }
    if (spans.empty()) {
      out.push_back(fmt::format("the coverage index answered for {}: its change runs in no test", f.path));
    } else {
      out.push_back(fmt::format("the coverage index shows this test never ran line(s) {} of {} at its recorded state",
                                fmt::join(spans, ", "), f.path));
    }
  }
  if (static_files) {
    out.push_back(fmt::format("and the static analysis of the other changed files does not reach it: {}",
                              changed_symbols(d)));
  }
  return out;
}

} // namespace

std::vector<std::string> describe_not_selected(const NotSelected& why, const Decision& d) {
  if (why.kind == "run_all") {
    return {fmt::format("the analysis runs the whole suite: {} ({})", to_string(d.reason), d.detail)};
  }
  if (why.kind == "selected_by_analysis") {
    return {fmt::format("the analysis of the change selects it: {}", render_chain(why.chain))};
  }
  if (why.kind == "file_level") {
    return {fmt::format("its file loads the changed code: {}", render_chain(why.chain)),
            fmt::format("but no chain of calls, references or fixtures leads from it to what changed: {}",
                        changed_symbols(d))};
  }
  if (why.kind == "index_excluded") return describe_index_excluded(d);
  if (why.kind == "no_changes") return {"nothing changed"};
  if (why.kind == "no_static_path") {
    return {fmt::format("no chain of imports, conftest.py files or plugins leads from it to a changed file: {}",
                        changed_symbols(d))};
  }
  return why.lines;
}

} // namespace impact
