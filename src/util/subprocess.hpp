#pragma once
// Running a program to completion: with this process's terminal (stdout and stderr pass through), or
// with its standard output captured.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace impact::util {

// Runs `argv` in `cwd` with `extra_env` added, waits, and returns its exit code (128 + signal when it
// was killed). Throws impact::Error when it cannot be started, naming the program.
int run_and_wait(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                 const std::vector<std::pair<std::string, std::string>>& extra_env);

struct Captured {
  int code = 0;    // as run_and_wait returns it
  std::string out; // everything it wrote on standard output
};

// Runs `argv` in `cwd` and waits, collecting its standard output (stderr passes through). Throws
// impact::Error when it cannot be started.
Captured run_and_capture(const std::vector<std::string>& argv, const std::filesystem::path& cwd);

} // namespace impact::util
