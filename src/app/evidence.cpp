#include "app/evidence.hpp"

#include "impact/report.hpp"

#include <fmt/format.h>

namespace impact::app {

std::string file_of(const std::string& node_id) { return node_id.substr(0, node_id.find("::")); }

bool covers(const std::string& selected, const std::string& test) {
  if (selected.empty() || !test.starts_with(selected)) return false;
  if (test.size() == selected.size()) return true;
  std::string_view rest = std::string_view(test).substr(selected.size());
  // A file, a folder, a class or a test function covers what pytest collects below it.
  bool folder = rest.starts_with("/") && selected.find("::") == std::string::npos;
  return rest.starts_with("::") || rest.starts_with("[") || folder;
}

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

NotSelected why_not_selected(const Decision& d, const std::string& node_id) {
  NotSelected out;
  if (d.outcome == Outcome::run_all) {
    out.kind = "run_all";
    out.lines.push_back(fmt::format("the analysis runs the whole suite: {} ({})", d.reason, d.detail));
    return out;
  }
  for (const auto& t : d.selected) {
    if (!covers(t.node_id, node_id)) continue;
    out.kind = "selected_by_analysis";
    out.chain = t.chain;
    out.lines.push_back(fmt::format("the analysis of the change selects it: {}", render_chain(t.chain)));
    return out;
  }
  std::string file = file_of(node_id);
  for (const auto& t : d.file_level) {
    if (t.node_id != file) continue;
    out.kind = "file_level";
    out.chain = t.chain;
    out.lines.push_back(fmt::format("its file loads the changed code: {}", render_chain(t.chain)));
    out.lines.push_back(fmt::format("but no chain of calls, references or fixtures leads from it to what changed: {}",
                                    changed_symbols(d)));
    return out;
  }
  if (d.files.empty()) {
    out.kind = "no_changes";
    out.lines.push_back("nothing changed");
    return out;
  }
  out.kind = "no_static_path";
  out.lines.push_back(fmt::format(
      "no chain of imports, conftest.py files or plugins leads from it to a changed file: {}", changed_symbols(d)));
  return out;
}

} // namespace impact::app
