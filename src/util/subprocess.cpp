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

int run_and_wait(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                 const std::vector<std::pair<std::string, std::string>>& extra_env) {
  if (argv.empty()) throw Error("nothing to run: an empty command");
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw Error("cannot start {}: {}", argv[0], std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) throw Error("cannot start {}: {}", argv[0], std::strerror(errno));
  if (pid == 0) {
    // The child reports an exec failure through the pipe (closed on a successful exec).
    ::close(pipe_fds[0]);
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
  // Let the child have Ctrl-C: it is the one running the tests.
  auto previous_int = std::signal(SIGINT, SIG_IGN);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::signal(SIGINT, previous_int);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    throw Error("cannot run {}: {}; check that it exists and is executable", argv[0], std::strerror(child_errno));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

} // namespace impact::util
