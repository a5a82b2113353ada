#pragma once
// The files of the repository whose text names a changed data file (docs/selection.md, data-files):
// a template that extends another, a manifest that lists a fixture. Their readers read the changed file.
#include "impact/changes.hpp"
#include "impact/decision.hpp"

#include <string>
#include <vector>

namespace impact::app {

struct MentionSearch {
  std::vector<FileMention> mentions;
  std::string unknown; // why the search gave up ("" when every file was searched)
};

// Searches every non-Python file of the state under test for the names of the changed data files,
// then for the names of the data files that name them, until no new file is found.
MentionSearch find_mentions(Repository& repo, const ChangeSet& changes, const std::vector<SourceFile>& inventory);

} // namespace impact::app
