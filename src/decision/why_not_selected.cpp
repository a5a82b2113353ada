// A query over a Decision: why it leaves out a given test (include/impact/why_not_selected.hpp).
#include "impact/why_not_selected.hpp"
#include "impact/node_id.hpp"

namespace impact {

std::string file_of(const std::string& node_id) { return std::string(NodeId::of(node_id).file); }

bool covers(const std::string& selected, const std::string& test) {
  if (selected.empty() || !test.starts_with(selected)) return false;
  if (test.size() == selected.size()) return true;
  std::string_view rest = std::string_view(test).substr(selected.size());
  // A file, a folder, a class or a test function covers what pytest collects below it.
  bool folder = rest.starts_with("/") && NodeId::of(selected).whole_file;
  return rest.starts_with("::") || rest.starts_with("[") || folder;
}

NotSelected why_not_selected(const Decision& d, const std::string& node_id) {
  NotSelected out;
  if (d.outcome == Outcome::run_all) {
    out.kind = "run_all";
    return out;
  }
  for (const auto& t : d.selected) {
    if (!covers(t.node_id, node_id)) continue;
    out.kind = "selected_by_analysis";
    out.chain = t.chain;
    return out;
  }
  // The coverage index answered for a changed file and left the test out: it ran none of the bodies.
  for (const auto& f : d.files) {
    if (f.source != TestSource::coverage) continue;
    out.kind = "index_excluded";
    return out;
  }
  std::string file = file_of(node_id);
  for (const auto& t : d.file_level) {
    if (t.node_id != file) continue;
    out.kind = "file_level";
    out.chain = t.chain;
    return out;
  }
  out.kind = d.files.empty() ? "no_changes" : "no_static_path";
  return out;
}

} // namespace impact
