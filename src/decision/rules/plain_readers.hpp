#pragma once
// Which candidates of a module-level name's search can give anything (ReferenceRules::referrers): a
// name searched many times (a change that reaches a module every other module imports, whose
// functions all share a few names) is indexed once, by the files its reads resolve to, so that a
// search looks only at the files whose reads may denote it and at those that read names in other ways.
#include "decision/lazy.hpp"
#include "decision/project_tables.hpp"
#include "impact/resolve/file_index.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace impact::decision::rules {

class PlainReaders {
public:
  PlainReaders(resolve::FileIndex& index, const ProjectFacts& facts, ProjectTables& tables)
      : m_index(index), m_facts(facts), m_tables(tables) {}

  // Counts one more search of each of the names (interned ids); whether every one of them has been
  // searched often enough to be worth indexing.
  bool hot(const std::vector<uint32_t>& ids);
  // The positions in `files` (the candidates of module `g`'s names, in their order; `by_string`, the
  // files that name `g` in a string, sorted) of the files a search of `names` (ids `ids`) in module
  // `g` must look at, ascending: every file whose reads of a name may denote a definition of `g` or
  // have an unknown target, and every file that reads names otherwise (computed names, namespaces,
  // module-naming strings, code run at import by computed names), or that the search looks at without
  // asking its name table. A file left out would give no reader at all.
  const std::vector<uint32_t>& positions(uint32_t g, const std::vector<uint32_t>& files, const std::vector<uint32_t>& by_string,
                                         const std::vector<uint32_t>& ids, const std::vector<std::string>& names);

private:
  // A name's reads over the project: the files where some read has an unknown target (sorted), and
  // (definition's file, file) for the others, sorted.
  struct NameReads {
    std::vector<uint32_t> unknown;
    std::vector<std::pair<uint32_t, uint32_t>> by_definition;
  };
  // A module's candidates: (file, position) sorted by file, and the positions of the files that read
  // names otherwise, ascending.
  struct Order {
    std::vector<std::pair<uint32_t, uint32_t>> by_file;
    std::vector<uint32_t> always;
  };

  const NameReads& reads_of(uint32_t id, const std::string& name);
  bool reads_otherwise(uint32_t h);

  // Searches of a name before it is indexed: a change that reaches few symbols indexes nothing.
  static constexpr uint32_t k_searches_before_index = 16;

  resolve::FileIndex& m_index;
  const ProjectFacts& m_facts;
  ProjectTables& m_tables;
  std::unordered_map<uint32_t, uint32_t> m_searches; // by name id
  LazyMap<uint32_t, NameReads> m_reads;                // by name id
  LazyMap<uint32_t, Order> m_orders;                   // by module
  std::vector<uint32_t> m_positions;                   // positions()' answer, reused
};

} // namespace impact::decision::rules
