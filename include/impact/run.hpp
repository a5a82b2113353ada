#pragma once
#ifdef IMPACT_FORBID_RUN // defined for the stages that may not use run (src/CMakeLists.txt)
#error "this stage may not use run (docs/architecture.md, allowed edges)"
#endif
// Stage 6, run: finding pytest the way the user would, assembling the argv, and handing the process
// over to it (exec), so that its exit code, signals and colours are its own.
#include "impact/vocabulary.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace impact {

struct Decision;

// A program to exec and where it came from ("IMPACT_PYTEST", "pytest-command in pyproject.toml", ...).
struct Command {
  std::vector<std::string> argv;
  std::string source;
};

// What find_pytest() looks at.
struct PytestLookup {
  EnvLookup env;
  std::optional<std::vector<std::string>> configured; // the pytest-command setting, from any layer
  std::string configured_source;                      // "pytest-command in pyproject.toml", "IMPACT_PYTEST", ...
  std::filesystem::path repo_root;
};

// pytest, in this order: the configured argv (the effective pytest-command setting: --pytest-command,
// else $IMPACT_PYTEST, else [tool.impact] pytest-command, as load_impact_config resolves it), the
// active virtualenv's or conda environment's python -m pytest, a .venv/ or venv/ at the repository root
// that has pytest, then `pytest` on PATH. std::nullopt when none is found.
std::optional<Command> find_pytest(const PytestLookup& lookup);

// The full path of `program` on $PATH, or std::nullopt.
std::optional<std::string> find_on_path(const std::string& program, const EnvLookup& env);

// The argv to exec for a decision: pytest + node ids + passthrough arguments for `selected`, pytest +
// passthrough for `run_all`, empty for `nothing`.
std::vector<std::string> assemble_argv(const Command& pytest, const Decision& decision,
                                       const std::vector<std::string>& passthrough);

// Where an argv's program is: an absolute path as itself, a path with a `/` relative to `root` (never
// to the caller's folder), a bare name on $PATH. std::nullopt when it is not an executable file.
std::optional<std::string> resolve_program(const std::string& program, const std::filesystem::path& root,
                                           const EnvLookup& env);

// A descriptor open for reading at the start of a temporary file that holds `content` and is already
// unlinked: a reader that never reads it neither blocks (as on a full pipe) nor leaves a file behind.
// Throws impact::Error when no temporary file can be made.
int unlinked_temp_fd(const std::string& content);

// Replaces this process with `argv` run in `cwd`, with `extra_env` added to the environment and, when
// `stdin_fd` >= 0, that descriptor as standard input. Returns only on failure: throws impact::Error
// naming the program and `source`.
[[noreturn]] void exec_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                               const std::vector<std::pair<std::string, std::string>>& extra_env, int stdin_fd,
                               const std::string& source);

} // namespace impact
