#include "util/temp_files.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <fstream>
#include <optional>
#include <random>
#include <string_view>

namespace impact::util {

namespace {

// The boot and the process-id namespace this process runs in, as 8 hex digits. Containers on one host
// may share its host name (--network=host) and a cache volume while the same process id names
// different processes in each: only a writer of the same boot and namespace can be proved dead.
std::string namespace_mark() {
  std::string boot;
  if (std::ifstream in("/proc/sys/kernel/random/boot_id"); in) std::getline(in, boot);
  struct stat st {};
  uint64_t ns = ::stat("/proc/self/ns/pid", &st) == 0 ? static_cast<uint64_t>(st.st_ino) : 0;
  uint64_t h = 1469598103934665603ULL; // FNV-1a
  for (char c : boot) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ULL;
  h = (h ^ ns) * 1099511628211ULL;
  return fmt::format("{:08x}", static_cast<uint32_t>(h ^ (h >> 32)));
}

// "<host name>.<namespace mark>", with every byte that is not a letter, a digit or '.' replaced.
std::string host_name() {
  char buffer[HOST_NAME_MAX + 1] = {};
  std::string out = ::gethostname(buffer, sizeof buffer - 1) != 0 || buffer[0] == '\0' ? "unknown" : buffer;
  for (char& c : out) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
    if (!plain) c = '_';
  }
  return out + "." + namespace_mark();
}

const std::string& this_host() {
  static const std::string host = host_name();
  return host;
}

// Who wrote a temporary file, read from "<host>-<pid>" at the front of `rest`; a name of an older
// impact ("<pid>-<hex>", no host) has no host, and goes by age.
struct Writer {
  std::string host;
  pid_t pid = 0;
};

std::optional<Writer> writer_of(std::string_view rest) {
  // The host name holds no '-' (temp_tag() replaced them), so it ends at the first one.
  size_t dash = rest.find('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  Writer w;
  w.host = std::string(rest.substr(0, dash));
  std::string_view pid = rest.substr(dash + 1);
  pid = pid.substr(0, pid.find_first_not_of("0123456789"));
  if (pid.empty() || pid.size() > 9) return std::nullopt;
  for (char c : pid) w.pid = w.pid * 10 + (c - '0');
  for (char c : w.host) {
    if (c < '0' || c > '9') return w;
  }
  return std::nullopt; // all digits: an older impact's "<pid>-<hex>"
}

bool process_gone(pid_t pid) { return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH; }

} // namespace

std::string temp_tag() { return fmt::format("-{}-{}", this_host(), ::getpid()); }

std::string temp_suffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}() ^ static_cast<uint64_t>(::getpid())};
  return fmt::format(".tmp{}-{:x}", temp_tag(), rng());
}

size_t remove_stale_temporaries(const std::filesystem::path& dir, const StaleAges& ages) {
  size_t removed = 0;
  std::error_code ec;
  auto now = std::filesystem::file_time_type::clock::now();
  std::filesystem::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::string_view rest;
    std::chrono::seconds max_age{};
    if (size_t at = name.find(".tmp-"); at != std::string::npos) {
      rest = std::string_view(name).substr(at + 5);
      max_age = ages.write;
    } else if (name.starts_with("coverage-run-")) {
      rest = std::string_view(name).substr(13);
      max_age = ages.run;
    } else {
      continue;
    }
    std::error_code stat_error;
    if (!it->is_regular_file(stat_error)) continue;
    auto written = it->last_write_time(stat_error);
    if (stat_error) continue;
    auto age = now - written;
    auto writer = writer_of(rest);
    bool mine = writer && writer->host == this_host();
    if (mine && writer->pid == ::getpid()) continue; // this process's own, in use
    bool stale = age > max_age || (mine && age > ages.dead && process_gone(writer->pid));
    if (stale && std::filesystem::remove(it->path(), stat_error)) ++removed;
  }
  return removed;
}

std::filesystem::file_time_type file_system_now(const std::filesystem::path& dir) {
  std::filesystem::path probe = dir / ("clock" + temp_suffix());
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return std::filesystem::file_time_type::clock::now();
  ::close(fd);
  std::error_code ec;
  auto stamp = std::filesystem::last_write_time(probe, ec);
  std::filesystem::remove(probe, ec);
  return ec ? std::filesystem::file_time_type::clock::now() : stamp;
}

} // namespace impact::util
