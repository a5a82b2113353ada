#pragma once
// SHA-256 of a byte string, as 64 lowercase hex digits. The only user of OpenSSL.
#include <string>
#include <string_view>

namespace impact::util {

std::string sha256_hex(std::string_view data);

} // namespace impact::util
