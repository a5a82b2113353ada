#pragma once
// Templates that are not Python and read attributes by name (docs/selection.md, data-templates): a
// `welcome.txt` holding `{user.display_name}` for `str.format`, a Jinja, Django or tornado template
// holding `{{ user.display_name }}`. Which of them name a method or property the change touched.
#include "impact/changes.hpp"
#include "impact/decision.hpp"
#include "impact/semantic.hpp"

#include <vector>

namespace impact::app {

// The template-like text files of `inventory` (by extension, or under a `templates` folder) whose
// fields read an attribute named like a method, property or nested function a change in `semantics`
// touched (a comment, layout or docstring alone does not count).
std::vector<TemplateRead> template_reads(Repository& repo, const std::vector<SourceFile>& inventory,
                                         const std::vector<FileSemantics>& semantics);

} // namespace impact::app
