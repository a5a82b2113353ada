// The decision without a diff base: nothing says what changed, so everything runs (docs/selection.md,
// no_ci_base).
#include "impact/decision.hpp"

#include <utility>

namespace impact {

Decision decide_without_base(std::string why, Mode mode) {
  Decision out;
  out.outcome = Outcome::run_all;
  out.reason = Reason::no_ci_base;
  out.detail = std::move(why);
  out.mode_requested = out.mode_effective = mode;
  return out;
}

} // namespace impact
