// Duration-balanced shards (shards.hpp): greedy longest-processing-time over the units, which is
// within 4/3 of the best split and, with many units, close to the ideal total / N.
#include "impact/error.hpp"
#include "impact/run/shards.hpp"
#include "util/sha256.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace impact {

namespace {

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  if (text.empty() || text.size() > 6) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Seconds below a microsecond are noise: rounding keeps the split and the fingerprint the same for
// durations that went through JSON.
double rounded(double seconds) { return std::round(seconds * 1e6) / 1e6; }

} // namespace

std::optional<ShardChoice> parse_shard(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto k = number(text.substr(0, slash));
  auto n = number(text.substr(slash + 1));
  if (!k || !n || *k < 1 || *k > *n) return std::nullopt;
  return ShardChoice{*k, *n, fmt::format("--shard {}", text)};
}

ShardChoice shard_from_ci(const EnvLookup& env) {
  struct Pair {
    const char* index;
    const char* total;
    unsigned base;
  };
  static constexpr Pair k_pairs[] = {{"CI_NODE_INDEX", "CI_NODE_TOTAL", 1},
                                     {"BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0},
                                     {"CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0}};
  for (const auto& p : k_pairs) {
    auto index = env(p.index);
    auto total = env(p.total);
    if (!index && !total) continue;
    auto k = number(index.value_or(""));
    auto n = number(total.value_or(""));
    if (!k || !n || *n < 1 || *k < p.base || *k - p.base >= *n) {
      throw Error("--shard auto: {}={} and {}={} are not a job index (from {}) and a job count; set both, or pass "
                  "--shard K/N",
                  p.index, index.value_or("(unset)"), p.total, total.value_or("(unset)"), p.base);
    }
    return ShardChoice{*k - p.base + 1, *n, fmt::format("{}/{}", p.index, p.total)};
  }
  throw Error("--shard auto: none of CI_NODE_INDEX/CI_NODE_TOTAL (GitLab parallel:), BUILDKITE_PARALLEL_JOB/"
              "BUILDKITE_PARALLEL_JOB_COUNT (Buildkite parallelism:) or CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL (CircleCI "
              "parallelism:) is set; pass --shard K/N (GitHub Actions: from the matrix, see docs/ci.md)");
}

double median_seconds(const Durations& durations) {
  if (durations.empty()) return 1.0;
  std::vector<double> values;
  values.reserve(durations.size());
  for (const auto& [id, r] : durations) values.push_back(r.seconds);
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return rounded(values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2);
}

std::vector<ShardUnit> weigh_units(const std::vector<std::string>& ids, const Durations& durations,
                                   const std::function<size_t(const std::string&)>& static_tests) {
  double median = median_seconds(durations);
  std::vector<ShardUnit> out;
  out.reserve(ids.size());
  for (const auto& id : ids) {
    if (auto it = durations.find(id); it != durations.end()) {
      out.push_back(ShardUnit{id, rounded(it->second.seconds), false});
      continue;
    }
    double sum = 0;
    bool found = false;
    for (std::string prefix : {id + "::", id + "["}) {
      for (auto it = durations.lower_bound(prefix); it != durations.end() && it->first.starts_with(prefix); ++it) {
        sum += it->second.seconds;
        found = true;
      }
    }
    if (found) {
      out.push_back(ShardUnit{id, rounded(sum), false});
      continue;
    }
    size_t count = static_tests ? static_tests(id) : 0;
    out.push_back(ShardUnit{id, rounded(median * static_cast<double>(std::max<size_t>(count, 1))), true});
  }
  return out;
}

std::vector<Shard> split_shards(std::vector<ShardUnit> units, unsigned total) {
  std::vector<Shard> shards(std::max(total, 1u));
  std::sort(units.begin(), units.end(), [](const ShardUnit& a, const ShardUnit& b) {
    return a.seconds != b.seconds ? a.seconds > b.seconds : a.id < b.id;
  });
  for (const auto& unit : units) {
    auto lightest = std::min_element(shards.begin(), shards.end(),
                                     [](const Shard& a, const Shard& b) { return a.seconds < b.seconds; });
    lightest->ids.push_back(unit.id);
    lightest->seconds += unit.seconds;
  }
  for (auto& s : shards) std::sort(s.ids.begin(), s.ids.end());
  return shards;
}

std::string plan_fingerprint(const std::vector<ShardUnit>& units) {
  std::vector<const ShardUnit*> sorted;
  sorted.reserve(units.size());
  for (const auto& u : units) sorted.push_back(&u);
  std::sort(sorted.begin(), sorted.end(), [](const ShardUnit* a, const ShardUnit* b) { return a->id < b->id; });
  std::string text;
  for (const auto* u : sorted) text += fmt::format("{}\t{:.6f}\n", u->id, u->seconds);
  return util::sha256_hex(text).substr(0, 12);
}

} // namespace impact
