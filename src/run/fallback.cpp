// The fallback command's side of a run_all in the run stage: where its program is, and the unlinked
// temporary file its payload (report/fallback_payload.cpp) is delivered from.
#include "impact/error.hpp"
#include "impact/run.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace impact {

std::optional<std::string> resolve_program(const std::string& program, const std::filesystem::path& root,
                                           const EnvLookup& env) {
  if (program.find('/') == std::string::npos) return find_on_path(program, env);
  std::filesystem::path path(program);
  if (path.is_relative()) path = root / path;
  return find_on_path(path.lexically_normal().string(), env); // a path: checked, not searched
}

int unlinked_temp_fd(const std::string& content) {
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string pattern = (dir / "impact-fallback-XXXXXX").string();
  int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0) {
    throw Error("cannot create a temporary file in {} for the fallback's payload: {}; set TMPDIR to a writable folder",
                dir.string(), std::strerror(errno));
  }
  // Unlinked before anything else can fail: whatever happens next, nothing is left behind.
  ::unlink(pattern.c_str());
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      throw Error("cannot write the fallback's payload to a temporary file in {}: {}; free some space or set TMPDIR",
                  dir.string(), std::strerror(saved));
    }
    done += static_cast<size_t>(n);
  }
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    int saved = errno;
    ::close(fd);
    throw Error("cannot rewind the fallback's payload file: {}", std::strerror(saved));
  }
  return fd;
}

} // namespace impact
