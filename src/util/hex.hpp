#pragma once
// Bytes <-> lowercase hex digits: digests are printed as hex and stored as bytes.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace impact::util {

// Two lowercase hex digits per byte of `bytes`.
std::string to_hex(std::string_view bytes);

// Writes the bytes that `hex` spells (digits in either case) into `out`; false, leaving `out`
// unspecified, unless `hex` is exactly 2 * out.size() hex digits.
bool from_hex(std::string_view hex, std::span<char> out);
// The bytes that `hex` spells, or std::nullopt when it is not an even number of hex digits.
std::optional<std::string> from_hex(std::string_view hex);

} // namespace impact::util
