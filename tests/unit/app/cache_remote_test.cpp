#include "app/cache_remote.hpp"
#include "app/cache_segment.hpp"
#include "impact/python/facts_exchange.hpp"
#include "impact/run/durations.hpp"
#include "impact/run/flakes.hpp"
#include "util/checksum.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace impact;
using namespace impact::app;
using impact::testing::TempDir;

namespace {

// A 20-byte blob id made of one repeated character.
std::string oid(char c) { return std::string(20, c); }

// A local cache folder holding `durations` and facts entries (blob id -> bytes).
void fill_cache(const std::filesystem::path& cache, const Durations& durations,
                const std::vector<std::pair<std::string, std::string>>& facts) {
  std::filesystem::create_directories(cache);
  save_durations(cache, durations);
  std::vector<FactsEntry> entries;
  for (const auto& [id, bytes] : facts) entries.emplace_back(id, bytes);
  add_cache_facts(cache, entries);
}

std::map<std::string, std::string> facts_in(const std::filesystem::path& cache) {
  FactsEntries read = read_cache_facts(cache);
  std::map<std::string, std::string> out;
  for (const auto& [id, bytes] : read.entries) out.emplace(std::string(id), std::string(bytes));
  return out;
}

size_t segment_files(const std::filesystem::path& remote) {
  size_t n = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(remote_segments(remote), ec), end; !ec && it != end; it.increment(ec)) ++n;
  return n;
}

const std::string k_old = "2026-01-01T00:00:00.000000Z";
const std::string k_new = "2026-01-02T00:00:00.000000Z";

} // namespace

TEST_CASE("a segment reads back as written; torn, foreign and other-version bytes are refused", "[cache]") {
  Segment s;
  s.id = new_segment_id();
  s.durations = {{"t.py::a", 1.5, k_old}, {"t.py::b", 0.25, k_new}};
  s.facts_format = facts_exchange_format();
  std::string a = oid('a'), fa = "facts of a";
  s.facts = {{a, fa}};
  s.coverage = "an index file's bytes";
  std::string bytes = encode_segment(s);
  std::string problem;
  auto back = decode_segment(bytes, nullptr, problem);
  REQUIRE(back);
  CHECK(back->id == s.id);
  CHECK_FALSE(back->base);
  REQUIRE(back->durations.size() == 2);
  CHECK(back->durations[0].test == "t.py::a");
  CHECK(back->durations[0].seconds == 1.5);
  CHECK(back->durations[1].at == k_new);
  REQUIRE(back->facts.size() == 1);
  CHECK(back->facts[0].first == a);
  CHECK(back->facts[0].second == fa);
  CHECK(back->coverage == "an index file's bytes");

  CHECK_FALSE(decode_segment(bytes.substr(0, bytes.size() - 3), nullptr, problem)); // torn
  CHECK_THAT(problem, Catch::Contains("torn"));
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 1;
  CHECK_FALSE(decode_segment(flipped, nullptr, problem));
  CHECK_FALSE(decode_segment("{\"schema\": \"something else\"}", nullptr, problem)); // foreign
  CHECK_THAT(problem, Catch::Contains("not a segment"));
  std::string other_version = bytes;
  other_version[8] = 9; // the version follows the 8-byte magic
  CHECK_FALSE(decode_segment(other_version, nullptr, problem));
  CHECK_THAT(problem, Catch::Contains("another version"));
}

TEST_CASE("a segment carries flake events; one of layout 1, without them, still reads", "[cache]") {
  Segment s;
  s.id = new_segment_id();
  s.durations = {{"t.py::a", 1.5, k_old}};
  s.flakes = {{"t.py::a", {2, k_new}}};
  std::string problem;
  auto back = decode_segment(encode_segment(s), nullptr, problem);
  REQUIRE(back);
  CHECK(back->flakes == s.flakes);

  // Layout 1 is layout 2 without the flake count at the end: drop it (one byte, 0), set the version,
  // checksum again.
  s.flakes.clear();
  std::string bytes = encode_segment(s);
  std::string body = bytes.substr(0, bytes.size() - 9);
  REQUIRE(body[8] == 2);
  body[8] = 1;
  uint64_t sum = util::checksum64(body);
  std::string v1 = body + std::string(reinterpret_cast<const char*>(&sum), 8);
  auto old = decode_segment(v1, nullptr, problem);
  REQUIRE(old);
  CHECK(old->durations.size() == 1);
  CHECK(old->flakes.empty());
}

TEST_CASE("segment ids are unique, sortable by time, and only letters, digits and dashes", "[cache]") {
  std::string a = new_segment_id(), b = new_segment_id();
  CHECK(a != b);
  CHECK(valid_segment_id(a));
  CHECK(a.size() == std::string("20261202T194533Z-0123456789abcdef").size());
  CHECK_FALSE(valid_segment_id("../base"));
  CHECK_FALSE(valid_segment_id(""));
}

TEST_CASE("push writes this run's durations and the facts the remote lacks; pull merges them", "[cache]") {
  TempDir tmp;
  auto remote = tmp / "remote", ci = tmp / "ci", laptop = tmp / "laptop";
  fill_cache(ci, {{"t.py::a", {1.0, k_old}}, {"t.py::b", {2.0, k_new}}}, {{oid('a'), "A"}, {oid('b'), "B"}});
  std::vector<std::string> warnings;
  PushSummary first = push_segment(remote, ci, k_new, {}, warnings); // only what was measured from k_new on
  CHECK(first.durations == 1);
  CHECK(first.facts == 2);
  CHECK(segment_files(remote) == 1);
  // The remote holds both facts now: a second push has only the new entry.
  fill_cache(ci, {{"t.py::a", {1.0, k_old}}, {"t.py::b", {2.0, k_new}}}, {{oid('c'), "C"}});
  PushSummary second = push_segment(remote, ci, "2027-01-01T00:00:00.000000Z", {}, warnings);
  CHECK(second.durations == 0);
  CHECK(second.facts == 1);
  CHECK(push_segment(remote, ci, "2027-01-01T00:00:00.000000Z", {}, warnings).id.empty()); // nothing new: no segment
  CHECK(segment_files(remote) == 2);

  // A laptop with an older record of b and a newer one of c pulls: b is replaced, c kept.
  fill_cache(laptop, {{"t.py::b", {9.0, k_old}}, {"t.py::c", {3.0, "2026-06-01T00:00:00.000000Z"}}}, {});
  PullSummary pulled = pull_remote(remote, laptop, warnings);
  CHECK(pulled.segments == 2);
  CHECK(pulled.durations == 1);
  CHECK(pulled.facts == 3);
  std::vector<std::string> w;
  Durations d = load_durations(laptop, w);
  CHECK(d.at("t.py::b").seconds == 2.0);
  CHECK(d.at("t.py::c").seconds == 3.0);
  CHECK_FALSE(d.contains("t.py::a")); // measured before the push's run: not this run's to push
  CHECK(facts_in(laptop) == std::map<std::string, std::string>{{oid('a'), "A"}, {oid('b'), "B"}, {oid('c'), "C"}});
  CHECK(pull_remote(remote, laptop, warnings).facts == 0); // a second pull adds nothing
  CHECK(warnings.empty());
}

TEST_CASE("compact folds segments into a base that records them, and prunes them", "[cache]") {
  TempDir tmp;
  auto remote = tmp / "remote", ci = tmp / "ci", fresh = tmp / "fresh";
  std::vector<std::string> warnings;
  for (int i = 0; i < 3; ++i) {
    std::string at = fmt::format("2026-01-0{}T00:00:00.000000Z", i + 1);
    fill_cache(ci, {{"t.py::a", {1.0 + i, at}}, {fmt::format("t.py::only{}", i), {0.5, at}}}, {{oid(char('a' + i)), "F"}});
    REQUIRE_FALSE(push_segment(remote, ci, at, {}, warnings).id.empty());
  }
  REQUIRE(segment_files(remote) == 3);
  // A copy of the first segment, kept to come back after the prune (a sync that restores it).
  std::filesystem::path first;
  for (const auto& e : std::filesystem::directory_iterator(remote_segments(remote))) first = std::min(first.empty() ? e.path() : first, e.path());
  std::string first_bytes = *util::read_file(first);

  CompactSummary done = compact_remote(remote, warnings);
  CHECK(done.absorbed == 3);
  CHECK(done.durations == 4);
  CHECK(done.facts == 3);
  CHECK(segment_files(remote) == 0);
  CHECK_FALSE(std::filesystem::exists(remote / "compact.lock"));

  std::ofstream(first, std::ios::binary) << first_bytes; // back again: absorbed, so never read twice
  PullSummary pulled = pull_remote(remote, fresh, warnings);
  CHECK(pulled.base);
  CHECK(pulled.segments == 0);
  std::vector<std::string> w;
  Durations d = load_durations(fresh, w);
  CHECK(d.at("t.py::a").seconds == 3.0); // the newest
  CHECK(d.size() == 4);
  CHECK(facts_in(fresh).size() == 3);
  // The next compaction keeps the restored file's id (it is still there), and prunes it.
  CHECK(compact_remote(remote, warnings).absorbed == 0);
  CHECK(segment_files(remote) == 0);
  CHECK(warnings.empty());
}

TEST_CASE("a torn or foreign segment is skipped with a warning; a held lock stops a second compaction", "[cache]") {
  TempDir tmp;
  auto remote = tmp / "remote", ci = tmp / "ci", fresh = tmp / "fresh";
  std::vector<std::string> warnings;
  fill_cache(ci, {{"t.py::a", {1.0, k_new}}}, {});
  std::string id = push_segment(remote, ci, k_new, {}, warnings).id;
  std::string good = *util::read_file(remote_segments(remote) / (id + ".seg"));
  tmp.write("remote/segments/20260101T000000Z-0000000000000001.seg", good.substr(0, good.size() / 2));
  tmp.write("remote/segments/20260101T000000Z-0000000000000002.seg", "PK\x03\x04 a zip file");
  tmp.write("remote/segments/20260101T000000Z-0000000000000003.seg", good); // another segment's header
  tmp.write("remote/segments/notes.txt", "not ours");
  PullSummary pulled = pull_remote(remote, fresh, warnings);
  CHECK(pulled.segments == 1);
  CHECK(pulled.durations == 1);
  REQUIRE(warnings.size() == 3);
  CHECK_THAT(warnings[0], Catch::Contains("0000000000000001.seg") && Catch::Contains("torn"));
  CHECK_THAT(warnings[1], Catch::Contains("not a segment"));
  CHECK_THAT(warnings[2], Catch::Contains("another segment"));

  warnings.clear();
  CompactSummary done = compact_remote(remote, warnings);
  CHECK(done.absorbed == 1);
  CHECK(done.skipped == 3);
  CHECK(segment_files(remote) == 4); // the three skipped files and notes.txt are left alone

  tmp.write("remote/compact.lock", "pid 1\n");
  CHECK_THROWS_WITH(compact_remote(remote, warnings), Catch::Contains("another compaction"));
  CHECK(std::filesystem::exists(remote / "compact.lock")); // not ours to remove
}

TEST_CASE("flaky passes pushed by two runs are counted once by every pull, before and after a compaction", "[cache]") {
  TempDir tmp;
  auto remote = tmp / "remote", one = tmp / "one", two = tmp / "two", fresh = tmp / "fresh", late = tmp / "late";
  const std::string later = "2027-01-01T00:00:00.000000Z"; // no durations to push: flaky passes alone
  std::vector<std::string> warnings;
  // Each run's flakes.json gains its passes; a passes-on-rerun count it held before is not pushed.
  std::filesystem::create_directories(one);
  save_flakes(one, {{"t.py::a", {5, k_old}}});
  Flakes before_one = load_flakes(one, warnings);
  save_flakes(one, {{"t.py::a", {6, k_new}}});
  PushSummary pushed = push_segment(remote, one, later, before_one, warnings);
  REQUIRE_FALSE(pushed.id.empty());
  CHECK(pushed.flakes == 1);
  std::filesystem::create_directories(two);
  save_flakes(two, {{"t.py::a", {1, k_new}}, {"t.py::b", {2, k_new}}});
  CHECK(push_segment(remote, two, later, {}, warnings).flakes == 2);
  CHECK(push_segment(remote, two, later, load_flakes(two, warnings), warnings).id.empty()); // nothing new

  const Flakes summed = {{"t.py::a", {2, k_new}}, {"t.py::b", {2, k_new}}};
  CHECK(pull_remote(remote, fresh, warnings).flakes == 2);
  CHECK(load_flakes(fresh, warnings) == summed);
  CHECK(pull_remote(remote, fresh, warnings).flakes == 0);
  CHECK(load_flakes(fresh, warnings) == summed);
  // The first run's cache holds its own passes already: only the second run's are added.
  CHECK(pull_remote(remote, one, warnings).flakes == 2);
  CHECK(load_flakes(one, warnings) == Flakes{{"t.py::a", {7, k_new}}, {"t.py::b", {2, k_new}}});

  std::vector<std::pair<std::filesystem::path, std::string>> copies; // to come back after two compactions
  for (const auto& e : std::filesystem::directory_iterator(remote_segments(remote))) {
    copies.emplace_back(e.path(), *util::read_file(e.path()));
  }
  CompactSummary done = compact_remote(remote, warnings);
  CHECK(done.absorbed == 2);
  CHECK(done.flakes == 2);
  for (const auto& cache : {fresh, late}) {
    pull_remote(remote, cache, warnings);
    CHECK(load_flakes(cache, warnings) == summed);
  }
  CHECK(pull_remote(remote, one, warnings).flakes == 0);
  CHECK(load_flakes(one, warnings).at("t.py::a").passes == 7);
  // A second compaction reads the base and no segment: the sum stays. Then a job's sync brings the two
  // segments back: the base still knows their ids (pushed less than a week ago), so neither a pull
  // nor the next compaction counts them again.
  CHECK(compact_remote(remote, warnings).pruned.empty());
  for (const auto& [path, bytes] : copies) std::ofstream(path, std::ios::binary) << bytes;
  CHECK(pull_remote(remote, late, warnings).flakes == 0);
  CHECK(load_flakes(late, warnings) == summed);
  CompactSummary again = compact_remote(remote, warnings);
  CHECK(again.absorbed == 0);
  CHECK(again.pruned.size() == 2);
  CHECK(pull_remote(remote, tmp / "after", warnings).flakes == 2);
  CHECK(load_flakes(tmp / "after", warnings) == summed);
  CHECK(warnings.empty());
}

TEST_CASE("a base forgets an absorbed id once its file is gone and it was pushed over a week ago", "[cache]") {
  TempDir tmp;
  auto remote = tmp / "remote";
  Segment base;
  base.base = true;
  base.id = new_segment_id();
  const std::string old_id = "20200101T000000Z-0000000000000001";
  std::string recent = segment_id_stamp(std::chrono::system_clock::now() - std::chrono::days(6)) + "-0000000000000002";
  base.absorbed = {old_id, recent};
  tmp.write("remote/base.seg", encode_segment(base));
  std::vector<std::string> warnings;
  CompactSummary done = compact_remote(remote, warnings);
  CHECK(done.pruned.empty()); // neither file is there
  std::string problem;
  auto bytes = *util::read_file(remote_base(remote));
  auto next = decode_segment(bytes, nullptr, problem);
  REQUIRE(next);
  CHECK(next->absorbed == std::vector<std::string>{recent});
}
