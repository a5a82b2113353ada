#pragma once
// The fallback command's payload in monorepo mode (docs/monorepo.md, "The fallback command"): the
// project's own payload (docs/configuration.md, "The fallback payload") plus every project's decision.
#include "app/monorepo_plan.hpp"

#include <string>

namespace impact::app {

// The payload for the fallback of project `p` of `plan`: the project's own analysis when it decided,
// else the monorepo rule that runs it whole (its `reason` is then `depends_on_changed`,
// `outside_change` or `no_ci_base`), with `project`, `repository_root` and `projects` added.
std::string monorepo_fallback_payload(const MonorepoPlan& plan, const ProjectPlan& p, bool strict);

// IMPACT_FALLBACK_REASON for the fallback of `p`: its analysis's reason, or the monorepo rule's.
std::string monorepo_fallback_reason(const ProjectPlan& p);

} // namespace impact::app
