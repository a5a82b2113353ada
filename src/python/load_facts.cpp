#include "impact/python.hpp"
#include "python/facts_cache.hpp"
#include "python/facts_codec.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace impact {

size_t ProjectFacts::find(std::string_view path) const {
  auto it = std::lower_bound(files.begin(), files.end(), path,
                             [](const SourceFile& f, std::string_view p) { return f.path.view() < p; });
  if (it == files.end() || it->path.view() != path) return npos;
  return static_cast<size_t>(it - files.begin());
}

FactsHeader ProjectFacts::header(size_t i) const {
  FactsHeader h;
  if (!python::decode_header(m_blobs[i], h)) h.parse_error = true;
  return h;
}

void ProjectFacts::imports(size_t i, ImportScratch& scratch) const { python::decode_imports(m_blobs[i], scratch); }

bool ProjectFacts::mentions(size_t i, std::string_view name) const {
  if (m_name_table_ready.size() != m_blobs.size()) {
    m_name_tables.assign(m_blobs.size(), {});
    m_name_table_ready.assign(m_blobs.size(), 0);
  }
  if (m_name_table_ready[i] == 0) {
    m_name_tables[i] = python::name_table(m_blobs[i]);
    m_name_table_ready[i] = 1;
  }
  return python::mentions_in(m_name_tables[i], name);
}

void ProjectFacts::view(size_t i, FactsView& out) const {
  if (!python::decode_view(m_blobs[i], out)) out = FactsView{};
}

FileFacts ProjectFacts::full(size_t i) const {
  FileFacts facts;
  if (!python::decode_full(m_blobs[i], facts)) {
    facts = FileFacts{};
    facts.parse_error = true;
  }
  return facts;
}

void ProjectFacts::add(SourceFile file, std::string_view encoded) {
  files.push_back(std::move(file));
  m_blobs.push_back(encoded);
}

std::string_view ProjectFacts::own(const FileFacts& facts) {
  auto storage = std::make_shared<const std::string>(python::encode(facts));
  std::string_view view = *storage;
  m_storage.push_back(std::move(storage));
  return view;
}

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
      if (auto content = read(files[i])) facts = extractor.extract(*content);
      else facts.parse_error = true;
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
  out.keep_alive(std::move(fresh));
  return out;
}

} // namespace impact
