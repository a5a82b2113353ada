#include "decision/rules/module_names.hpp"

#include "decision/relation.hpp"

#include <string_view>

namespace impact::decision::rules {

std::string test_module_name(const ImportGraph& graph, const RepoPath& path) {
  std::string_view whole = path.str; // a view: path.str.substr() would make a temporary string
  std::string_view file = whole.substr(whole.rfind('/') == std::string_view::npos ? 0 : whole.rfind('/') + 1);
  std::string name(file.substr(0, file.size() - (file.ends_with(".py") ? 3 : 0)));
  std::string_view dir = path.parent();
  while (!dir.empty()) {
    auto init = graph.find(std::string(dir) + "/__init__.py");
    if (!init || graph.nodes[*init].ghost) break;
    size_t slash = dir.rfind('/');
    name = std::string(dir.substr(slash == std::string_view::npos ? 0 : slash + 1)) + "." + name;
    dir = slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
  }
  return name;
}

void select_name_clashes(const ImportGraph& graph, const std::vector<const PythonChange*>& changes,
                         const std::vector<FileVerdict>& files, Selection& out) {
  auto file_name = [](const RepoPath& p) { return std::string_view(p.str).substr(p.str.rfind('/') + 1); };
  // The test files whose module names may be new: added ones, and those below a folder whose
  // __init__.py was added or deleted (tests/a/test_util.py is `a.test_util` or `test_util`).
  std::vector<std::pair<uint32_t, const PythonChange*>> renamed;
  for (const PythonChange* py : changes) {
    const RepoPath& path = files[py->verdict].path;
    bool added = py->status == FileStatus::added || py->status == FileStatus::renamed;
    if (file_name(path) == "__init__.py" && (added || py->status == FileStatus::deleted)) {
      std::string_view dir = path.parent();
      for (uint32_t node = 0; node < graph.nodes.size(); ++node) {
        const GraphNode& n = graph.nodes[node];
        if (n.test_pattern && !n.ghost && n.path.is_within(dir)) renamed.emplace_back(node, py);
      }
    } else if (added && py->current && graph.nodes[*py->current].test_pattern && !graph.nodes[*py->current].ghost) {
      renamed.emplace_back(*py->current, py);
    }
  }
  for (const auto& [moved, py] : renamed) {
    const GraphNode& added = graph.nodes[moved];
    std::string name = test_module_name(graph, added.path);
    for (uint32_t node = 0; node < graph.nodes.size(); ++node) {
      const GraphNode& n = graph.nodes[node];
      // The file names first: a module name ends with its file's.
      if (node == moved || !n.test_pattern || n.ghost || file_name(n.path) != file_name(added.path) ||
          test_module_name(graph, n.path) != name) {
        continue;
      }
      out.whole.emplace(node, std::vector<Hop>{Hop{n.path.str, Relation::same_module_name, 0, name},
                                               Hop{files[py->verdict].path.str, relation_of(py->status), 0, {}}});
    }
  }
}

} // namespace impact::decision::rules
