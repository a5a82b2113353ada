#pragma once
// Text files that code may run as Python (docs/selection.md, executed-text): a Python file that execs
// or evals what it is given, and has a string naming a file that is not Python (`"README.md"`, the
// `.rules` of `f"{name}.rules"`), may run that file's import statements. What each such file imports.
#include "impact/changes.hpp"
#include "impact/decision.hpp"
#include "impact/python/project_facts.hpp"

#include <vector>

namespace impact::app {

// The non-Python text files of `inventory` that a string of an exec'ing file of `facts` could name,
// with the modules their import lines name; files without an import line are left out.
std::vector<ExecutedText> executed_texts(Repository& repo, const ProjectFacts& facts,
                                         const std::vector<SourceFile>& inventory);

} // namespace impact::app
