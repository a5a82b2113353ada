// PlainReaders: plain_readers.hpp.
#include "decision/rules/plain_readers.hpp"

#include <algorithm>

namespace impact::decision::rules {

bool PlainReaders::hot(const std::vector<uint32_t>& ids) {
  bool all = true;
  for (uint32_t id : ids) all = ++m_searches[id] > k_searches_before_index && all;
  return all;
}

const PlainReaders::NameReads& PlainReaders::reads_of(uint32_t id, const std::string& name) {
  return m_reads.get(id, [&] {
    NameReads out;
    for (uint32_t h : m_facts.files_mentioning(name)) {
      if (h >= m_facts.size()) continue;
      resolve::FileIndex::DenotingFiles d = m_index.denoting_files(h, id, name);
      if (d.unknown) out.unknown.push_back(h);
      for (uint32_t node : d.nodes) out.by_definition.emplace_back(node, h);
    }
    std::sort(out.unknown.begin(), out.unknown.end());
    std::sort(out.by_definition.begin(), out.by_definition.end());
    return out;
  });
}

// What ReferenceRules::reading_code and readers_in look at besides the reads of the searched names,
// and the files referrers() asks without a look at their name table.
bool PlainReaders::reads_otherwise(uint32_t h) {
  if (h >= m_facts.size() || m_tables.reads_unspelled_names(h)) return true;
  const resolve::FileInfo* info = m_index.get(h);
  if (info == nullptr) return true;
  return info->facts.module_dynamic_access || !info->dynamic_symbols.empty() || !m_index.namespace_reads(h).empty() ||
         !m_tables.string_refs(h, *info).empty();
}

const std::vector<uint32_t>& PlainReaders::positions(uint32_t g, const std::vector<uint32_t>& files,
                                                     const std::vector<uint32_t>& by_string, const std::vector<uint32_t>& ids,
                                                     const std::vector<std::string>& names) {
  const Order& order = m_orders.get(g, [&] {
    Order out;
    for (uint32_t at = 0; at < files.size(); ++at) {
      uint32_t h = files[at];
      out.by_file.emplace_back(h, at);
      if (std::binary_search(by_string.begin(), by_string.end(), h) || reads_otherwise(h)) out.always.push_back(at);
    }
    std::sort(out.by_file.begin(), out.by_file.end());
    return out;
  });
  m_positions.assign(order.always.begin(), order.always.end());
  auto add = [&](uint32_t h) {
    auto it = std::lower_bound(order.by_file.begin(), order.by_file.end(), std::pair<uint32_t, uint32_t>{h, 0});
    for (; it != order.by_file.end() && it->first == h; ++it) m_positions.push_back(it->second);
  };
  for (size_t k = 0; k < ids.size() && k < names.size(); ++k) {
    const NameReads& reads = reads_of(ids[k], names[k]);
    for (uint32_t h : reads.unknown) add(h);
    auto first = std::lower_bound(reads.by_definition.begin(), reads.by_definition.end(), std::pair<uint32_t, uint32_t>{g, 0});
    for (auto it = first; it != reads.by_definition.end() && it->first == g; ++it) add(it->second);
  }
  std::sort(m_positions.begin(), m_positions.end());
  m_positions.erase(std::unique(m_positions.begin(), m_positions.end()), m_positions.end());
  return m_positions;
}

} // namespace impact::decision::rules
