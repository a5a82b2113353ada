#include "util/subprocess.hpp"

#include "impact/error.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace impact::util {

namespace {

// Starts `argv` in `cwd`, its standard output on `stdout_fd` when that is >= 0. Throws impact::Error,
// naming the program, when it cannot be started (the child reports a failed exec through a pipe that a
// successful exec closes).
pid_t start(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
            const std::vector<std::pair<std::string, std::string>>& extra_env, int stdout_fd) {
  if (argv.empty()) throw Error("nothing to run: an empty command");
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw Error("cannot start {}: {}", argv[0], std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) throw Error("cannot start {}: {}", argv[0], std::strerror(errno));
  if (pid == 0) {
    ::close(pipe_fds[0]);
    if (stdout_fd >= 0) ::dup2(stdout_fd, STDOUT_FILENO);
    if (::chdir(cwd.c_str()) == 0) {
      for (const auto& [name, value] : extra_env) ::setenv(name.c_str(), value.c_str(), 1);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
    }
    int err = errno;
    ssize_t ignored = ::write(pipe_fds[1], &err, sizeof err);
    (void)ignored;
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  int child_errno = 0;
  ssize_t n = ::read(pipe_fds[0], &child_errno, sizeof child_errno);
  ::close(pipe_fds[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    throw Error("cannot run {}: {}; check that it exists and is executable", argv[0], std::strerror(child_errno));
  }
  return pid;
}

// The child's exit code, or 128 + signal when it was killed.
int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

} // namespace

int run_and_wait(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                 const std::vector<std::pair<std::string, std::string>>& extra_env) {
  pid_t pid = start(argv, cwd, extra_env, -1);
  // Let the child have Ctrl-C: it is the one running the tests.
  auto previous_int = std::signal(SIGINT, SIG_IGN);
  int code = wait_for(pid);
  std::signal(SIGINT, previous_int);
  return code;
}

Captured run_and_capture(const std::vector<std::string>& argv, const std::filesystem::path& cwd) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw Error("cannot start {}: {}", argv.empty() ? "" : argv[0], std::strerror(errno));
  pid_t pid = 0;
  try {
    pid = start(argv, cwd, {}, out[1]);
  } catch (...) {
    ::close(out[0]);
    ::close(out[1]);
    throw;
  }
  ::close(out[1]);
  Captured result;
  char buffer[4096];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    result.out.append(buffer, static_cast<size_t>(n));
  }
  ::close(out[0]);
  result.code = wait_for(pid);
  return result;
}

} // namespace impact::util
