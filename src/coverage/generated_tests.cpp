// Recorded tests made at collection (generated_tests.hpp).
#include "coverage/generated_tests.hpp"

#include "impact/error.hpp"
#include "util/sha256.hpp"

namespace impact {

namespace {

// A name setattr() or a metaclass gave a test: any text but a doctest's dotted name or a path
// (`test_tab-marked_definition_001` is a name pytest collects).
bool test_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == '.' || c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

} // namespace

bool generated_test_form(std::string_view test) {
  test = test.substr(0, test.find('['));
  auto sep = test.find("::");
  if (sep == std::string_view::npos) return test_name(test);
  std::string_view cls = test.substr(0, sep), name = test.substr(sep + 2);
  return name.find("::") == std::string_view::npos && test_name(cls) && test_name(name);
}

bool UnchangedTestFiles::unchanged(const std::string& file) {
  auto [it, inserted] = m_known.try_emplace(file, false);
  if (!inserted) return it->second;
  size_t at = m_facts.find(file);
  if (at == ProjectFacts::npos) return false;
  std::vector<MeasuredFile> versions = m_index.versions(RepoPath(file));
  if (versions.empty()) return false;
  FileRead read = m_reads.current(m_facts.files[at]);
  if (read.is_error()) throw Error("{}", read.problem);
  if (!read.has_content()) return false;
  std::string now = util::sha256_hex(read.text);
  for (const auto& v : versions) {
    if (v.sha256 != now) return false;
  }
  it->second = true;
  return true;
}

} // namespace impact
