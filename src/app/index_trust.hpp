#pragma once
// Whether the content an index hashes is the content coverage.py measured. coverage.py records no hash
// and no commit, so nothing in its data proves which version of a file it measured: a file's lines are
// trusted only where something outside the data does (docs/coverage.md, "Trust").
#include "impact/changes.hpp"
#include "impact/coverage.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace impact::app {

// What vouches for the files of one index build.
struct TrustRule {
  enum class Kind {
    run,         // impact ran the suite: a file is trusted unless it changed while the suite ran
    data_file,   // --from FILE: trusted when clean, and last committed and written before FILE was
    measured_at, // --from FILE --measured-at REV: trusted when its blob at REV is the content hashed
  };
  Kind kind = Kind::run;
  std::filesystem::file_time_type since; // run: when the suite started; data_file: FILE's mtime
  std::string rev;                       // measured_at
};

// The files an untrusting pass marked, for the summary.
struct TrustReport {
  size_t untrusted = 0;
  size_t beyond_the_end = 0; // of them: vouched for, but the data records lines past the file's end
  std::vector<std::string> examples; // the first few paths, sorted
};

// Marks every file of `index` (measured or only hashed) that `rule` cannot vouch for as untrusted, and
// any whose data records a line beyond the file's end (data that fits proves nothing; data that does
// not fit disproves).
// Throws impact::Error when --measured-at names no commit.
TrustReport mark_untrusted(CoverageIndex& index, Repository& repo, const TrustRule& rule);

// One line for stderr saying how many files are untrusted, what that costs and the fix; "" when none.
std::string describe_untrusted(const TrustReport& report, const TrustRule& rule, const std::string& data_file);

} // namespace impact::app
