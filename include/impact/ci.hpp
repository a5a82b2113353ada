#pragma once
#ifdef IMPACT_FORBID_CHANGES // defined for the stages that may not use changes (src/CMakeLists.txt)
#error "this stage may not use changes (docs/architecture.md, allowed edges)"
#endif
// Continuous-integration environments: which CI is running, and the pull request's base when it says.
#include "impact/vocabulary.hpp"

#include <optional>
#include <string>

namespace impact {

// What the environment says about a CI run.
struct CiContext {
  std::string provider; // "github", "gitlab", "buildkite", "ci" (generic CI=true), or "" outside CI
  // The pull request's base: a branch name (resolve as a remote-tracking branch) or a commit id.
  std::optional<std::string> base_branch;
  std::optional<std::string> base_commit;
  std::string variable; // the environment variable the base came from, for messages
};

// Reads the CI context from the environment. `env` returns a variable's value, std::nullopt when unset.
CiContext detect_ci(const EnvLookup& env);

// The process environment as an EnvLookup (empty values count as unset).
EnvLookup process_env();

} // namespace impact
