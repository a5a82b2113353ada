#pragma once
// Running a program to completion with this process's terminal (stdout and stderr pass through).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace impact::util {

// Runs `argv` in `cwd` with `extra_env` added, waits, and returns its exit code (128 + signal when it
// was killed). Throws impact::Error when it cannot be started, naming the program.
int run_and_wait(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                 const std::vector<std::pair<std::string, std::string>>& extra_env);

} // namespace impact::util
