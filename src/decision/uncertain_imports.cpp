#include "decision/uncertain_imports.hpp"

#include "decision/rules/session_hooks.hpp"
#include "decision/test_code.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace impact::decision {

void link_uncertain_imports(const DecisionInput& in, const std::vector<uint32_t>& seeds, ReverseWalk& walk,
                            Decision& out, std::vector<Trigger>& triggers) {
  if (seeds.empty() || in.graph.unbounded.empty()) return;
  TestCode test_code(in.graph); // code outside the tests cannot name a test module
  auto only = [&](uint32_t n) { return test_code.test_module_only(n); };
  bool test_modules = in.mode != Mode::safe && std::all_of(seeds.begin(), seeds.end(), only);
  for (const auto& u : in.graph.unbounded) {
    if (walk.reached(u.node) || (test_modules && !test_code.holds(u.node))) continue;
    ReverseWalk side(in.graph);
    side.seed(u.node, Relation::uncertain);
    side.run();
    bool tests = std::any_of(side.order().begin(), side.order().end(), [&](uint32_t n) { return in.graph.nodes[n].test; });
    if (!tests) continue;
    const std::string& path = in.graph.nodes[u.node].path.str;
    std::string what = u.literal.empty()
                           ? fmt::format("{}() with a computed name", u.call)
                           : fmt::format("the literal module name \"{}\" names no file of the repository: it", u.literal);
    out.uncertainties.push_back(Uncertainty{path, u.line, fmt::format("{} may load any module", what)});
    if (in.mode == Mode::fast) {
      out.warnings.push_back(fmt::format("{}:{}: {} may load the change; fast mode does not select for it", path, u.line, what));
      continue;
    }
    if (in.strict) {
      triggers.push_back(Trigger{Reason::uncertain_dynamic_import, fmt::format("{}:{}: {} may load the change", path, u.line, what)});
      continue;
    }
    walk.link(u.node, seeds.front(), Relation::dynamic_import_may_load, u.line);
    if (auto t = rules::collect_hook_at(in, u.node)) triggers.push_back(std::move(*t)); // `collect-hook`
  }
}

} // namespace impact::decision
