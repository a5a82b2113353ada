// libFuzzer target: the replay reader, the decision file given to `impact --impact FILE`. Any input
// must be read whole or refused with impact::Error (one line, exit 2); any other exception or a crash
// is a bug.
#include "impact/error.hpp"
#include "impact/report.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    impact::parse_report(text, "decision.json");
  } catch (const impact::Error&) {
  }
  return 0;
}
