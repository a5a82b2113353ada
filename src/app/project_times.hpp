#pragma once
// Each project's last wall time in monorepo mode, kept in the root's cache folder, so that the longest
// project starts first and the run ends sooner (docs/monorepo.md, "Scheduling").
#include <filesystem>
#include <map>
#include <string>

namespace impact::app {

// The file that holds them, in the cache folder `cache_dir`.
std::filesystem::path project_times_file(const std::filesystem::path& cache_dir);

// Project folder -> seconds; empty when the file is missing or unreadable (the times only order the
// start, so a bad file costs nothing but the order).
std::map<std::string, double> read_project_times(const std::filesystem::path& file);

// Writes `times` over the file (atomically). Throws impact::Error when it cannot.
void write_project_times(const std::filesystem::path& file, const std::map<std::string, double>& times);

} // namespace impact::app
