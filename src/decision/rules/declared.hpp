#pragma once
// Rules `triggers`, `always-run` and `include-failed` of docs/selection.md: the edges and tests a user declares in
// [tool.impact], where no analysis can see them.
#include "impact/decision.hpp"

#include <vector>

namespace impact::decision {

// The node ids an entry of always-run or of a trigger's run names among the graph's test files: a
// node id whose file is one, a test file, a folder of them, or a glob over their paths.
std::vector<std::string> tests_named(const ImportGraph& graph, const std::string& entry);

// The first rule with a list of tests whose paths match `path` and whose entries name at least one
// test file, or nullptr: such a rule bounds a changed data file that no reader does.
const TriggerRule* bounding_trigger(const ImportGraph& graph, const std::vector<TriggerRule>& rules,
                                    const RepoPath& path);

// Applies the rules to a concluded decision: a matching `run = "all"` trigger makes it run_all
// (reason `triggered`); a matching list trigger and always-run add their tests to anything short of
// run_all, each with a chain that names the rule. Nothing changed, nothing added. Then
// --include-failed (rule `include-failed`) adds the tests pytest's last run failed, changes or not.
void apply_declared(const DecisionInput& in, Decision& decision);

} // namespace impact::decision
