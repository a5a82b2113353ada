#include "decision/selected_tests.hpp"
#include "impact/node_id.hpp"

#include <fmt/format.h>

namespace impact::decision {

std::string note_of(const std::vector<Hop>& chain) {
  for (const auto& hop : chain) {
    if (hop.relation == Relation::dynamic_import_may_load) {
      return fmt::format("cannot be ruled out: {}:{} imports a computed module name", hop.path, hop.line);
    }
  }
  return {};
}

Selection covered_tests(const std::vector<const PythonChange*>& changes, const std::vector<FileVerdict>& files,
                        const ImportGraph& graph) {
  Selection out;
  for (const PythonChange* py : changes) {
    const CoverageUse* c = py->coverage;
    if (c == nullptr) continue;
    const std::string& path = files[py->verdict].path.str;
    for (const auto& [id, line] : c->tests) {
      NodeId parts = NodeId::of(id);
      std::string file(parts.file);
      std::vector<Hop> chain{Hop{file, Relation::covers, 0, std::string(parts.test)}, Hop{path, Relation::covered_line, line, {}}};
      if (parts.whole_file) {
        // A text doctest's file is no node of the graph: its path is its one test (doctests.cpp).
        if (auto node = graph.find(file)) out.whole.emplace(*node, std::move(chain));
        else out.tests.emplace(file, std::move(chain));
      } else {
        out.tests.emplace(id, std::move(chain));
      }
    }
  }
  return out;
}

void list_selected(std::map<uint32_t, std::vector<Hop>>&& whole, std::map<std::string, std::vector<Hop>>&& tests,
                   const ImportGraph& graph, std::vector<SelectedTest>& out) {
  for (auto& [node, chain] : whole) {
    SelectedTest test;
    test.node_id = graph.nodes[node].path.str;
    test.note = note_of(chain);
    test.chain = std::move(chain);
    out.push_back(std::move(test));
  }
  // An id under another selected id runs anyway (`f[a]` under `f`, `C::t` under `C`), and a parameter
  // set the index recorded may be gone from the function that runs whole (pytest stops at an id it
  // cannot find): only the outer id is passed.
  auto under_selected = [&](const std::string& id) {
    std::string_view v(id);
    size_t bracket = v.find('[');
    if (bracket != std::string_view::npos && tests.contains(std::string(v.substr(0, bracket)))) return true;
    size_t file_end = v.find("::");
    for (size_t at = v.find("::", file_end == std::string_view::npos ? v.size() : file_end + 2);
         at != std::string_view::npos && at < bracket; at = v.find("::", at + 2)) {
      if (tests.contains(std::string(v.substr(0, at)))) return true;
    }
    return false;
  };
  for (auto& [id, chain] : tests) {
    auto node = graph.find(NodeId::of(id).file);
    if (node && whole.contains(*node)) continue; // the whole file runs anyway
    if (under_selected(id)) continue;
    SelectedTest test;
    test.node_id = id;
    test.note = note_of(chain);
    if (!chain.empty() && chain.back().relation == Relation::covered_line) {
      test.note = fmt::format("covered line {}:{}", chain.back().path, chain.back().line);
    }
    test.chain = std::move(chain);
    out.push_back(std::move(test));
  }
}

std::optional<Trigger> unaddressable_test(const std::vector<SelectedTest>& selected) {
  for (const SelectedTest& t : selected) {
    std::string_view file = std::string_view(t.node_id).substr(0, t.node_id.find("::"));
    if (file.find('[') == std::string_view::npos) continue;
    return Trigger{Reason::unaddressable_path,
                   fmt::format("{} is selected, but pytest cannot be given its path: it reads an argument from its first '[' "
                               "on as a parameter id",
                               file)};
  }
  return std::nullopt;
}

} // namespace impact::decision
