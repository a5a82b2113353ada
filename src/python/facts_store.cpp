// FactsStore and load_facts: the facts of a project's files, read through the facts cache, parsed on
// every core where the cache has none.
#include "impact/python/project_facts.hpp"
#include "python/facts_cache.hpp"
#include "python/facts_codec.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace impact {

ProjectFacts load_facts(std::vector<SourceFile> files, const ReadSource& read, python::FactsCache& cache,
                        unsigned threads) {
  ProjectFacts out;
  std::vector<std::string_view> blobs(files.size());
  std::vector<std::string> parsed(files.size());
  std::vector<char> was_parsed(files.size(), 0);
  std::atomic<size_t> next{0};
  // Each worker takes the next file: a cache hit is a view, a miss is read, parsed and encoded.
  auto work = [&] {
    FactsExtractor extractor;
    for (size_t i = next++; i < files.size(); i = next++) {
      if (auto cached = cache.find(files[i].oid)) {
        blobs[i] = *cached;
        continue;
      }
      FileFacts facts;
      // A file that is gone or cannot be read is analysed as unknown: it may import and read anything.
      if (FileRead content = read(files[i]); content.has_content()) facts = extractor.extract(content.text);
      else facts.parse_error = facts.paths.reads_anything = true;
      parsed[i] = python::encode(facts);
      was_parsed[i] = 1;
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(files.size() / 64 + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();

  out.keep_alive(cache.storage());
  auto fresh = std::make_shared<std::vector<std::string>>(std::move(parsed));
  for (size_t i = 0; i < files.size(); ++i) {
    if (was_parsed[i] != 0) {
      ++out.parsed;
      blobs[i] = (*fresh)[i];
      cache.put(files[i].oid, blobs[i]);
    }
    out.add(std::move(files[i]), blobs[i]);
  }
  if (out.parsed > 0) cache.keep(fresh); // a cache shared by later loads still views them
  out.keep_alive(std::move(fresh));
  return out;
}

FactsStore::FactsStore() : m_cache(std::make_unique<python::FactsCache>()) {}

FactsStore::FactsStore(const std::filesystem::path& dir)
    : m_cache(std::make_unique<python::FactsCache>(dir / python::facts_cache_file_name())) {}

FactsStore::~FactsStore() = default;
FactsStore::FactsStore(FactsStore&&) noexcept = default;
FactsStore& FactsStore::operator=(FactsStore&&) noexcept = default;

const std::string& FactsStore::warning() const { return m_cache->warning(); }

ProjectFacts FactsStore::load(std::vector<SourceFile> files, const ReadSource& read, unsigned threads) {
  return load_facts(std::move(files), read, *m_cache, threads);
}

bool FactsStore::worth_saving() const { return m_cache->worth_saving(); }

void FactsStore::save() { m_cache->save(); }

} // namespace impact
