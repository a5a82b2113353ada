// libFuzzer target: the Python lexer over arbitrary bytes. It must never read outside the source, and
// every token must lie inside it (an f-string's token comes after those of its replacement fields, so
// tokens are not sorted).
#include "python/lexer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  static std::vector<impact::python::Token> tokens; // reused, as the reference pass does
  impact::python::lex(source, tokens);
  for (const auto& t : tokens) {
    if (t.end < t.begin || t.end > size) std::abort();
  }
  return 0;
}
