// The facts cache's entries for the shared cache (impact/python/facts_exchange.hpp).
#include "impact/python/facts_exchange.hpp"
#include "python/facts_cache.hpp"

namespace impact {

std::string facts_exchange_format() { return python::facts_format(); }

FactsEntries read_cache_facts(const std::filesystem::path& cache_dir) {
  auto cache = std::make_shared<python::FactsCache>(cache_dir / python::facts_cache_file_name());
  FactsEntries out;
  out.entries = cache->loaded_entries();
  out.storage = std::move(cache); // the entries view the cache's keys and its mapped file
  return out;
}

size_t add_cache_facts(const std::filesystem::path& cache_dir, std::span<const FactsEntry> entries) {
  python::FactsCache cache(cache_dir / python::facts_cache_file_name());
  cache.keep_all(); // the entries already here stay: a pull adds, the next analysis prunes
  size_t added = 0;
  for (const auto& [oid, facts] : entries) added += cache.put_raw(oid, facts) ? 1 : 0;
  if (added > 0) cache.save();
  return added;
}

} // namespace impact
