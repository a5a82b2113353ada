// Merging coverage indexes per (file, content hash), keeping a bounded number of versions of each file
// (docs/coverage.md, "Merge" and "Versions").
#include "coverage/versions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace impact {

namespace {

// An index built by impact index names no runs: it is the one its meta describes.
std::vector<IndexOrigin> origins_of(const CoverageIndex& index) {
  if (!index.origins.empty()) return index.origins;
  return {IndexOrigin{index.meta.commit, index.meta.built_epoch}};
}

// The runs of the merged index, each once (a run met in several parts, such as an index merged into
// itself, is one run).
class Origins {
public:
  uint32_t id(const IndexOrigin& origin) {
    for (size_t i = 0; i < m_all.size(); ++i) {
      if (m_all[i] == origin) return static_cast<uint32_t>(i);
    }
    m_all.push_back(origin);
    return static_cast<uint32_t>(m_all.size() - 1);
  }
  const IndexOrigin& at(uint32_t id) const { return m_all[id]; }

  // Newest first; equal times by commit, so that the order never depends on the inputs'.
  bool newer(uint32_t a, uint32_t b) const {
    if (m_all[a].built_epoch != m_all[b].built_epoch) return m_all[a].built_epoch > m_all[b].built_epoch;
    return m_all[a].commit > m_all[b].commit;
  }

  // When the latest run that measured a version was built: how recent the version is.
  int64_t latest(const std::vector<uint32_t>& ids) const {
    int64_t out = 0;
    for (uint32_t id : ids) out = std::max(out, m_all[id].built_epoch);
    return out;
  }

private:
  std::vector<IndexOrigin> m_all;
};

void copy_lines(MeasuredFile& target, const MeasuredFile& from, const std::vector<uint32_t>& remap) {
  for (const auto& [line, tests] : from.lines) {
    auto& ids = target.lines[line];
    for (uint32_t t : tests) ids.push_back(t < remap.size() ? remap[t] : k_import_time);
  }
}

// Keeps the newest k_versions_per_file versions of each path, and the newest k_versions_per_file runs
// of each version; renumbers the runs that are left.
void bound(CoverageIndex& out, Origins& origins) {
  std::vector<MeasuredFile> kept;
  std::sort(out.files.begin(), out.files.end(), [&](const MeasuredFile& a, const MeasuredFile& b) {
    if (a.path != b.path) return a.path < b.path;
    int64_t ta = origins.latest(a.origins), tb = origins.latest(b.origins);
    if (ta != tb) return ta > tb;
    return a.sha256 > b.sha256;
  });
  for (size_t i = 0; i < out.files.size(); ++i) {
    size_t rank = 0;
    while (rank < kept.size() && rank < k_versions_per_file && kept[kept.size() - 1 - rank].path == out.files[i].path) ++rank;
    if (rank >= k_versions_per_file) continue;
    kept.push_back(std::move(out.files[i]));
  }
  std::map<uint32_t, uint32_t> renumber; // old id -> new id, by first use
  std::vector<std::pair<uint32_t, uint32_t>> order;
  for (auto& f : kept) {
    std::sort(f.origins.begin(), f.origins.end(), [&](uint32_t a, uint32_t b) { return origins.newer(a, b); });
    f.origins.erase(std::unique(f.origins.begin(), f.origins.end()), f.origins.end());
    if (f.origins.size() > k_versions_per_file) f.origins.resize(k_versions_per_file);
    for (auto& id : f.origins) {
      auto [it, inserted] = renumber.emplace(id, static_cast<uint32_t>(renumber.size()));
      if (inserted) out.origins.push_back(origins.at(id));
      id = it->second;
    }
  }
  out.files = std::move(kept);
}

} // namespace

FileCounts count_files(const std::vector<MeasuredFile>& files) {
  std::map<std::string_view, std::pair<bool, bool>> paths; // path -> (some measured, some trusted)
  for (const auto& f : files) {
    auto& [measured, trusted] = paths[f.path.str];
    measured = measured || f.measured;
    trusted = trusted || f.trusted;
  }
  FileCounts out;
  for (const auto& [path, flags] : paths) {
    ++(flags.first ? out.measured : out.hashed);
    if (!flags.second) ++out.untrusted;
  }
  return out;
}

CoverageIndex merge_indexes(const std::vector<CoverageIndex>& parts) {
  CoverageIndex out;
  Origins origins;
  std::unordered_map<std::string, uint32_t> test_ids;
  std::map<std::pair<std::string, std::string>, size_t> slot; // (path, sha256) -> index in out.files
  for (const auto& part : parts) {
    std::vector<uint32_t> remap(part.tests.size() + 1, k_import_time);
    for (size_t i = 0; i < part.tests.size(); ++i) {
      auto [it, inserted] = test_ids.emplace(part.tests[i], static_cast<uint32_t>(out.tests.size() + 1));
      if (inserted) out.tests.push_back(part.tests[i]);
      remap[i + 1] = it->second;
    }
    std::vector<IndexOrigin> runs = origins_of(part);
    for (const auto& f : part.files) {
      std::vector<uint32_t> ids;
      for (uint32_t o : f.origins.empty() ? std::vector<uint32_t>{0} : f.origins) {
        if (o < runs.size()) ids.push_back(origins.id(runs[o]));
      }
      auto [it, inserted] = slot.emplace(std::pair{f.path.str, f.sha256}, out.files.size());
      if (inserted) {
        MeasuredFile copy;
        copy.path = f.path;
        copy.sha256 = f.sha256;
        copy.oid = f.oid;
        copy.measured = f.measured;
        copy.trusted = f.trusted;
        out.files.push_back(std::move(copy));
      }
      MeasuredFile& kept = out.files[it->second];
      if (!inserted) {
        kept.measured = kept.measured || f.measured;
        kept.trusted = kept.trusted && f.trusted;
      }
      copy_lines(kept, f, remap);
      kept.origins.insert(kept.origins.end(), ids.begin(), ids.end());
    }
  }
  // The newest part's date and commit (the first of those built in the same second).
  const CoverageIndex* newest = nullptr;
  for (const auto& part : parts) {
    if (newest == nullptr || part.meta.built_epoch > newest->meta.built_epoch) newest = &part;
  }
  if (newest != nullptr) out.meta = newest->meta;
  // Arcs only where every part recorded them: a line-data part's generators may be resumed silently.
  out.meta.arcs = std::all_of(parts.begin(), parts.end(), [](const CoverageIndex& p) { return p.meta.arcs; });
  out.meta.loaded = std::all_of(parts.begin(), parts.end(), [](const CoverageIndex& p) { return p.meta.loaded; });
  for (auto& f : out.files) {
    for (auto& [line, tests] : f.lines) {
      std::sort(tests.begin(), tests.end());
      tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
    }
  }
  bound(out, origins);
  out.meta.schema = 4; // what write_index writes (store.cpp, k_schema)
  out.meta.source = fmt::format("merge of {} index(es)", parts.size());
  // Shards each ran a share of the suite; nothing proves the shares add up to all of it.
  out.meta.whole_suite = false;
  out.meta.partial = "merged from shards";
  out.meta.tests = out.tests.size();
  FileCounts counts = count_files(out.files);
  out.meta.files = counts.measured;
  out.meta.hashed = counts.hashed;
  out.meta.untrusted = counts.untrusted;
  return out;
}

} // namespace impact
