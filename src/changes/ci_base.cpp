#include "impact/ci.hpp"

#include <cstdlib>

namespace impact {

namespace {

std::optional<std::string> nonempty(const EnvLookup& env, const char* name) {
  auto value = env(name);
  if (value && !value->empty()) return value;
  return std::nullopt;
}

bool truthy(const EnvLookup& env, const char* name) {
  auto value = nonempty(env, name);
  return value && *value != "false" && *value != "0";
}

} // namespace

CiContext detect_ci(const EnvLookup& env) {
  CiContext ci;
  if (truthy(env, "GITHUB_ACTIONS")) {
    ci.provider = "github";
    if (auto ref = nonempty(env, "GITHUB_BASE_REF")) {
      ci.base_branch = ref;
      ci.variable = "GITHUB_BASE_REF";
    }
  } else if (truthy(env, "GITLAB_CI") || nonempty(env, "CI_MERGE_REQUEST_IID")) {
    ci.provider = "gitlab";
    if (auto sha = nonempty(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA")) {
      ci.base_commit = sha;
      ci.variable = "CI_MERGE_REQUEST_DIFF_BASE_SHA";
    } else if (auto branch = nonempty(env, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME")) {
      ci.base_branch = branch;
      ci.variable = "CI_MERGE_REQUEST_TARGET_BRANCH_NAME";
    }
  } else if (truthy(env, "BUILDKITE")) {
    ci.provider = "buildkite";
    auto pr = nonempty(env, "BUILDKITE_PULL_REQUEST");
    if (auto branch = nonempty(env, "BUILDKITE_PULL_REQUEST_BASE_BRANCH"); branch && pr && *pr != "false") {
      ci.base_branch = branch;
      ci.variable = "BUILDKITE_PULL_REQUEST_BASE_BRANCH";
    }
  } else if (truthy(env, "CI")) {
    ci.provider = "ci";
  }
  // A variable set outside its own CI still names a base (a developer reproducing a CI run).
  if (!ci.base_branch && !ci.base_commit) {
    if (auto ref = nonempty(env, "GITHUB_BASE_REF")) {
      ci.base_branch = ref;
      ci.variable = "GITHUB_BASE_REF";
    } else if (auto sha = nonempty(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA")) {
      ci.base_commit = sha;
      ci.variable = "CI_MERGE_REQUEST_DIFF_BASE_SHA";
    } else if (auto branch = nonempty(env, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME")) {
      ci.base_branch = branch;
      ci.variable = "CI_MERGE_REQUEST_TARGET_BRANCH_NAME";
    }
  }
  return ci;
}

EnvLookup process_env() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

} // namespace impact
