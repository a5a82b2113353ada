// libFuzzer target: the facts cache read back from disk. The input is used twice: as one entry's
// encoded facts, given to every decoder and to ProjectFacts; and as a cache file, once as it is (a
// checksum mismatch almost always: the file must be dropped) and once with a valid checksum appended
// (so that the fuzzer reaches the entry table). Nothing may crash; a file whose checksum does not
// match must load nothing; an entry that does not decode whole must read as a parse error (widening).
// Past a valid checksum, well-formed but wrong facts cannot be told from true ones by any check: the
// checksum is what stands between arbitrary bytes and trust.
#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"
#include "python/facts_cache.hpp"
#include "python/facts_codec.hpp"
#include "util/checksum.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace {

void read_blob(std::string_view blob) {
  impact::ProjectFacts project;
  impact::SourceFile file;
  file.path = impact::RepoPath("a.py");
  project.add(file, blob);
  impact::FactsHeader header = project.header(0);
  impact::ImportScratch scratch;
  project.imports(0, scratch);
  impact::FactsView view;
  project.view(0, view);
  for (const auto& s : view.symbols) {
    for (auto r : {s.decorators, s.params, s.bases, s.usefixtures, s.refs}) {
      if (r.begin > r.end || r.end > view.strings.size()) std::abort();
    }
    if (s.parent < -1 || s.parent >= static_cast<int32_t>(view.symbols.size())) std::abort();
  }
  for (const auto& i : scratch.imports) {
    if (i.names_end > scratch.names.size() || i.aliases_end > scratch.aliases.size()) std::abort();
  }
  impact::FileFacts full = project.full(0);
  impact::FileFacts decoded;
  if (!impact::python::decode_full(blob, decoded) && !full.parse_error) std::abort();
  (void)header;
  project.mentions(0, "name");
  project.files_mentioning("name");
}

std::filesystem::path cache_file() {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("impact-facts-cache-fuzz-" + std::to_string(getpid()) + ".bin");
  return file;
}

// Loads `bytes` as a cache file; `summed`: whether its last 8 bytes are the checksum of the rest.
void read_cache(const std::string& bytes, bool summed) {
  {
    std::ofstream out(cache_file(), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  impact::python::FactsCache cache(cache_file());
  if (!summed && cache.storage() != nullptr) std::abort();
  // Every entry the cache kept: looked up by a key it may hold (all-zero, the key of a malformed id).
  if (auto blob = cache.find(std::string(40, '0'))) read_blob(*blob);
  cache.find("0123456789abcdef0123456789abcdef01234567");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  read_blob(bytes);
  bool summed = false;
  if (bytes.size() >= 8) {
    uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    summed = stored == impact::util::checksum64(std::string_view(bytes).substr(0, bytes.size() - 8));
  }
  read_cache(bytes, summed);
  uint64_t sum = impact::util::checksum64(bytes);
  bytes.append(reinterpret_cast<const char*>(&sum), 8);
  read_cache(bytes, true);
  return 0;
}
