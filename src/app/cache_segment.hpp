#pragma once
// One file of the shared cache (docs/cache.md, "The shared cache"): a segment that one run pushed, or
// the base that `impact cache compact` folded segments into. Both have one binary layout: a header
// naming the schema, its version, the kind and the id, then the ids the file absorbed (a base's), the
// durations, the facts (with their format), a coverage index file, the flake events, and a checksum of
// all of it. A file that is torn, foreign or of another version reads as nullopt with the reason, never
// as data; a file of layout 1 (before flake events) reads with none.
#include "impact/python/facts_exchange.hpp"
#include "impact/run/durations.hpp"
#include "impact/run/flakes.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact::app {

// A duration as a segment holds it: views into the file.
struct SegmentDuration {
  std::string_view test;
  double seconds = 0;
  std::string_view at;
};

// What one file of the remote holds, viewing `storage` (the mapped file) when it was read.
struct Segment {
  bool base = false;                  // the compacted base, else a run's segment
  std::string id;                     // the segment's unique id (the base's: when it was compacted)
  std::vector<std::string> absorbed;  // a base: the ids of the segments folded into it
  std::vector<SegmentDuration> durations;
  std::string facts_format;           // facts_exchange_format() of the machine that wrote it
  std::vector<FactsEntry> facts;      // (20-byte blob id, encoded facts)
  std::string_view coverage;          // a coverage index file's bytes (a run of impact index), or ""
  Flakes flakes;                      // a segment: its run's flaky passes; the base: every absorbed segment's, summed
  std::shared_ptr<const void> storage;
};

// The file's bytes. The views of `segment` need live only during the call.
std::string encode_segment(const Segment& segment);

// Reads a segment from `bytes` (which `storage` keeps alive); nullopt and `problem` set when the
// bytes are not a whole segment of this schema and version.
std::optional<Segment> decode_segment(std::string_view bytes, std::shared_ptr<const void> storage, std::string& problem);

// A new segment id: the UTC time to the second, then 64 random bits in hex (20261202T194533Z-9f...):
// ids sort by time and two runs never share one.
std::string new_segment_id();

// The time part of a segment id made at `time` (20261202T194533Z): an id compares at or after it
// exactly when it was made at `time`'s second or later.
std::string segment_id_stamp(std::chrono::system_clock::time_point time);

// Whether `id` could be a segment id (letters, digits, '-', no more than 64 characters): a file name
// that is not one is no segment.
bool valid_segment_id(std::string_view id);

} // namespace impact::app
