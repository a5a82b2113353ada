#pragma once
// Recorded tests that static collection cannot see because the test file makes them as it is
// collected (docs/coverage.md, "Trust", tests a file makes): `setattr(cls, "test_" + name, method)` in
// a loop over data files, a metaclass, `globals()[name] = ...`. pytest collected them when the index
// was built; while the file is byte for byte what the index hashed, collecting it again makes them
// again.
#include "impact/coverage.hpp"
#include "impact/python/project_facts.hpp"

#include <string>
#include <string_view>
#include <unordered_map>

namespace impact {

// Whether `test` (the part of a node id after `file::`, parameters stripped) has the form of a test
// made at collection: `name` or `Class::name`, neither part a dotted name or a path.
bool generated_test_form(std::string_view test);

class UnchangedTestFiles {
public:
  UnchangedTestFiles(const CoverageReads& reads, IndexReader& index, const ProjectFacts& facts)
      : m_reads(reads), m_index(index), m_facts(facts) {}

  // Whether the file now has the content the index hashed (every version of it the index holds has
  // the SHA-256 of its content now). False when the index holds no version of it or it cannot be read.
  bool unchanged(const std::string& file);

private:
  const CoverageReads& m_reads;
  IndexReader& m_index;
  const ProjectFacts& m_facts;
  std::unordered_map<std::string, bool> m_known;
};

} // namespace impact
