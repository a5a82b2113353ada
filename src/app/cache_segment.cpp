// The shared cache's file format (cache_segment.hpp).
#include "app/cache_segment.hpp"

#include "util/binary.hpp"
#include "util/checksum.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <ctime>
#include <random>

namespace impact::app {

namespace {

constexpr std::string_view k_magic = "IMPCACHE";
// Bump when the layout changes: files of other versions are skipped, never misread. Layout 1 lacked the
// flake events that end layout 2; it still reads, with none (an older impact skips layout 2 files).
constexpr uint64_t k_version = 2;
constexpr uint64_t k_version_without_flakes = 1;

void put_f64(util::Writer& out, double v) {
  auto bits = std::bit_cast<uint64_t>(v);
  char raw[8];
  std::memcpy(raw, &bits, 8);
  out.raw(std::string_view(raw, 8));
}

double get_f64(util::Reader& in) {
  std::string_view raw = in.raw(8);
  if (raw.size() != 8) return 0;
  uint64_t bits = 0;
  std::memcpy(&bits, raw.data(), 8);
  return std::bit_cast<double>(bits);
}

std::string_view view(util::Reader& in) { return in.raw(static_cast<size_t>(in.u64())); }

} // namespace

std::string encode_segment(const Segment& segment) {
  util::Writer out;
  out.raw(k_magic);
  out.u64(k_version);
  out.str(segment.base ? "base" : "segment");
  out.str(segment.id);
  out.strings(segment.absorbed);
  out.u64(segment.durations.size());
  for (const auto& d : segment.durations) {
    out.str(d.test);
    put_f64(out, d.seconds);
    out.str(d.at);
  }
  out.str(segment.facts_format);
  out.u64(segment.facts.size());
  for (const auto& [oid, facts] : segment.facts) {
    out.raw(oid);
    out.str(facts);
  }
  out.str(segment.coverage);
  out.u64(segment.flakes.size());
  for (const auto& [test, record] : segment.flakes) {
    out.str(test);
    out.u64(static_cast<uint64_t>(record.passes));
    out.str(record.last);
  }
  uint64_t sum = util::checksum64(out.buffer());
  char raw[8];
  std::memcpy(raw, &sum, 8);
  out.raw(std::string_view(raw, 8));
  return std::move(out.buffer());
}

std::optional<Segment> decode_segment(std::string_view bytes, std::shared_ptr<const void> storage, std::string& problem) {
  if (bytes.size() < k_magic.size() + 8 || bytes.substr(0, k_magic.size()) != k_magic) {
    problem = "not a segment of impact's shared cache";
    return std::nullopt;
  }
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  bytes.remove_suffix(8);
  util::Reader in(bytes);
  in.raw(k_magic.size());
  uint64_t version = in.u64();
  if (version != k_version && version != k_version_without_flakes) {
    problem = fmt::format("written by another version of impact (layout {}, this one reads {})", version, k_version);
    return std::nullopt;
  }
  if (stored != util::checksum64(bytes)) {
    problem = "torn or corrupt (its checksum does not match)";
    return std::nullopt;
  }
  Segment out;
  std::string kind = in.str();
  out.base = kind == "base";
  out.id = in.str();
  out.absorbed = in.strings();
  size_t count = in.count();
  out.durations.reserve(count);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    SegmentDuration d;
    d.test = view(in);
    d.seconds = get_f64(in);
    d.at = view(in);
    out.durations.push_back(d);
  }
  out.facts_format = in.str();
  count = in.count();
  out.facts.reserve(count);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    std::string_view oid = in.raw(20);
    std::string_view facts = view(in);
    out.facts.emplace_back(oid, facts);
  }
  out.coverage = view(in);
  count = version == k_version ? in.count() : 0;
  bool counts_ok = true; // every test's passes a count flakes.json can hold
  for (size_t i = 0; i < count && in.ok(); ++i) {
    std::string test = in.str();
    uint64_t passes = in.u64();
    std::string last = in.str();
    counts_ok = counts_ok && passes >= 1 && passes <= (uint64_t{1} << 62);
    out.flakes[std::move(test)] = FlakeRecord{static_cast<long long>(passes), std::move(last)};
  }
  if (!counts_ok || !in.ok() || !in.done() || (kind != "base" && kind != "segment") || !valid_segment_id(out.id)) {
    problem = "malformed (its checksum matches, but its content does not parse)";
    return std::nullopt;
  }
  out.storage = std::move(storage);
  return out;
}

std::string segment_id_stamp(std::chrono::system_clock::time_point time) {
  std::time_t secs = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

std::string new_segment_id() {
  std::random_device random;
  uint64_t bits = (static_cast<uint64_t>(random()) << 32) ^ random();
  return fmt::format("{}-{:016x}", segment_id_stamp(std::chrono::system_clock::now()), bits);
}

bool valid_segment_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    if (!ok) return false;
  }
  return true;
}

} // namespace impact::app
