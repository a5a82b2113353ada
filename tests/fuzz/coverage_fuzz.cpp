// libFuzzer target: what coverage ingest reads out of coverage.py's rows itself (SQLite is not fuzzed
// here): numbits blobs and context labels. Input: a numbits blob up to the first NUL, then context
// labels, one a line. Lines decoded from numbits must come out ascending and in range; a context must
// map to a test of a known file or to no test.
#include "coverage/contexts.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string_view bits = input.substr(0, nul);
  std::vector<uint32_t> lines;
  impact::coverage::decode_numbits(bits, lines);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] >= bits.size() * 8 || (i > 0 && lines[i] <= lines[i - 1])) std::abort();
  }
  if (nul == std::string_view::npos) return 0;

  static const impact::coverage::ContextMapper mapper = [] {
    impact::coverage::ContextMapper m("");
    for (const char* path : {"tests/test_cart.py", "tests/__init__.py", "tests/inventory/test_stock.py",
                             "tests/inventory/__init__.py", "sub/test_x.py", "test_x.py", "src/shop/cart.py"}) {
      m.add_module_file(path);
    }
    return m;
  }();
  std::string_view labels = input.substr(nul + 1);
  for (size_t start = 0; start <= labels.size();) {
    size_t end = labels.find('\n', start);
    if (end == std::string_view::npos) end = labels.size();
    impact::coverage::MappedContext c = mapper.map(std::string(labels.substr(start, end - start)));
    if (c.kind == impact::coverage::ContextKind::outside && !c.node_id.empty()) std::abort();
    start = end + 1;
  }
  return 0;
}
