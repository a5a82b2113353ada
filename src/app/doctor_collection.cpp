// `impact doctor`: what impact believes the suite holds against what pytest collects, and where the
// tests import the project's packages from.
#include "app/doctor.hpp"

#include "impact/graph.hpp"
#include "impact/python/project_facts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace impact::app {

namespace {

// Names that are scripts of the project's tooling, not code its tests import.
bool tooling_module(std::string_view name) {
  return name == "setup" || name == "conftest" || name == "noxfile" || name == "fabfile" || name == "conf" ||
         name == "__main__";
}

std::string_view top_of(std::string_view dotted) { return dotted.substr(0, dotted.find('.')); }

// The first names of a list, for a line of text: "a, b, c and 4 more".
std::string some_of(const std::vector<std::string>& names) {
  auto shown = capped(names, 5);
  if (shown.size() > 5) return fmt::format("{} {}", fmt::join(shown.begin(), shown.end() - 1, ", "), shown.back());
  return fmt::format("{}", fmt::join(shown, ", "));
}

// The shortest name a file can be imported as: the one from the most specific import root.
std::string_view shortest_name(const GraphNode& node) {
  std::string_view best;
  for (const auto& name : node.module_names) {
    if (best.empty() || std::count(name.begin(), name.end(), '.') < std::count(best.begin(), best.end(), '.')) best = name;
  }
  return best;
}

// `path` relative to `root`, or nullopt when it is outside (or names an installed copy inside it,
// such as a virtualenv in the work tree).
std::optional<std::string> inside(const std::filesystem::path& path, const std::filesystem::path& root) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(path, ec);
  auto r = std::filesystem::weakly_canonical(root, ec);
  auto rel = p.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  for (const auto& part : rel) {
    if (part == "site-packages" || part == "dist-packages") return std::nullopt;
  }
  return rel.generic_string();
}

} // namespace

std::vector<std::string> top_level_packages(const ImportGraph& graph) {
  std::set<std::string> tops;
  for (const auto& node : graph.nodes) {
    if (node.ghost || node.test || node.test_pattern || node.conftest) continue;
    std::string top(top_of(shortest_name(node)));
    // The suite's own helpers (tests/helpers.py) are not the code under test; a package that holds
    // its tests beside its code (pkg/tests/) is.
    if (top.empty() || tooling_module(top) || top == "tests" || top == "test" || top == "testing") continue;
    tops.insert(top);
  }
  return {tops.begin(), tops.end()};
}

StaticSuite static_suite(const DoctorProject& project) {
  StaticSuite out;
  FactsView view;
  for (const auto& node : project.graph->nodes) {
    if (!node.test || node.ghost) continue;
    // --doctest-modules collects it for its examples, which pytest names and impact runs by the file.
    if (!node.test_pattern) out.whole_files.push_back(node.path.str);
    size_t at = project.facts->find(node.path.str);
    if (at == ProjectFacts::npos) continue;
    project.facts->view(at, view);
    for (size_t i = 0; i < view.symbols.size(); ++i) {
      if (project.layout->is_test_item(view.symbols, static_cast<int32_t>(i))) {
        out.ids.push_back(test_node_id(node.path.str, view.symbols[i].qualname));
      }
    }
  }
  for (const auto& doc : project.text_doctests) out.whole_files.push_back(doc.path.str);
  std::sort(out.whole_files.begin(), out.whole_files.end());
  return out;
}

Check imports_check(const ProbeReport& probe, const std::filesystem::path& root, const ImportGraph& graph) {
  Check c{"imports", CheckStatus::ok, "", "", {}, {}};
  std::vector<std::string> outside, missing, fine;
  for (const auto& [name, origin] : probe.origins) {
    if (!origin) {
      missing.push_back(name);
      continue;
    }
    auto rel = inside(*origin, root);
    // A file of the work tree that impact does not know (build/lib/pkg) is a copy too.
    if (rel && (graph.find(*rel) || !std::filesystem::is_regular_file(*origin))) {
      fine.push_back(name);
      continue;
    }
    outside.push_back(name);
    c.items.push_back(fmt::format("{}: imported from {}, not from the work tree", name, *origin));
  }
  for (const auto& name : missing) {
    c.items.push_back(fmt::format("{}: the test session cannot import it", name));
  }
  if (!outside.empty()) {
    c.status = CheckStatus::fail;
    c.what = fmt::format("the tests import {} from outside the work tree ({}): the selection and the coverage index "
                         "then see tests that never ran the code impact analyses",
                         some_of(outside), probe.executable);
    c.fix = fmt::format("install the work tree in editable mode ({} -m pip install -e .) or uninstall the copy ({} -m "
                        "pip uninstall <the distribution that installed it>); with a src/ layout, add its folder to "
                        "pytest's pythonpath option",
                        probe.executable, probe.executable);
  } else if (!missing.empty()) {
    c.status = CheckStatus::warn;
    c.what = fmt::format("{} cannot be imported in the test session ({})", some_of(missing), probe.executable);
    c.fix = "add the folder that holds it to pytest's pythonpath option, or install the work tree (pip install -e .)";
  } else if (probe.origins.empty()) {
    c.what = "no package of the project's own code was found to check (only tests and tooling)";
  } else {
    c.what = fmt::format("the tests import {} from the work tree ({})", some_of(fine), probe.executable);
  }
  return c;
}

Check collection_check(const ProbeReport& probe, const StaticSuite& suite, const std::string& rootdir) {
  // pytest's ids are relative to its rootdir; impact's to the repository. The items of a file that
  // runs whole are not compared one by one.
  std::vector<std::string> pytest_ids;
  pytest_ids.reserve(probe.items.size());
  for (const auto& item : probe.items) {
    std::string id = rootdir.empty() ? item : rootdir + "/" + item;
    std::string file = id.substr(0, id.find("::"));
    if (!std::binary_search(suite.whole_files.begin(), suite.whole_files.end(), file)) pytest_ids.push_back(id);
  }
  const std::vector<std::string>& impact_ids = suite.ids;
  IdDifference diff = compare_test_ids(impact_ids, pytest_ids);
  Check c{"collection", CheckStatus::ok, "", "", {}, {}};
  for (const auto& e : probe.collect_errors) {
    c.items.push_back(fmt::format("collection error: {}", e.empty() ? std::string("(the session: see pytest's report)") : e));
  }
  for (const auto& f : counts_by_file(diff.only_pytest)) c.items.push_back("pytest only: " + f);
  for (const auto& f : counts_by_file(diff.only_impact)) c.items.push_back("impact only: " + f);
  if (!diff.only_pytest.empty() || !probe.collect_errors.empty()) {
    c.status = CheckStatus::fail;
    c.what = fmt::format("pytest collects {} test(s) impact does not know, impact knows {} pytest does not collect, "
                         "{} collection error(s)",
                         diff.only_pytest.size(), diff.only_impact.size(), probe.collect_errors.size());
    c.fix = "a test impact does not know is never selected by itself: fix the collection errors, define tests as "
            "functions and classes the file names (not made by a loop or a plugin), or select with --file-level, "
            "where a reached test file runs whole; please report a plain test impact misses";
  } else if (!diff.only_impact.empty()) {
    c.status = CheckStatus::warn;
    c.what = fmt::format("impact knows {} test(s) pytest does not collect (of {} pytest collects)",
                         diff.only_impact.size(), probe.items.size());
    c.fix = "impact may select them in vain; if pytest's configuration leaves them out on purpose (collect_ignore, "
            "a plugin), nothing is missed; otherwise please report it";
  } else {
    c.what = fmt::format("impact and pytest agree on the suite: {} test(s), {} item(s) with their parameters",
                         std::set<std::string>(impact_ids.begin(), impact_ids.end()).size(), probe.items.size());
    if (!suite.whole_files.empty()) {
      c.what += fmt::format(", and {} doctest file(s) that run whole", suite.whole_files.size());
    }
  }
  c.lists = {{"only_pytest", diff.only_pytest}, {"only_impact", diff.only_impact}, {"collect_errors", probe.collect_errors}};
  return c;
}

} // namespace impact::app
