#include "app/cache_flakes.hpp"
#include "impact/error.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

using namespace impact;
using namespace impact::app;
using impact::testing::TempDir;

namespace {

const std::string k_t1 = "2026-01-01T00:00:00.000000Z";
const std::string k_t2 = "2026-01-02T00:00:00.000000Z";
const std::string k_t3 = "2026-01-03T00:00:00.000000Z";

const std::string k_s1 = "20260101T000000Z-0000000000000001";
const std::string k_s2 = "20260102T000000Z-0000000000000002";
const std::string k_s3 = "20260103T000000Z-0000000000000003";

// The remote as a pull reads it: `base` (nullptr: none read), live segments with their events, and
// other listed files that the base did not absorb (unreadable ones).
RemoteFlakes remote_of(const Flakes* base, const std::vector<std::pair<std::string, const Flakes*>>& segments,
                       const std::set<std::string>& unreadable = {}) {
  RemoteFlakes out;
  out.base = base;
  out.segments = segments;
  for (const auto& [id, events] : segments) out.live.insert(id);
  out.live.insert(unreadable.begin(), unreadable.end());
  return out;
}

// Adds what a pull of `remote` brings to `local`, as pull_remote does.
void pull(Flakes& local, SharedFlakes& record, const RemoteFlakes& remote) { add_flakes(local, pull_flakes(record, remote)); }

} // namespace

TEST_CASE("flakes_added is what one run added to flakes.json", "[cache][flakes]") {
  Flakes before = {{"a", {2, k_t1}}, {"b", {1, k_t1}}};
  Flakes after = {{"a", {3, k_t2}}, {"b", {1, k_t1}}, {"c", {2, k_t2}}};
  CHECK(flakes_added(before, after) == Flakes{{"a", {1, k_t2}}, {"c", {2, k_t2}}});
  CHECK(flakes_added(after, after).empty());
  CHECK(flakes_added(after, before).empty()); // a record started afresh adds nothing, never less than nothing
}

TEST_CASE("a pull adds each segment's flake events once, from the segment or from the base", "[cache][flakes]") {
  Flakes e1 = {{"a", {1, k_t1}}};
  Flakes e2 = {{"a", {2, k_t2}}, {"b", {1, k_t2}}};
  Flakes e3 = {{"b", {4, k_t3}}};
  Flakes base12 = e1;
  add_flakes(base12, e2);

  SECTION("a fresh cache adds the base and the live segments; a second pull adds nothing") {
    Flakes local;
    SharedFlakes record;
    RemoteFlakes remote = remote_of(&base12, {{k_s3, &e3}});
    pull(local, record, remote);
    CHECK(local == Flakes{{"a", {3, k_t2}}, {"b", {5, k_t3}}});
    pull(local, record, remote);
    CHECK(local == Flakes{{"a", {3, k_t2}}, {"b", {5, k_t3}}});
    CHECK(record.base == base12);
    CHECK(record.segments == std::map<std::string, Flakes>{{k_s3, e3}});
  }

  SECTION("segments pulled one by one and compacted later are not counted again from the base") {
    Flakes local;
    SharedFlakes record;
    pull(local, record, remote_of(nullptr, {{k_s1, &e1}, {k_s2, &e2}}));
    CHECK(local == base12);
    // The compaction absorbed S1 and S2 (their files are gone); S3 was pushed since.
    pull(local, record, remote_of(&base12, {{k_s3, &e3}}));
    Flakes want = base12;
    add_flakes(want, e3);
    CHECK(local == want);
    CHECK(record.segments == std::map<std::string, Flakes>{{k_s3, e3}}); // S1 and S2 are the base's now
    pull(local, record, remote_of(&base12, {{k_s3, &e3}}));
    CHECK(local == want);
  }

  SECTION("a base that absorbed a counted segment and one this cache never saw adds only the latter") {
    Flakes local;
    SharedFlakes record;
    pull(local, record, remote_of(nullptr, {{k_s1, &e1}}));
    pull(local, record, remote_of(&base12, {})); // S2 was pushed and compacted between the two pulls
    CHECK(local == base12);
    CHECK(record.segments.empty());
  }

  SECTION("a segment file the base lists as absorbed is in the base, not live") {
    Flakes local;
    SharedFlakes record;
    pull(local, record, remote_of(nullptr, {{k_s1, &e1}}));
    RemoteFlakes remote = remote_of(&e1, {}); // a prune that failed: S1's file is still listed, absorbed
    remote.live.erase(k_s1);
    pull(local, record, remote);
    CHECK(local == e1);
  }

  SECTION("a segment this cache pushed is not counted when pulled, nor when its base is") {
    Flakes local = e2; // flakes.json gained S2's events in the run that pushed it
    SharedFlakes record;
    record.segments[k_s2] = e2; // as push_segment records it
    pull(local, record, remote_of(nullptr, {{k_s1, &e1}, {k_s2, &e2}}));
    CHECK(local == base12);
    pull(local, record, remote_of(&base12, {}));
    CHECK(local == base12);
  }

  SECTION("the base's growth over two compactions is added once") {
    Flakes local;
    SharedFlakes record;
    pull(local, record, remote_of(&e1, {}));
    Flakes base123 = base12;
    add_flakes(base123, e3);
    pull(local, record, remote_of(&base123, {}));
    CHECK(local == base123);
    CHECK(record.base == base123);
  }

  SECTION("without a base, a counted segment that is gone was deleted: forgotten; an unreadable base keeps it") {
    Flakes local;
    SharedFlakes record;
    pull(local, record, remote_of(nullptr, {{k_s1, &e1}, {k_s2, &e2}}));
    RemoteFlakes unreadable_base = remote_of(nullptr, {{k_s2, &e2}});
    pull(local, record, unreadable_base);
    CHECK(record.segments.size() == 2); // S1 may be in the base that did not read
    RemoteFlakes no_base = unreadable_base;
    no_base.no_base = true;
    pull(local, record, no_base);
    CHECK(record.segments == std::map<std::string, Flakes>{{k_s2, e2}});
    CHECK(local == base12); // the deleted segment's events stay counted
  }

  SECTION("an unreadable live segment keeps its counted events from being taken for the base's") {
    Flakes local;
    SharedFlakes record;
    pull(local, record, remote_of(nullptr, {{k_s1, &e1}}));
    pull(local, record, remote_of(&e2, {}, {k_s1})); // S1 listed but torn this time; the base holds S2
    CHECK(local == base12);
    CHECK(record.segments.contains(k_s1));
  }
}

TEST_CASE("flakes-shared.json reads back as written; a broken one reads as empty with a warning", "[cache][flakes]") {
  TempDir tmp;
  SharedFlakes record;
  record.base = {{"t.py::a", {3, k_t2}}};
  record.segments[k_s1] = {{"t.py::b", {1, k_t1}}};
  save_shared_flakes(tmp.path(), record);
  std::vector<std::string> warnings;
  CHECK(load_shared_flakes(tmp.path(), warnings) == record);
  CHECK(warnings.empty());
  CHECK_THROWS_AS(parse_shared_flakes("{\"schema\": \"impact.flakes.shared\", \"version\": 1, \"base\": {}}", "f"), Error);
  CHECK_THROWS_AS(parse_shared_flakes("{\"schema\": \"impact.flakes.shared\", \"version\": 1, \"base\": "
                                      "{\"x\": {\"passes_on_rerun\": 0, \"last\": \"\"}}, \"segments\": {}}",
                                      "f"),
                  Error);
  tmp.write("flakes-shared.json", "not json");
  CHECK(load_shared_flakes(tmp.path(), warnings) == SharedFlakes{});
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("flakes-shared.json"));
}
