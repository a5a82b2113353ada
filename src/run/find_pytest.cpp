#include "impact/decision.hpp"
#include "impact/run.hpp"

#include <unistd.h>

#include <sstream>

namespace impact {

namespace {

bool is_executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::optional<Command> python_m_pytest(const std::filesystem::path& env_dir, std::string source) {
  for (const char* interpreter : {"bin/python", "bin/python3"}) {
    if (is_executable(env_dir / interpreter)) {
      return Command{{(env_dir / interpreter).string(), "-m", "pytest"}, std::move(source)};
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> find_on_path(const std::string& program, const EnvLookup& env) {
  if (program.find('/') != std::string::npos) return is_executable(program) ? std::optional(program) : std::nullopt;
  std::istringstream path(env("PATH").value_or("/usr/local/bin:/usr/bin:/bin"));
  for (std::string dir; std::getline(path, dir, ':');) {
    if (dir.empty()) dir.assign(1, '.');
    auto candidate = std::filesystem::path(dir) / program;
    if (is_executable(candidate)) return candidate.string();
  }
  return std::nullopt;
}

std::optional<Command> find_pytest(const PytestLookup& lookup) {
  // The configured argv is the effective pytest-command setting (flag, then IMPACT_PYTEST, then the file).
  if (lookup.configured && !lookup.configured->empty()) return Command{*lookup.configured, lookup.configured_source};
  if (auto venv = lookup.env("VIRTUAL_ENV")) {
    if (auto cmd = python_m_pytest(*venv, "the active virtualenv (VIRTUAL_ENV=" + *venv + ")")) return cmd;
  }
  if (auto conda = lookup.env("CONDA_PREFIX")) {
    if (auto cmd = python_m_pytest(*conda, "the active conda environment (CONDA_PREFIX=" + *conda + ")")) return cmd;
  }
  for (const char* dir : {".venv", "venv"}) {
    auto env_dir = lookup.repo_root / dir;
    if (is_executable(env_dir / "bin/pytest")) {
      if (auto cmd = python_m_pytest(env_dir, std::string("the project's virtualenv ") + dir + "/")) return cmd;
    }
  }
  if (auto exe = find_on_path("pytest", lookup.env)) return Command{{*exe}, "pytest on PATH"};
  return std::nullopt;
}

std::vector<std::string> assemble_argv(const Command& pytest, const Decision& decision,
                                       const std::vector<std::string>& passthrough) {
  std::vector<std::string> argv;
  if (decision.outcome == Outcome::nothing) return argv;
  argv = pytest.argv;
  if (decision.outcome == Outcome::selected) {
    for (const auto& test : decision.selected) argv.push_back(test.node_id);
  }
  argv.insert(argv.end(), passthrough.begin(), passthrough.end());
  return argv;
}

} // namespace impact
