// FileIndex's answers about the definitions a name's reads denote (file_index.hpp: reads_denoting,
// denoting_files): each file's reads of a name, grouped once by what their targets are.
#include "impact/resolve/file_index.hpp"

#include <algorithm>

namespace impact::resolve {

const FileInfo::Denoting& FileIndex::denoting(FileInfo* info, size_t at) {
  std::optional<FileInfo::Denoting>& denoting = info->denoting[at];
  if (denoting) return *denoting;
  using Definition = FileInfo::Denoting::Definition;
  denoting.emplace();
  for (const Read& r : info->read_lists[at]) {
    int32_t symbol = r.stored ? k_stored_read : r.program ? k_program_read : r.symbol;
    if (r.target->kind == Target::unknown) (r.value_attr ? denoting->value_attrs : denoting->unknown).push_back(symbol);
    else if (r.target->kind == Target::definition) denoting->definitions.push_back(Definition{r.target->node, symbol, r.target});
  }
  std::stable_sort(denoting->definitions.begin(), denoting->definitions.end(),
                   [](const Definition& a, const Definition& b) { return a.node < b.node; });
  return *denoting;
}

bool FileIndex::reads_denoting(uint32_t h, uint32_t id, std::string_view name, uint32_t g, std::string_view qualname,
                               std::vector<int32_t>& out, bool value_attrs) {
  FileInfo* info = mutable_get(h);
  if (info == nullptr) return false;
  const FileInfo::Denoting& d = denoting(info, read_list(info, id, name));
  out.insert(out.end(), d.unknown.begin(), d.unknown.end());
  if (value_attrs) out.insert(out.end(), d.value_attrs.begin(), d.value_attrs.end());
  bool had_value_attrs = !d.value_attrs.empty();
  if (m_links) { // a linked file is the same code under another number: look at every definition
    for (const auto& def : d.definitions) {
      if (may_denote(*def.target, g, qualname)) out.push_back(def.symbol);
    }
    return had_value_attrs;
  }
  using Definition = FileInfo::Denoting::Definition;
  auto first = std::lower_bound(d.definitions.begin(), d.definitions.end(), g,
                                [](const Definition& def, uint32_t node) { return def.node < node; });
  for (auto it = first; it != d.definitions.end() && it->node == g; ++it) {
    if (may_denote(*it->target, g, qualname)) out.push_back(it->symbol);
  }
  return had_value_attrs;
}

FileIndex::DenotingFiles FileIndex::denoting_files(uint32_t h, uint32_t id, std::string_view name) {
  DenotingFiles out;
  FileInfo* info = mutable_get(h);
  if (info == nullptr) return out;
  const FileInfo::Denoting& d = denoting(info, read_list(info, id, name));
  out.unknown = !d.unknown.empty() || !d.value_attrs.empty();
  for (const auto& def : d.definitions) {
    if (out.nodes.empty() || out.nodes.back() != def.node) out.nodes.push_back(def.node); // sorted by node
  }
  return out;
}

} // namespace impact::resolve
