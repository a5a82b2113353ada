#pragma once
// Reading and writing whole files. Writes are atomic: a temporary file beside the target is written,
// flushed and renamed over it, so a concurrent reader sees the old content or the new, never half.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace impact::util {

// The whole content of `path`; std::nullopt when it does not exist or cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path);

// A file's content, mapped read-only into memory without copying it (read into memory where the file
// system cannot map it). The files impact maps are only ever replaced by rename (write_file_atomic),
// never rewritten in place, so the mapping stays valid.
class MappedFile {
public:
  // nullptr when `path` does not exist or cannot be read (an empty file gives an empty view).
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view view() const { return m_mapped != nullptr ? std::string_view(m_mapped, m_size) : m_copy; }

private:
  MappedFile() = default;
  const char* m_mapped = nullptr;
  size_t m_size = 0;
  std::string m_copy; // when the file could not be mapped
};

// Writes `content` to `path` atomically, creating parent directories. Throws impact::Error on failure,
// naming the path; nothing is left half-written.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// `path` relative to `base` with '/' separators, or std::nullopt when it is not below `base`.
std::optional<std::string> relative_to(const std::filesystem::path& path, const std::filesystem::path& base);

} // namespace impact::util
