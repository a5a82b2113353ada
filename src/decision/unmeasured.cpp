// The static answer for the tests the coverage index cannot speak for (unmeasured.hpp).
#include "decision/unmeasured.hpp"

#include "decision/relation.hpp"
#include "decision/rules/non_python.hpp"
#include "impact/node_id.hpp"
#include "impact/pins.hpp"

#include <algorithm>

namespace impact::decision {

namespace {

// Whether the selected id `id` runs one of `missing` (sorted ids): the test itself, one of its
// parameter sets, or the class that holds it.
bool runs_any(const std::string& id, const std::vector<std::string>& missing) {
  auto it = std::lower_bound(missing.begin(), missing.end(), id);
  if (it != missing.end() && (*it == id || it->starts_with(id + "::"))) return true;
  std::string_view base(id);
  base = base.substr(0, base.find('['));
  return std::binary_search(missing.begin(), missing.end(), base);
}

} // namespace

Selection keep_unmeasured(Selection static_answer, const CoverageInput& coverage, const std::vector<std::string>& drifted,
                          const ImportGraph& graph) {
  const auto& unmeasured = coverage.unmeasured_tests; // sorted
  auto whole_file = [&](const std::string& file) {
    return std::binary_search(unmeasured.begin(), unmeasured.end(), file) ||
           std::binary_search(drifted.begin(), drifted.end(), file);
  };
  auto unrecorded = [&](const std::string& file) -> const std::vector<std::string>* {
    auto it = coverage.unrecorded_tests.find(file);
    return it == coverage.unrecorded_tests.end() ? nullptr : &it->second;
  };
  Selection out;
  for (auto& [node, chain] : static_answer.whole) {
    const std::string& file = graph.nodes[node].path.str;
    if (whole_file(file)) {
      out.whole.emplace(node, std::move(chain));
    } else if (const auto* missing = unrecorded(file)) {
      for (const auto& id : *missing) out.tests.emplace(id, chain);
    }
  }
  for (auto& [id, chain] : static_answer.tests) {
    std::string file(NodeId::of(id).file);
    const auto* missing = unrecorded(file);
    if (whole_file(file) || (missing != nullptr && runs_any(id, *missing))) out.tests.emplace(id, std::move(chain));
  }
  for (auto& [node, chain] : static_answer.import_only) {
    if (whole_file(graph.nodes[node].path.str)) out.import_only.emplace(node, std::move(chain));
  }
  return out;
}

std::vector<std::string> tests_reading_drifted_data(const CoverageInput& coverage, NonPythonRules& rules,
                                                    const ImportGraph& graph) {
  std::vector<std::string> out;
  std::vector<ReaderSeed> seeds;
  bool every = false;
  for (const auto& [path, status] : coverage.drifted_data) {
    if (is_config_file(path) || pin_file_kind(path) != PinFile::none) continue;
    NonPythonEffect e = rules.effect(path, status);
    if (e.what == NonPythonEffect::What::run_all) {
      every = true;
      break;
    }
    for (const auto& r : e.readers) {
      ReaderSeed seed{r, r.via};
      seed.tail.push_back(Hop{path.str, relation_of(status), 0, {}});
      seeds.push_back(std::move(seed));
    }
  }
  if (every) {
    for (const auto& n : graph.nodes) {
      if (n.test && !n.ghost) out.push_back(n.path.str);
    }
  } else if (!seeds.empty()) {
    for (const auto& [node, chain] : reached_from_readers(graph, seeds)) {
      if (graph.nodes[node].test && !graph.nodes[node].ghost) out.push_back(graph.nodes[node].path.str);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace impact::decision
