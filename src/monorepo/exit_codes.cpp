// The exit code of a monorepo run, merged from its projects' (monorepo.hpp, merge_exit_codes).
#include "impact/monorepo.hpp"

#include <algorithm>

namespace impact::monorepo {

namespace {

// pytest's codes as they are; the rest mapped onto them.
int normalised(int code) {
  if (code >= 0 && code <= 5) return code;
  if (code == 126 || code == 127 || code >= 128) return 2; // not started, or killed: nothing reliable ran
  return 1;
}

} // namespace

int merge_exit_codes(const std::vector<int>& codes) {
  std::vector<int> seen;
  for (int c : codes) seen.push_back(normalised(c));
  auto any = [&](int c) { return std::find(seen.begin(), seen.end(), c) != seen.end(); };
  for (int worst : {3, 4, 2, 1}) {
    if (any(worst)) return worst;
  }
  if (!seen.empty() && std::all_of(seen.begin(), seen.end(), [](int c) { return c == 5; })) return 5;
  return 0;
}

} // namespace impact::monorepo
