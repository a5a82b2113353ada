// ProjectFacts: every file's facts kept encoded, decoded on demand, and the inverted index of the
// names they mention.
#include "impact/python/project_facts.hpp"
#include "python/facts_codec.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

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

const std::string_view& ProjectFacts::name_table(size_t i) const {
  if (m_name_table_ready.size() != m_blobs.size()) {
    m_name_tables.assign(m_blobs.size(), {});
    m_name_table_ready.assign(m_blobs.size(), 0);
  }
  if (m_name_table_ready[i] == 0) {
    m_name_tables[i] = python::name_table(m_blobs[i]);
    m_name_table_ready[i] = 1;
  }
  return m_name_tables[i];
}

bool ProjectFacts::mentions(size_t i, std::string_view name) const { return python::mentions_in(name_table(i), name); }

bool ProjectFacts::mentions_hash(size_t i, uint32_t hash) const { return python::mentions_hash_in(name_table(i), hash); }

uint32_t ProjectFacts::mention_hash(std::string_view name) { return python::name_hash(name); }

std::vector<uint32_t> ProjectFacts::files_mentioning(std::string_view name) const {
  constexpr size_t k_scans_before_index = 16;
  if (!m_mention_ready) {
    for (const auto& [scanned, found] : m_mention_scanned) {
      if (scanned == name) return found;
    }
    if (m_mention_scanned.size() < k_scans_before_index) {
      std::vector<uint32_t> out;
      for (size_t i = 0; i < m_blobs.size(); ++i) {
        if (mentions(i, name)) out.push_back(static_cast<uint32_t>(i)); // an unreadable table mentions everything
      }
      m_mention_scanned.emplace_back(std::string(name), out);
      return out;
    }
  }
  if (!m_mention_ready) {
    // (hash << 32 | file) pairs, sorted: grouped by hash, each group's files ascending.
    std::vector<uint64_t> pairs;
    for (size_t i = 0; i < m_blobs.size(); ++i) {
      std::string_view table = name_table(i);
      if (table.size() % 4 != 0) {
        m_mention_all.push_back(static_cast<uint32_t>(i)); // unreadable: mentions everything
        continue;
      }
      for (size_t at = 0; at < table.size(); at += 4) {
        uint32_t hash;
        std::memcpy(&hash, table.data() + at, 4);
        pairs.push_back(static_cast<uint64_t>(hash) << 32 | static_cast<uint32_t>(i));
      }
    }
    std::sort(pairs.begin(), pairs.end());
    m_mention_files.reserve(pairs.size());
    for (uint64_t pair : pairs) {
      auto hash = static_cast<uint32_t>(pair >> 32);
      if (m_mention_hashes.empty() || m_mention_hashes.back() != hash) {
        m_mention_hashes.push_back(hash);
        m_mention_offsets.push_back(static_cast<uint32_t>(m_mention_files.size()));
      }
      m_mention_files.push_back(static_cast<uint32_t>(pair));
    }
    m_mention_offsets.push_back(static_cast<uint32_t>(m_mention_files.size()));
    m_mention_ready = true;
  }
  std::vector<uint32_t> out;
  uint32_t hash = python::name_hash(name);
  auto it = std::lower_bound(m_mention_hashes.begin(), m_mention_hashes.end(), hash);
  if (it != m_mention_hashes.end() && *it == hash) {
    auto k = static_cast<size_t>(it - m_mention_hashes.begin());
    out.assign(m_mention_files.begin() + m_mention_offsets[k], m_mention_files.begin() + m_mention_offsets[k + 1]);
  }
  if (!m_mention_all.empty()) {
    std::vector<uint32_t> merged;
    std::set_union(out.begin(), out.end(), m_mention_all.begin(), m_mention_all.end(), std::back_inserter(merged));
    out = std::move(merged);
  }
  return out;
}

void ProjectFacts::view(size_t i, FactsView& out) const {
  if (!python::decode_view(m_blobs[i], out)) out = FactsView{};
}

PathStrings ProjectFacts::paths(size_t i) const {
  PathStrings paths;
  if (!python::decode_paths(m_blobs[i], paths)) {
    paths = PathStrings{};
    paths.reads_anything = true;
  }
  return paths;
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
  m_mention_scanned.clear();
  if (m_mention_ready) {
    m_mention_ready = false;
    m_mention_hashes.clear();
    m_mention_offsets.clear();
    m_mention_files.clear();
    m_mention_all.clear();
  }
}

std::string_view ProjectFacts::own(const FileFacts& facts) {
  auto storage = std::make_shared<const std::string>(python::encode(facts));
  std::string_view view = *storage;
  m_storage.push_back(std::move(storage));
  return view;
}

} // namespace impact
