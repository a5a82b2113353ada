#pragma once
// Running many programs at once under one limit, each one's output (stdout and stderr together)
// kept whole and handed back when it ends, in the order they end.
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace impact::util {

// One program to run.
struct PoolJob {
  std::vector<std::string> argv;
  std::filesystem::path cwd;
  double timeout_s = 0; // 0: none; past it the job is sent SIGTERM, then SIGKILL 5 s later
  std::string input;    // its standard input (from an unlinked temporary file); "" gives /dev/null
  std::vector<std::pair<std::string, std::string>> env; // set in its environment on top of impact's
};

// How one job ended.
struct PoolResult {
  size_t index = 0;       // into the jobs given
  int code = 0;           // its exit code; 128 + signal when it was killed; 127 when it could not start
  bool timed_out = false; // it ran past its timeout and was stopped (an exit 0 as it stopped is not)
  bool interrupted = false; // Ctrl-C reached impact while it ran
  std::string output;     // everything it wrote, stdout and stderr interleaved as written
  double seconds = 0;     // its wall time
};

// Runs `jobs` in their order, at most `width` (at least 1) at once, and calls `done` on this thread as
// each one ends. Ctrl-C (SIGINT) while they run is passed on to every running job, no job starts after
// it, and the rest are reported with `interrupted` and code 130 without running. Throws impact::Error
// when a temporary file for the output or a process cannot be made.
void run_pool(const std::vector<PoolJob>& jobs, unsigned width, const std::function<void(const PoolResult&)>& done);

} // namespace impact::util
