#pragma once
// Digests of byte strings, as lowercase hex: SHA-256, and git's blob id. The only user of OpenSSL.
#include <string>
#include <string_view>

namespace impact::util {

std::string sha256_hex(std::string_view data);

// Git's blob id of `data` (SHA-1 of "blob <size>\0" + data), as 40 hex digits.
std::string git_blob_id(std::string_view data);

} // namespace impact::util
