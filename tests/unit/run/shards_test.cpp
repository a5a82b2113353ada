#include "impact/error.hpp"
#include "impact/run/shards.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

using namespace impact;
using impact::testing::env_of;

namespace {

std::vector<ShardUnit> units_of(size_t count, unsigned seed) {
  std::mt19937 random(seed);
  std::lognormal_distribution<double> skewed(0.0, 1.5); // a few long tests, many short ones
  std::vector<ShardUnit> out;
  for (size_t i = 0; i < count; ++i) {
    out.push_back(ShardUnit{"tests/test_" + std::to_string(i) + ".py", std::round(skewed(random) * 1e6) / 1e6, false});
  }
  return out;
}

std::vector<std::string> all_ids(const std::vector<Shard>& shards) {
  std::vector<std::string> out;
  for (const auto& s : shards) out.insert(out.end(), s.ids.begin(), s.ids.end());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("shards are disjoint and their union is the selection", "[shards]") {
  auto units = units_of(200, 7);
  std::vector<std::string> ids;
  for (const auto& u : units) ids.push_back(u.id);
  std::sort(ids.begin(), ids.end());
  for (unsigned n : {1u, 2u, 3u, 7u, 200u, 250u}) {
    auto shards = split_shards(units, n);
    REQUIRE(shards.size() == n);
    auto got = all_ids(shards);
    CHECK(got == ids); // the union, and no id twice (sorted equality counts duplicates)
    CHECK(std::adjacent_find(got.begin(), got.end()) == got.end());
  }
}

TEST_CASE("the split does not depend on the order of its input", "[shards]") {
  auto units = units_of(120, 11);
  units.push_back(ShardUnit{"tests/tie_b.py", 2.0, false});
  units.push_back(ShardUnit{"tests/tie_a.py", 2.0, false});
  auto reference = split_shards(units, 4);
  std::string fingerprint = plan_fingerprint(units);
  std::mt19937 random(3);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(units.begin(), units.end(), random);
    auto again = split_shards(units, 4);
    for (size_t i = 0; i < 4; ++i) CHECK(again[i].ids == reference[i].ids);
    CHECK(plan_fingerprint(units) == fingerprint);
  }
}

TEST_CASE("with skewed durations the longest shard is within 10% or one test of the ideal", "[shards]") {
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    auto units = units_of(500, seed);
    double total = 0, longest_test = 0;
    for (const auto& u : units) {
      total += u.seconds;
      longest_test = std::max(longest_test, u.seconds);
    }
    for (unsigned n : {2u, 4u, 8u}) {
      auto shards = split_shards(units, n);
      double longest = 0;
      for (const auto& s : shards) longest = std::max(longest, s.seconds);
      double ideal = total / n;
      INFO("seed " << seed << ", " << n << " shards: longest " << longest << " s, ideal " << ideal << " s");
      CHECK(longest <= std::max(ideal * 1.10, ideal + longest_test));
    }
  }
}

TEST_CASE("a shard whose units are all on the others is empty", "[shards]") {
  auto shards = split_shards({ShardUnit{"a.py", 5, false}}, 3);
  CHECK(shards[0].ids == std::vector<std::string>{"a.py"});
  CHECK(shards[1].ids.empty());
  CHECK(shards[2].ids.empty());
}

TEST_CASE("weigh_units sums the records under a file or class and gives the unknown the median", "[shards]") {
  Durations d = {{"t/a.py::test_x", {3.0, "2026-01-01T00:00:00.000000Z"}},
                 {"t/a.py::TestK::test_y", {1.0, "2026-01-01T00:00:00.000000Z"}},
                 {"t/a.py::test_p[1]", {0.5, "2026-01-01T00:00:00.000000Z"}},
                 {"t/a.py::test_p[2]", {0.5, "2026-01-01T00:00:00.000000Z"}},
                 {"t/b.py::test_z", {2.0, "2026-01-01T00:00:00.000000Z"}}};
  CHECK(median_seconds(d) == Approx(1.0));
  auto counts = [](const std::string& id) -> size_t { return id == "t/c.py" ? 4 : 0; };
  auto units = weigh_units({"t/a.py", "t/a.py::TestK", "t/a.py::test_p", "t/b.py::test_z", "t/c.py", "t/d.py::test_q"},
                           d, counts);
  REQUIRE(units.size() == 6);
  CHECK(units[0] == ShardUnit{"t/a.py", 5.0, false});
  CHECK(units[1] == ShardUnit{"t/a.py::TestK", 1.0, false});
  CHECK(units[2] == ShardUnit{"t/a.py::test_p", 1.0, false});
  CHECK(units[3] == ShardUnit{"t/b.py::test_z", 2.0, false});
  CHECK(units[4] == ShardUnit{"t/c.py", 4.0, true}); // the median times its 4 static tests
  CHECK(units[5] == ShardUnit{"t/d.py::test_q", 1.0, true});
  CHECK(median_seconds({}) == 1.0);
}

TEST_CASE("parse_shard takes K/N with 1 <= K <= N only", "[shards]") {
  auto two_of_four = parse_shard("2/4");
  REQUIRE(two_of_four);
  CHECK(two_of_four->index == 2);
  CHECK(two_of_four->total == 4);
  for (const char* bad : {"0/2", "3/2", "1/0", "2", "/2", "1/", "a/b", "-1/2", "1/2/3", " 1/2", "1/2 ", ""}) {
    INFO(bad);
    CHECK_FALSE(parse_shard(bad));
  }
}

TEST_CASE("shard_from_ci converts each CI's base", "[shards]") {
  auto gitlab = shard_from_ci(env_of({{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "3"}}));
  CHECK((gitlab.index == 2 && gitlab.total == 3));
  auto buildkite = shard_from_ci(env_of({{"BUILDKITE_PARALLEL_JOB", "0"}, {"BUILDKITE_PARALLEL_JOB_COUNT", "3"}}));
  CHECK((buildkite.index == 1 && buildkite.total == 3));
  auto circle = shard_from_ci(env_of({{"CIRCLE_NODE_INDEX", "2"}, {"CIRCLE_NODE_TOTAL", "3"}}));
  CHECK((circle.index == 3 && circle.total == 3));
  CHECK_THROWS_WITH(shard_from_ci(env_of({})), Catch::Contains("CI_NODE_INDEX/CI_NODE_TOTAL"));
  CHECK_THROWS_AS(shard_from_ci(env_of({{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "3"}})), Error);
  CHECK_THROWS_AS(shard_from_ci(env_of({{"CIRCLE_NODE_INDEX", "3"}, {"CIRCLE_NODE_TOTAL", "3"}})), Error);
  CHECK_THROWS_AS(shard_from_ci(env_of({{"CI_NODE_TOTAL", "3"}})), Error);
}

TEST_CASE("the fingerprint changes with the selection and with the durations", "[shards]") {
  std::vector<ShardUnit> a = {{"x.py", 1.0, false}, {"y.py", 2.0, false}};
  std::vector<ShardUnit> reordered = {{"y.py", 2.0, false}, {"x.py", 1.0, false}};
  std::vector<ShardUnit> slower = {{"x.py", 1.5, false}, {"y.py", 2.0, false}};
  std::vector<ShardUnit> more = {{"x.py", 1.0, false}, {"y.py", 2.0, false}, {"z.py", 1.0, true}};
  CHECK(plan_fingerprint(a) == plan_fingerprint(reordered));
  CHECK(plan_fingerprint(a) != plan_fingerprint(slower));
  CHECK(plan_fingerprint(a) != plan_fingerprint(more));
  CHECK(plan_fingerprint(a).size() == 12);
}
