// The coverage index in the shared cache (cache_coverage.hpp).
#include "app/cache_coverage.hpp"

#include "impact/coverage.hpp"
#include "impact/error.hpp"
#include "impact/run/durations.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"
#include "util/temp_files.hpp"

#include <fmt/format.h>

namespace impact::app {

namespace {

std::filesystem::path local_index(const std::filesystem::path& cache) { return cache / index_file_name(); }

// A temporary file of `cache` removed when the object goes.
class TempIndex {
public:
  TempIndex(const std::filesystem::path& cache, size_t n)
      : m_path(cache / fmt::format("shared-index-{}{}", n, util::temp_suffix())) {}
  ~TempIndex() {
    std::error_code ec;
    std::filesystem::remove(m_path, ec);
  }
  TempIndex(const TempIndex&) = delete;
  TempIndex& operator=(const TempIndex&) = delete;
  const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

} // namespace

std::string coverage_to_push(const std::filesystem::path& cache, const std::string& since) {
  std::error_code ec;
  auto written = std::filesystem::last_write_time(local_index(cache), ec);
  if (ec || utc_of(written) < since) return "";
  return util::read_file(local_index(cache)).value_or("");
}

std::string union_coverage(const std::vector<std::string_view>& indexes, const std::filesystem::path& cache,
                           bool with_local, std::vector<std::string>& warnings) {
  std::vector<CoverageIndex> parts;
  std::filesystem::create_directories(cache);
  for (size_t i = 0; i < indexes.size(); ++i) {
    TempIndex file(cache, i);
    try {
      util::write_file_atomic(file.path(), indexes[i]);
      parts.push_back(read_index(file.path(), true));
    } catch (const Error& e) {
      warnings.push_back(fmt::format("shared cache: a coverage index was skipped: {}", e.what()));
    }
  }
  if (parts.empty()) return "";
  if (with_local && std::filesystem::exists(local_index(cache))) {
    try {
      parts.push_back(read_index(local_index(cache), true));
    } catch (const Error& e) {
      warnings.push_back(fmt::format("the local coverage index is replaced by the pulled one: {}", e.what()));
    }
  }
  CoverageIndex merged = parts.size() == 1 ? std::move(parts.front()) : merge_indexes(parts);
  TempIndex out(cache, indexes.size());
  write_index(merged, out.path());
  return util::read_file(out.path()).value_or("");
}

void save_coverage(const std::filesystem::path& cache, std::string_view bytes) {
  util::write_file_atomic(local_index(cache), bytes);
}

} // namespace impact::app
