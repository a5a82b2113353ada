#pragma once
// Reading and writing whole files. Writes are atomic: a temporary file beside the target is written,
// flushed and renamed over it, so a concurrent reader sees the old content or the new, never half.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace impact::util {

// No file impact reads may be larger: a regular file past this is refused rather than read into memory.
constexpr size_t k_max_read_bytes = size_t{256} << 20;

// Why a read gave no content.
enum class ReadStatus {
  ok,
  missing,     // no such file (or a dangling symbolic link)
  not_regular, // a FIFO, socket, device or directory: opening one could block, reading one never end
  too_large,   // larger than the limit given
  unreadable,  // permissions, I/O errors
};

struct ReadResult {
  ReadStatus status = ReadStatus::missing;
  std::string content; // the whole file when status is ok
};

// Reads `path` only when it is a regular file of at most `max_bytes`. The file is opened non-blocking
// (a FIFO does not hang the open) and checked with fstat before any byte is read. With `follow_links`
// false, a symbolic link is not followed (status not_regular). Never throws.
ReadResult read_regular_file(const std::filesystem::path& path, size_t max_bytes = k_max_read_bytes,
                             bool follow_links = true);

// The whole content of `path`; std::nullopt when it does not exist, cannot be read, is not a regular
// file (after following symbolic links) or is larger than k_max_read_bytes.
std::optional<std::string> read_file(const std::filesystem::path& path);

// The content of a file impact must understand (a configuration file): std::nullopt when it does not
// exist; throws impact::Error naming it as `name` when it exists but is not a regular file, is too
// large or cannot be read (a FIFO named pyproject.toml must stop impact, not hang it).
std::optional<std::string> read_config_file(const std::filesystem::path& path, std::string_view name);

// At most the first `bytes` bytes of a regular file ("" for anything else).
std::string read_head(const std::filesystem::path& path, size_t bytes);

// The text of the symbolic link `path` (what git stores for it); std::nullopt when it is not a link.
std::optional<std::string> read_link(const std::filesystem::path& path);

// A line that says why `path` was not read, for a warning or an error ("is a FIFO, not a regular file").
std::string describe(ReadStatus status);

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
