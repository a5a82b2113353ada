#pragma once
// The facts cache's entries as the shared cache moves them between machines (docs/cache.md, "The
// shared cache"): each is a file's git blob id (20 raw bytes) and its encoded facts, valid only for
// the facts format that wrote it.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact {

// One entry: the blob id's 20 bytes, and the encoded facts.
using FactsEntry = std::pair<std::string_view, std::string_view>;

// The entries of the facts cache under a cache folder, viewing `storage`, which they must not outlive.
struct FactsEntries {
  std::shared_ptr<const void> storage;
  std::vector<FactsEntry> entries;
};

// The format of the encoded facts and the grammar that produced them ("facts-v28 tree-sitter-python-
// 0.23.6"): entries written under another format are never read.
std::string facts_exchange_format();

// The entries of the facts cache in `cache_dir`: none when it has no such file, or one that cannot be read.
FactsEntries read_cache_facts(const std::filesystem::path& cache_dir);

// Adds `entries` (of facts_exchange_format()) to the facts cache in `cache_dir` and saves it (temp
// file and rename) when any was new; returns how many were new. Throws impact::Error when the cache
// cannot be written.
size_t add_cache_facts(const std::filesystem::path& cache_dir, std::span<const FactsEntry> entries);

} // namespace impact
