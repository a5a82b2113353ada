#pragma once
// A fast 64-bit checksum for cache files: detects corruption (not tampering) at memory speed.
#include <cstdint>
#include <string_view>

namespace impact::util {

uint64_t checksum64(std::string_view data);

} // namespace impact::util
