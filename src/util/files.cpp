#include "util/files.hpp"

#include "impact/error.hpp"
#include "util/temp_files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <random>

namespace impact::util {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK); // a FIFO must not block the open
  if (fd < 0) return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return nullptr;
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  auto size = static_cast<size_t>(st.st_size);
  void* mapped = size > 0 ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
  ::close(fd); // a mapping keeps the file
  if (mapped != MAP_FAILED) {
    file->m_mapped = static_cast<const char*>(mapped);
    file->m_size = size;
  } else if (size > 0) {
    auto content = read_file(path);
    if (!content) return nullptr;
    file->m_copy = std::move(*content);
  }
  return file;
}

MappedFile::~MappedFile() {
  if (m_mapped != nullptr) ::munmap(const_cast<char*>(m_mapped), m_size);
}

namespace {

// Opens `path` for reading without blocking: O_NONBLOCK makes opening a FIFO return at once (and is
// harmless on a regular file); the caller checks the type with fstat before reading.
int open_for_reading(const std::filesystem::path& path, bool follow_links) {
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow_links ? 0 : O_NOFOLLOW);
  return ::open(path.c_str(), flags);
}

ReadStatus failed_open(int error) {
  switch (error) {
  case ENOENT:
  case ENOTDIR: return ReadStatus::missing;
  case ELOOP: return ReadStatus::not_regular; // O_NOFOLLOW on a link, or a loop of links
  case ENXIO: return ReadStatus::not_regular; // a socket, or a device with nothing behind it
  default: return ReadStatus::unreadable;
  }
}

// Reads at most `max_bytes` from `fd`; too_large when there is more (a file growing while read).
ReadStatus read_all(int fd, size_t expected, size_t max_bytes, std::string& content) {
  content.resize(std::min(expected, max_bytes) + 1);
  size_t used = 0;
  for (;;) {
    if (used == content.size()) {
      if (used > max_bytes) return ReadStatus::too_large;
      content.resize(std::min(content.size() * 2 + 4096, max_bytes + 1));
    }
    ssize_t n = ::read(fd, content.data() + used, content.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ReadStatus::unreadable;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  if (used > max_bytes) return ReadStatus::too_large;
  content.resize(used);
  return ReadStatus::ok;
}

} // namespace

ReadResult read_regular_file(const std::filesystem::path& path, size_t max_bytes, bool follow_links) {
  ReadResult out;
  int fd = open_for_reading(path, follow_links);
  if (fd < 0) {
    out.status = failed_open(errno);
    return out;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) out.status = ReadStatus::unreadable;
  else if (!S_ISREG(st.st_mode)) out.status = ReadStatus::not_regular;
  else if (static_cast<uint64_t>(st.st_size) > max_bytes) out.status = ReadStatus::too_large;
  else out.status = read_all(fd, static_cast<size_t>(st.st_size), max_bytes, out.content);
  ::close(fd);
  if (out.status != ReadStatus::ok) out.content.clear();
  return out;
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
  auto result = read_regular_file(path);
  if (result.status != ReadStatus::ok) return std::nullopt;
  return std::move(result.content);
}

std::optional<std::string> read_config_file(const std::filesystem::path& path, std::string_view name) {
  auto result = read_regular_file(path);
  if (result.status == ReadStatus::missing) return std::nullopt;
  if (result.status != ReadStatus::ok) {
    throw Error("{} {}; impact reads only regular files, replace it with one", name, describe(result.status));
  }
  return std::move(result.content);
}

std::string read_head(const std::filesystem::path& path, size_t bytes) {
  int fd = open_for_reading(path, true);
  if (fd < 0) return {};
  std::string head;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    head.resize(bytes);
    size_t used = 0;
    while (used < bytes) {
      ssize_t n = ::read(fd, head.data() + used, bytes - used);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      used += static_cast<size_t>(n);
    }
    head.resize(used);
  }
  ::close(fd);
  return head;
}

std::optional<std::string> read_link(const std::filesystem::path& path) {
  std::string target(256, '\0');
  for (;;) {
    ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0) return std::nullopt;
    if (static_cast<size_t>(n) < target.size()) {
      target.resize(static_cast<size_t>(n));
      return target;
    }
    target.resize(target.size() * 2);
  }
}

std::string describe(ReadStatus status) {
  switch (status) {
  case ReadStatus::ok: return "was read";
  case ReadStatus::missing: return "does not exist";
  case ReadStatus::not_regular: return "is not a regular file (a FIFO, socket, device or folder)";
  case ReadStatus::too_large: return fmt::format("is larger than {} MB", k_max_read_bytes >> 20);
  case ReadStatus::unreadable: return "cannot be read";
  }
  return "cannot be read";
}

namespace {

void write_all(int fd, std::string_view content, const std::filesystem::path& path) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("cannot write {}: {}", path.string(), std::strerror(errno));
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
}

} // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw Error("cannot create directory {}: {}", path.parent_path().string(), ec.message());
  std::filesystem::path temp = path;
  temp += temp_suffix();
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("cannot create {}: {}", temp.string(), std::strerror(errno));
  try {
    write_all(fd, content, temp);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0 || ::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    throw Error("cannot write {}: {}", path.string(), std::strerror(saved));
  }
}

std::optional<std::string> relative_to(const std::filesystem::path& path, const std::filesystem::path& base) {
  auto rel = path.lexically_normal().lexically_relative(base.lexically_normal());
  if (rel.empty()) return std::nullopt;
  std::string s = rel.generic_string();
  if (s == ".") return std::string();
  if (s.starts_with("..")) return std::nullopt;
  return s;
}

} // namespace impact::util
