#pragma once
// The versions of a file a coverage index holds (docs/coverage.md, "Versions"): how many files they
// count as, for the index's meta.
#include "impact/coverage.hpp"

#include <cstddef>
#include <vector>

namespace impact {

// Files by path, whatever their number of versions: measured (some version was), only hashed (none
// was), untrusted (no version is trusted).
struct FileCounts {
  size_t measured = 0;
  size_t hashed = 0;
  size_t untrusted = 0;
};

FileCounts count_files(const std::vector<MeasuredFile>& files);

} // namespace impact
