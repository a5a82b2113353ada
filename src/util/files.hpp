#pragma once
// Reading and writing whole files. Writes are atomic: a temporary file beside the target is written,
// flushed and renamed over it, so a concurrent reader sees the old content or the new, never half.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace impact::util {

// The whole content of `path`; std::nullopt when it does not exist or cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path);

// Writes `content` to `path` atomically, creating parent directories. Throws impact::Error on failure,
// naming the path; nothing is left half-written.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// `path` relative to `base` with '/' separators, or std::nullopt when it is not below `base`.
std::optional<std::string> relative_to(const std::filesystem::path& path, const std::filesystem::path& base);

} // namespace impact::util
