#pragma once
// A changed file's effect, for people: what kind of change, and how many selected tests lead back to
// it ("modified (total): 3 selected test(s) lead here (coverage index)").
#include "impact/decision.hpp"

#include <set>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace impact::decision {

// The effect line of Python file `v`, to which `tests` selected tests lead; `coverage` is the index's
// verdict on it (nullptr without one).
std::string file_effect(const FileVerdict& v, long tests, const std::vector<SyntaxProblem>& syntax_problems,
                        const CoverageUse* coverage);

// Why nothing runs, as the reason word and the detail for people: no file changed, every change is
// ignored, every change is ignored or quiet (`quiet`: the paths of quiet files), only comments or
// layout changed (`cosmetic`), or no test is reached.
std::pair<Reason, std::string> nothing_reason(const std::vector<FileVerdict>& files,
                                                   const std::set<std::string>& quiet, bool no_changes, bool cosmetic);

// The entry of the decision's files that stands for the installed environment (rule environment-drift).
FileVerdict environment_verdict();

} // namespace impact::decision
