#include "impact/error.hpp"
#include "impact/run.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace impact {

void exec_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                  const std::vector<std::pair<std::string, std::string>>& extra_env, int stdin_fd,
                  const std::string& source) {
  if (argv.empty()) throw Error("nothing to run: the command from {} is empty", source);
  std::string program = argv[0];
  // A relative path with a separator is relative to the repository root, never to the caller's folder.
  if (program.find('/') != std::string::npos && !std::filesystem::path(program).is_absolute()) {
    program = (cwd / program).string();
  }
  if (::chdir(cwd.c_str()) != 0) {
    throw Error("cannot change to {}: {}", cwd.string(), std::strerror(errno));
  }
  for (const auto& [name, value] : extra_env) ::setenv(name.c_str(), value.c_str(), 1);
  if (stdin_fd >= 0 && stdin_fd != STDIN_FILENO) {
    if (::dup2(stdin_fd, STDIN_FILENO) < 0) throw Error("cannot redirect standard input: {}", std::strerror(errno));
    ::close(stdin_fd);
  }
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  args.push_back(program.data());
  for (size_t i = 1; i < argv.size(); ++i) args.push_back(const_cast<char*>(argv[i].c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  ::execvp(args[0], args.data());
  int saved = errno;
  throw Error("cannot run {} (from {}): {}; check that it exists and is executable", program, source,
              std::strerror(saved));
}

} // namespace impact
