#include "util/cache_dir.hpp"

#include "impact/error.hpp"
#include "util/files.hpp"

namespace impact::util {

std::filesystem::path cache_dir(const std::filesystem::path& repo_root, const EnvLookup& env) {
  if (auto value = env("IMPACT_CACHE"); value && !value->empty()) { // unset or empty: the default
    std::filesystem::path p(*value);
    return p.is_absolute() ? p : repo_root / p;
  }
  return repo_root / ".impact_cache";
}

void ensure_cache_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw Error("cannot create the cache folder {}: {}; set IMPACT_CACHE to a writable folder", dir.string(),
                ec.message());
  }
  auto ignore = dir / ".gitignore";
  if (!std::filesystem::exists(ignore, ec)) {
    write_file_atomic(ignore, "# impact's cache: safe to delete, never committed\n*\n");
  }
}

} // namespace impact::util
