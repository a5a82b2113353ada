// `impact install-hook [--force]`: a plain git pre-commit hook that runs `impact --staged`, written
// where git looks for hooks (core.hooksPath, the common folder of a worktree), never over someone
// else's hook unless asked to.
#include "app/commands.hpp"
#include "app/project_set.hpp"
#include "impact/config.hpp"
#include "impact/changes.hpp"
#include "impact/ci.hpp"
#include "impact/error.hpp"
#include "impact/run.hpp"
#include "util/files.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>

namespace impact::app {

namespace {

// The standard output of `git <args>` run in `cwd`, without its final newline. Throws impact::Error
// when git cannot be started or fails.
std::string git_output(const std::filesystem::path& cwd, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  constexpr std::string_view fix = "install git, or write .git/hooks/pre-commit by hand (docs/cli.md)";
  util::Captured git;
  try {
    git = util::run_and_capture(argv, cwd);
  } catch (const Error& e) {
    throw Error("{}; {}", e.what(), fix);
  }
  if (git.code != 0) throw Error("{} failed in {}; {}", fmt::join(argv, " "), cwd.string(), fix);
  while (!git.out.empty() && git.out.back() == '\n') git.out.pop_back();
  return git.out;
}

// How the hook names impact: `impact` when that is what $PATH finds, else this binary's full path, so
// the hook runs the binary that installed it either way.
std::string impact_command() {
  std::error_code ec;
  auto self = std::filesystem::canonical("/proc/self/exe", ec);
  if (ec) return "impact";
  if (auto on_path = find_on_path("impact", process_env())) {
    if (std::filesystem::equivalent(*on_path, self, ec)) return "impact";
  }
  std::string quoted = "'";
  for (char c : self.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string hook_script() {
  return fmt::format("#!/bin/sh\n"
                     "# Written by `impact install-hook`: before each commit, run the tests that the staged\n"
                     "# change can break (the index against HEAD). A failing test stops the commit;\n"
                     "# `git commit --no-verify` skips the hook. Delete this file to uninstall it.\n"
                     "exec {} --staged\n",
                     impact_command());
}

// git runs a hook only when it is executable.
void make_executable(const std::filesystem::path& hook) {
  std::error_code ec;
  std::filesystem::permissions(hook, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                         std::filesystem::perms::others_exec,
                               std::filesystem::perm_options::add, ec);
  if (ec) throw Error("{}: cannot make it executable: {}; chmod +x it", hook.string(), ec.message());
}

// The first of pre-commit.impact-backup, pre-commit.impact-backup.1, .2, ... that does not exist: a
// backup is never overwritten, so every hook --force replaced can still be restored.
std::filesystem::path free_backup(const std::filesystem::path& hook) {
  std::error_code ec;
  for (unsigned n = 0;; ++n) {
    auto backup = hook;
    backup += n == 0 ? std::string(".impact-backup") : fmt::format(".impact-backup.{}", n);
    if (std::filesystem::symlink_status(backup, ec).type() == std::filesystem::file_type::not_found) return backup;
  }
}

// Moves `hook` to its first free backup name and returns that name. link(2) then unlink: the backup is
// created only where no file is, so no earlier backup is replaced, even by a concurrent install
// (rename(2) would silently overwrite one). Where the file system has no hard links, a rename to the
// name just checked to be free. Throws impact::Error when the hook cannot be moved.
std::filesystem::path move_aside(const std::filesystem::path& hook) {
  std::error_code ec;
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto backup = free_backup(hook);
    if (::link(hook.c_str(), backup.c_str()) == 0) {
      std::filesystem::remove(hook, ec);
    } else if (errno == EEXIST) {
      continue; // taken in the meantime: the next free name
    } else {
      std::filesystem::rename(hook, backup, ec);
    }
    if (ec) throw Error("{}: cannot move the old hook to {}: {}; move it yourself", hook.string(), backup.string(),
                        ec.message());
    return backup;
  }
  throw Error("{}: cannot find a free backup name beside it; move the old hook aside yourself", hook.string());
}

// git runs the hook at the top of the work tree: in a monorepo, that is every project's part of the
// staged change, each project its own pytest (docs/monorepo.md), whatever folder installed it.
void say_if_monorepo(Repository& repo, const cli::Options& options) {
  try {
    EnvLookup env = process_env();
    ImpactConfig config = load_impact_config(repo.root(), env, options.config);
    cli::Options at_root = options;
    at_root.directory = repo.root();
    at_root.projects.clear();
    if (std::optional<ProjectSet> set = find_project_set(repo.root(), at_root, config)) {
      fmt::print(stderr, "impact: this is a monorepo of {} project(s): the hook runs at the repository's root, each "
                         "project's part of the staged change as its own pytest\n",
                 set->all.size());
    }
  } catch (const Error&) {
    // A configuration the hook's runs will name when they read it: the hook is written all the same.
  }
}

} // namespace

int run_install_hook(const cli::Options& options) {
  auto repo = open_git_repository(options.directory, process_env());
  std::filesystem::path hooks = git_output(repo->root(), {"rev-parse", "--git-path", "hooks"});
  if (hooks.is_relative()) hooks = repo->root() / hooks;
  std::filesystem::path hook = (hooks / "pre-commit").lexically_normal();
  std::string script = hook_script();

  std::error_code ec;
  bool exists = std::filesystem::symlink_status(hook, ec).type() != std::filesystem::file_type::not_found;
  if (exists) {
    auto current = util::read_file(hook);
    if (current && *current == script) {
      if (::access(hook.c_str(), X_OK) == 0) {
        fmt::print(stderr, "impact: {} is already impact's pre-commit hook; nothing to do\n", hook.string());
        return 0;
      }
      make_executable(hook);
      fmt::print(stderr, "impact: {} is impact's pre-commit hook; made it executable again\n", hook.string());
      return 0;
    }
    if (!options.force) {
      throw Error("{}: a different pre-commit hook is already there; pass --force to replace it (it is kept as "
                  "{}), or call `impact --staged` from it yourself",
                  hook.string(), free_backup(hook).filename().string());
    }
    auto backup = move_aside(hook);
    fmt::print(stderr, "impact: moved the old hook to {}\n", backup.string());
  }
  util::write_file_atomic(hook, script);
  make_executable(hook);
  fmt::print(stderr, "impact: installed {}: `git commit` now runs the tests the staged change can break\n",
             hook.string());
  say_if_monorepo(*repo, options);
  return 0;
}

} // namespace impact::app
