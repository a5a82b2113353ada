#include "util/temp_files.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <climits>

using impact::testing::TempDir;
using impact::util::remove_stale_temporaries;
using impact::util::temp_suffix;
using impact::util::temp_tag;

namespace {

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A process id that was just in use and is not any more.
pid_t dead_pid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

std::string host() {
  std::string tag = temp_tag(); // "-<host>-<pid>"
  return tag.substr(1, tag.rfind('-') - 1);
}

void age(const std::filesystem::path& path, std::chrono::seconds by) {
  std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() - by);
}

} // namespace

TEST_CASE("temporary names carry the host and the process", "[files]") {
  std::string tag = temp_tag();
  CHECK(tag == fmt::format("-{}-{}", host(), ::getpid()));
  CHECK(host().find('-') == std::string::npos); // so that the pid after it can be read back
  char name[HOST_NAME_MAX + 1] = {};
  ::gethostname(name, sizeof name - 1);
  // The host name, then '.' and 8 hex digits that mark the boot and the process-id namespace.
  CHECK(host().size() == std::string(name).size() + 9);
  CHECK(host()[std::string(name).size()] == '.');
  CHECK(temp_suffix().starts_with(".tmp" + tag + "-"));
  CHECK(temp_suffix() != temp_suffix());
}

TEST_CASE("stale temporaries go by host, process and age; everything else stays", "[files]") {
  TempDir dir;
  using std::chrono::hours;
  using std::chrono::minutes;
  std::string me = host();
  pid_t dead = dead_pid();
  auto make = [&](const std::string& name, std::chrono::seconds old) {
    auto p = dir.write(name, "x");
    age(p, old);
  };
  // Atomic writes' temporaries.
  make(fmt::format("facts-v18.bin.tmp-{}-{}-abc", me, dead), minutes(5));        // mine, process gone: removed
  make(fmt::format("facts-v18.bin.tmp-{}-{}-abd", me, dead), std::chrono::seconds(5)); // gone, but just written
  make(fmt::format("facts-v18.bin.tmp-{}-{}-abe", me, ::getpid()), hours(3));    // this process's own
  make(fmt::format("facts-v18.bin.tmp-{}-{}-abf", me, 1), minutes(5));           // process 1 is alive
  make(fmt::format("facts-v18.bin.tmp-otherhost-{}-ac0", dead), minutes(30));    // another host: too young
  make("coverage-index.sqlite.tmp-otherhost-7-ac1", hours(2));                    // another host, old: removed
  make("facts-v18.bin.tmp-1234-ac2", hours(2));                                   // an older impact's name, old: removed
  make("facts-v18.bin.tmp-1234-ac3", minutes(2));                                 // an older impact's name, young
  // Coverage data of `impact index` runs: another host's only after a day.
  make(fmt::format("coverage-run-{}-{}.sqlite", me, dead), minutes(5));            // removed
  make(fmt::format("coverage-run-{}-{}.sqlite.other.12.XyZ", me, dead), minutes(5)); // an xdist part: removed
  make("coverage-run-otherhost-12.sqlite", hours(5));                              // a long suite elsewhere
  make("coverage-run-otherhost-13.sqlite", hours(30));                             // removed
  make("coverage-run-4321.sqlite", hours(30));                                     // older name: removed
  // Not temporaries.
  make("facts-v18.bin", hours(100));
  make("coverage-index.sqlite", hours(100));
  make(".gitignore", hours(100));

  CHECK(remove_stale_temporaries(dir.path()) == 7);
  std::vector<std::string> kept{".gitignore",
                                 "coverage-index.sqlite",
                                 "coverage-run-otherhost-12.sqlite",
                                 "facts-v18.bin",
                                 fmt::format("facts-v18.bin.tmp-{}-{}-abd", me, dead),
                                 fmt::format("facts-v18.bin.tmp-{}-{}-abe", me, ::getpid()),
                                 fmt::format("facts-v18.bin.tmp-{}-{}-abf", me, 1),
                                 "facts-v18.bin.tmp-1234-ac3",
                                 fmt::format("facts-v18.bin.tmp-otherhost-{}-ac0", dead)};
  std::sort(kept.begin(), kept.end());
  CHECK(names_in(dir.path()) == kept);
  CHECK(remove_stale_temporaries(dir / "absent") == 0); // a missing folder is nothing to clean
}

TEST_CASE("the file system's clock orders a file written after it", "[files]") {
  TempDir dir;
  auto before = impact::util::file_system_now(dir.path());
  auto later = dir.write("later.py", "x = 1\n");
  CHECK(std::filesystem::last_write_time(later) >= before);
  CHECK(names_in(dir.path()) == std::vector<std::string>{"later.py"}); // the probe is gone
}
