#pragma once
// The encoded form of FileFacts: a flags word, then length-prefixed sections (imports, uncertain
// imports, everything else) so that a reader can take the imports without decoding the symbols.
#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"

#include <string>
#include <string_view>

namespace impact::python {

std::string encode(const FileFacts& facts);

// Each decoder returns false on truncated or corrupt input (leaving its output partial).
bool decode_header(std::string_view blob, FactsHeader& header);
bool decode_imports(std::string_view blob, ImportScratch& scratch);
bool decode_full(std::string_view blob, FileFacts& facts);
bool decode_view(std::string_view blob, FactsView& view);
bool decode_paths(std::string_view blob, PathStrings& paths);
// Whether the blob's name table holds `name` (see ProjectFacts::mentions).
bool mentions(std::string_view blob, std::string_view name);
// The name table of a blob (sorted 4-byte hashes), to search with mentions_in.
std::string_view name_table(std::string_view blob);
bool mentions_in(std::string_view table, std::string_view name);
// The same for a name already hashed (name_hash), for a search that asks many tables about one name.
bool mentions_hash_in(std::string_view table, uint32_t hash);
uint32_t name_hash(std::string_view name);

} // namespace impact::python
