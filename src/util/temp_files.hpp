#pragma once
// Temporary files beside impact's own files: named for the host and process that wrote them, and
// removed when stale. A process id alone proves nothing across containers or a cache shared between
// CI machines (another host's process 42 may be alive), so another host's files go by age only.
#include <chrono>
#include <filesystem>
#include <string>

namespace impact::util {

// "-<host>-<pid>": what names this process's temporary files (the host name with anything but
// letters, digits and dots replaced by '_').
std::string temp_tag();

// ".tmp-<host>-<pid>-<random hex>": the suffix of an atomic write's temporary file.
std::string temp_suffix();

// How old another process's temporary file must be before it is removed.
struct StaleAges {
  // An atomic write's temporary (`*.tmp-*`) lives for the seconds a write takes.
  std::chrono::seconds write = std::chrono::hours(1);
  // A coverage data file of `impact index` (`coverage-run-*`) lives as long as the suite runs.
  std::chrono::seconds run = std::chrono::hours(24);
  // A file of this host whose process is gone (another container sharing the host name may reuse the
  // id, so not at once).
  std::chrono::seconds dead = std::chrono::minutes(1);
};

// Removes the stale temporary files directly in `dir`: this host's whose process is gone (after
// `ages.dead`), and any host's older than their kind's age. Returns how many it removed; never throws.
size_t remove_stale_temporaries(const std::filesystem::path& dir, const StaleAges& ages = {});

// The file system's clock now, read back from a file written in `dir` (timestamps of files written
// later compare at or after it); the process's clock when `dir` is not writable.
std::filesystem::file_time_type file_system_now(const std::filesystem::path& dir);

} // namespace impact::util
