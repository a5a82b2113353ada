#include "util/files.hpp"

#include "impact/error.hpp"
#include "util/temp_files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace impact::util {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
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

std::optional<std::string> read_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string content;
  struct stat st {};
  size_t capacity = ::fstat(fd, &st) == 0 && st.st_size > 0 ? static_cast<size_t>(st.st_size) : 0;
  content.resize(capacity + 1);
  size_t used = 0;
  for (;;) {
    if (used == content.size()) content.resize(content.size() * 2 + 4096);
    ssize_t n = ::read(fd, content.data() + used, content.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  ::close(fd);
  content.resize(used);
  return content;
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
