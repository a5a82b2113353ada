// run_pool: a fixed number of child processes at once, each writing into an unlinked temporary file
// (no pipe to drain, so a chatty child never blocks), reaped with waitpid in the order they end.
#include "util/process_pool.hpp"

#include "impact/error.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>

namespace impact::util {

namespace {

volatile sig_atomic_t g_interrupted = 0;

void on_interrupt(int) { g_interrupted = 1; }

// An unlinked temporary file open for reading and writing.
int output_file() {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/impact-out-XXXXXX";
  int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0) throw Error("cannot make a temporary file for a project's output: {}; set TMPDIR to a writable folder", std::strerror(errno));
  ::unlink(pattern.c_str());
  return fd;
}

std::string read_all(int fd) {
  std::string out;
  ::lseek(fd, 0, SEEK_SET);
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

// `text` in a temporary file already unlinked, read from its start. Throws impact::Error.
int input_file(const std::string& text) {
  std::string pattern = (std::filesystem::temp_directory_path() / "impact-input-XXXXXX").string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw Error("cannot make a temporary file in {}: {}", pattern, std::strerror(errno));
  ::unlink(pattern.c_str());
  for (size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw Error("cannot write a temporary file in {}: {}", pattern, std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

// Starts `job` with stdout and stderr on `fd`; a failed exec exits 127 after saying why on `fd`.
pid_t start(const PoolJob& job, int fd) {
  int in_fd = job.input.empty() ? -1 : input_file(job.input);
  pid_t pid = ::fork();
  if (pid < 0) throw Error("cannot start {}: {}", job.argv.empty() ? "" : job.argv[0], std::strerror(errno));
  if (pid != 0) {
    if (in_fd >= 0) ::close(in_fd);
    return pid;
  }
  ::signal(SIGINT, SIG_DFL);
  ::dup2(fd, STDOUT_FILENO);
  ::dup2(fd, STDERR_FILENO);
  // Many children cannot share the terminal's input: none reads it (pdb, -s need one project alone).
  int null_fd = in_fd >= 0 ? in_fd : ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  if (null_fd > STDERR_FILENO) ::close(null_fd); // the child keeps its standard input only
  for (const auto& [name, value] : job.env) ::setenv(name.c_str(), value.c_str(), 1);
  if (::chdir(job.cwd.c_str()) == 0 && !job.argv.empty()) {
    std::vector<char*> args;
    for (const auto& a : job.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
  }
  std::string why = "impact: cannot run " + (job.argv.empty() ? std::string("(nothing)") : job.argv[0]) + " in " +
                    job.cwd.string() + ": " + std::strerror(errno) + "\n";
  ssize_t ignored = ::write(STDERR_FILENO, why.data(), why.size());
  (void)ignored;
  ::_exit(127);
}

struct Running {
  size_t index;
  int fd;
  std::chrono::steady_clock::time_point started;
  bool term_sent = false, kill_sent = false;
  std::chrono::steady_clock::time_point term_at;
};

int code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

void run_pool(const std::vector<PoolJob>& jobs, unsigned width, const std::function<void(const PoolResult&)>& done) {
  width = std::max(1u, width);
  g_interrupted = 0;
  struct sigaction action {}, previous{};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous);
  std::map<pid_t, Running> running;
  size_t next = 0;
  bool passed_on = false;
  auto restore = [&] { ::sigaction(SIGINT, &previous, nullptr); };
  try {
    while (next < jobs.size() || !running.empty()) {
      while (!g_interrupted && next < jobs.size() && running.size() < width) {
        int fd = output_file();
        pid_t pid = start(jobs[next], fd);
        running.emplace(pid, Running{next, fd, std::chrono::steady_clock::now(), false, false, {}});
        ++next;
      }
      if (g_interrupted && !passed_on) { // a Ctrl-C sent to impact alone reaches the jobs too
        for (const auto& [pid, r] : running) ::kill(pid, SIGINT);
        passed_on = true;
      }
      if (running.empty()) break;
      int status = 0;
      pid_t pid = ::waitpid(-1, &status, WNOHANG);
      if (pid == 0 || (pid < 0 && errno == EINTR)) {
        // Nothing ended yet: stop the jobs past their time, then look again in a moment.
        for (auto& [p, r] : running) {
          const PoolJob& job = jobs[r.index];
          if (job.timeout_s <= 0) continue;
          double age = seconds_since(r.started);
          if (!r.term_sent && age > job.timeout_s) {
            ::kill(p, SIGTERM);
            r.term_sent = true;
            r.term_at = std::chrono::steady_clock::now();
          } else if (r.term_sent && !r.kill_sent && seconds_since(r.term_at) > 5) {
            ::kill(p, SIGKILL);
            r.kill_sent = true;
          }
        }
        ::usleep(20000);
        continue;
      }
      if (pid < 0) throw Error("waiting for the projects' pytest: {}", std::strerror(errno));
      auto it = running.find(pid);
      if (it == running.end()) continue; // not one of ours
      Running r = it->second;
      running.erase(it);
      PoolResult result;
      result.index = r.index;
      result.code = code_of(status);
      result.timed_out = r.term_sent && result.code != 0; // one that ended well as it was stopped ended well
      result.interrupted = g_interrupted != 0;
      result.output = read_all(r.fd);
      result.seconds = seconds_since(r.started);
      ::close(r.fd);
      done(result);
    }
    for (; next < jobs.size(); ++next) { // not started: Ctrl-C came first
      PoolResult result;
      result.index = next;
      result.code = 130;
      result.interrupted = true;
      done(result);
    }
  } catch (...) {
    for (const auto& [pid, r] : running) {
      ::kill(pid, SIGTERM);
      ::close(r.fd);
    }
    restore();
    throw;
  }
  restore();
}

} // namespace impact::util
