#pragma once
// The shared cache (docs/cache.md, "The shared cache"): a plain folder, possibly a network mount or a
// folder a CI step syncs with object storage, holding a compacted base and immutable segments:
//
//   <remote>/base.seg               what `impact cache compact` folded, and the segment ids it absorbed
//   <remote>/segments/<id>.seg      one run's durations, new facts, coverage index and flaky passes,
//                                   written once (temp file + rename)
//   <remote>/compact.lock           held while a compaction runs
//
// A pull merges the base and every segment it did not absorb into the local cache folder; a push writes
// one new segment; a compaction writes a new base, then deletes the segments it absorbed, so a segment
// pushed meanwhile is never lost. A torn or foreign file is skipped with a warning, never trusted.
#include "impact/run/flakes.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace impact::app {

std::filesystem::path remote_base(const std::filesystem::path& remote);
std::filesystem::path remote_segments(const std::filesystem::path& remote);

// What a pull merged.
struct PullSummary {
  size_t segments = 0;  // segments read (the base aside)
  bool base = false;    // whether a base was read
  size_t durations = 0; // tests whose duration changed in the local cache
  size_t facts = 0;     // facts entries new to the local cache
  size_t indexes = 0;   // coverage indexes unioned into the local one
  size_t flakes = 0;    // tests whose flaky passes grew in the local flakes.json
};

// Merges the remote into the local cache folder `cache`: durations newest per test, facts by blob id,
// coverage indexes unioned (cache_coverage.hpp), flaky passes added once per segment (cache_flakes.hpp).
// Problems with the remote's files are lines in `warnings`; throws impact::Error only when the local
// cache cannot be written.
PullSummary pull_remote(const std::filesystem::path& remote, const std::filesystem::path& cache,
                        std::vector<std::string>& warnings);

// What a push wrote.
struct PushSummary {
  std::string id;       // "" when there was nothing to push
  size_t durations = 0; // durations measured since `since`
  size_t facts = 0;     // facts entries the remote did not hold
  bool coverage = false; // the coverage index this run built
  size_t flakes = 0;     // tests this run saw pass on rerun
};

// Writes one segment into the remote: the local durations measured at or after `since` (a UTC time as
// utc_now() writes it), the local facts the remote does not hold yet, the coverage index when this
// run wrote it, and the flaky passes flakes.json gained over `flakes_before` (its content, inbox merged,
// when the run started), which it records as counted (cache_flakes.hpp). Writes nothing when there is
// none of them. Throws impact::Error when the segment cannot be written.
PushSummary push_segment(const std::filesystem::path& remote, const std::filesystem::path& cache, const std::string& since,
                         const Flakes& flakes_before, std::vector<std::string>& warnings);

// What a compaction did.
struct CompactSummary {
  size_t absorbed = 0; // segments folded into the new base and deleted
  size_t skipped = 0;  // unreadable segments left in place
  size_t durations = 0, facts = 0, flakes = 0; // what the new base holds (flakes: tests with flaky passes)
  // The files the base absorbed, relative to the remote ("segments/<id>.seg"): deleted here, and to be
  // deleted from wherever the folder is synced to.
  std::vector<std::string> pruned;
};

// Folds the base and every readable segment into a new base (durations newest per test; facts by
// blob id, newest first, at most k_base_facts_bytes; flaky passes summed), renames it over the old one, then deletes the
// absorbed segments. Holds <remote>/compact.lock meanwhile; throws impact::Error when another
// compaction holds it (younger than k_stale_lock_seconds), or when the base cannot be written.
CompactSummary compact_remote(const std::filesystem::path& remote, std::vector<std::string>& warnings);

constexpr size_t k_base_facts_bytes = size_t{512} << 20;
constexpr long k_stale_lock_seconds = 3600;
constexpr int k_absorbed_keep_days = 7; // a base keeps the ids it absorbed at least this long after their push

} // namespace impact::app
