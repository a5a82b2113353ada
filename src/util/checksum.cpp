#include "util/checksum.hpp"

#include <cstring>

namespace impact::util {

uint64_t checksum64(std::string_view data) {
  constexpr uint64_t k_mul = 0x9e3779b97f4a7c15ULL;
  uint64_t h = 0x243f6a8885a308d3ULL ^ data.size();
  size_t i = 0;
  for (; i + 8 <= data.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, data.data() + i, 8);
    h = (h ^ word) * k_mul;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  if (i < data.size()) std::memcpy(&tail, data.data() + i, data.size() - i);
  h = (h ^ tail) * k_mul;
  return h ^ (h >> 32);
}

} // namespace impact::util
