#pragma once
// The coverage index's part of the shared cache (docs/cache.md, "The shared cache"): a segment of a
// run that built the index carries the index file; a pull or a compaction unions every index it reads
// with merge_indexes (files whose content hashes agree union their tests; where they differ, the newer
// index's file wins), so that N shards that each ran `impact index` give the index of the whole suite.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace impact::app {

// The bytes of the local index when this run wrote it (its file was written at or after `since`, a
// UTC time as utc_now() writes it), else "".
std::string coverage_to_push(const std::filesystem::path& cache, const std::string& since);

// The union of `indexes` (index files' bytes) and, when `with_local`, of the local index, as an index
// file's bytes; "" when there is nothing to union. An index that cannot be read is skipped with a line
// in `warnings`. Works in temporary files of `cache`.
std::string union_coverage(const std::vector<std::string_view>& indexes, const std::filesystem::path& cache,
                           bool with_local, std::vector<std::string>& warnings);

// Replaces the local index with `bytes` (temp file and rename).
void save_coverage(const std::filesystem::path& cache, std::string_view bytes);

} // namespace impact::app
