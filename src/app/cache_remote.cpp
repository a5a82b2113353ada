// The shared cache: pull, push and compact (cache_remote.hpp, docs/cache.md "The shared cache").
#include "app/cache_remote.hpp"

#include "app/cache_coverage.hpp"
#include "app/cache_flakes.hpp"
#include "app/cache_segment.hpp"
#include "impact/error.hpp"
#include "impact/python/facts_exchange.hpp"
#include "impact/run/durations.hpp"
#include "impact/run/flakes.hpp"
#include "util/cache_dir.hpp"
#include "util/files.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace impact::app {

namespace {

constexpr std::string_view k_suffix = ".seg";

// The remote as one moment saw it: its base (when it has a readable one), the segments the base did not
// absorb, the stem of every segment file listed, and whether there was a base file at all.
struct RemoteView {
  std::optional<Segment> base;
  std::vector<Segment> segments;
  std::set<std::string> listed;
  bool no_base = false;
};

// One file of the remote; nullopt when it is gone (a compaction absorbed it) or, with a warning, when it
// cannot be trusted.
std::optional<Segment> read_remote_file(const std::filesystem::path& path, bool base, std::vector<std::string>& warnings) {
  // Read whole, not mapped: on a network mount another machine may delete the file while it is read, and
  // a mapping would then fault; a read either completes or fails (then the file counts as gone).
  std::optional<std::string> text = util::read_file(path);
  if (!text) return std::nullopt;
  auto bytes = std::make_shared<const std::string>(std::move(*text));
  std::string problem;
  std::optional<Segment> segment = decode_segment(*bytes, bytes, problem);
  if (segment && segment->base != base) {
    problem = base ? "a segment where the base belongs" : "a base among the segments";
    segment.reset();
  }
  if (segment && !base && path.stem().string() != segment->id) {
    problem = fmt::format("its header names another segment ({})", segment->id);
    segment.reset();
  }
  if (!segment) {
    warnings.push_back(fmt::format("shared cache: skipped {}: {}; delete the file if this stays",
                                   util::quote_name(path.string()), problem));
  }
  return segment;
}

// Reads the segments first, then the base: a compaction renames its new base into place before it
// deletes the segments it absorbed, so a segment listed here and gone when opened is in that base.
RemoteView read_remote(const std::filesystem::path& remote, std::vector<std::string>& warnings) {
  RemoteView out;
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(remote_segments(remote), ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!name.ends_with(k_suffix)) continue; // a write in progress (<id>.seg.tmp-...) or a stranger's file
    std::string stem = name.substr(0, name.size() - k_suffix.size());
    if (!valid_segment_id(stem)) continue;
    out.listed.insert(stem);
    files.push_back(it->path());
  }
  std::sort(files.begin(), files.end()); // ids sort by time: oldest first
  std::vector<Segment> segments;
  for (const auto& file : files) {
    if (auto segment = read_remote_file(file, false, warnings)) segments.push_back(std::move(*segment));
  }
  out.base = read_remote_file(remote_base(remote), true, warnings);
  std::error_code missing;
  out.no_base = !out.base && !std::filesystem::exists(remote_base(remote), missing);
  std::unordered_set<std::string> absorbed;
  if (out.base) absorbed.insert(out.base->absorbed.begin(), out.base->absorbed.end());
  for (auto& segment : segments) {
    if (!absorbed.contains(segment.id)) out.segments.push_back(std::move(segment));
  }
  return out;
}

// Every file of the view, the base first, then the segments oldest first.
std::vector<const Segment*> files_of(const RemoteView& view) {
  std::vector<const Segment*> out;
  if (view.base) out.push_back(&*view.base);
  for (const auto& s : view.segments) out.push_back(&s);
  return out;
}

// Per test, the newest of the files' durations (on a tie, the later file's).
std::unordered_map<std::string_view, SegmentDuration> newest_durations(const std::vector<const Segment*>& files) {
  std::unordered_map<std::string_view, SegmentDuration> out;
  for (const Segment* file : files) {
    for (const auto& d : file->durations) {
      auto [it, inserted] = out.try_emplace(d.test, d);
      if (!inserted && d.at >= it->second.at) it->second = d;
    }
  }
  return out;
}

// The files' facts of this impact's format, each blob id once, the newest file's first; a line in
// `warnings` for the files whose facts are of another format.
std::vector<FactsEntry> facts_of(const std::vector<const Segment*>& files, std::vector<std::string>& warnings) {
  std::string format = facts_exchange_format();
  std::vector<FactsEntry> out;
  std::unordered_set<std::string_view> seen;
  size_t foreign = 0;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    if ((*it)->facts.empty()) continue;
    if ((*it)->facts_format != format) {
      ++foreign;
      continue;
    }
    for (const auto& entry : (*it)->facts) {
      if (seen.insert(entry.first).second) out.push_back(entry);
    }
  }
  if (foreign > 0) {
    warnings.push_back(fmt::format("shared cache: {} file(s) hold facts of another impact version ({}); their facts "
                                   "are not used (their durations are)",
                                   foreign, format));
  }
  return out;
}

// The view's flake events for pull_flakes: a listed segment file the base did not absorb is live.
RemoteFlakes flakes_of(const RemoteView& view) {
  RemoteFlakes out;
  if (view.base) out.base = &view.base->flakes;
  out.no_base = view.no_base;
  for (const auto& s : view.segments) out.segments.emplace_back(s.id, &s.flakes);
  out.live = view.listed;
  if (view.base) {
    for (const auto& id : view.base->absorbed) out.live.erase(id);
  }
  return out;
}

// <remote>/compact.lock, created exclusively and removed when the object goes.
class CompactLock {
public:
  explicit CompactLock(const std::filesystem::path& remote) : m_path(remote / "compact.lock") {
    std::error_code ec;
    std::filesystem::create_directories(remote, ec);
    for (int attempt = 0; attempt < 2; ++attempt) {
      int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd >= 0) {
        std::string note = fmt::format("pid {} at {}\n", ::getpid(), utc_now());
        [[maybe_unused]] ssize_t wrote = ::write(fd, note.data(), note.size()); // a note for people only
        ::close(fd);
        return;
      }
      if (errno != EEXIST) throw Error("cannot create {}: {}", util::quote_name(m_path.string()), std::strerror(errno));
      auto written = std::filesystem::last_write_time(m_path, ec);
      auto age = std::chrono::duration_cast<std::chrono::seconds>(std::filesystem::file_time_type::clock::now() - written);
      if (ec || age.count() < k_stale_lock_seconds) {
        throw Error("{}: another compaction of this shared cache is running; wait for it to end, or delete the file "
                    "if none is (a lock older than {} s is taken over)",
                    util::quote_name(m_path.string()), k_stale_lock_seconds);
      }
      std::filesystem::remove(m_path, ec); // a compaction that was killed left it
    }
    throw Error("{}: cannot take the compaction lock; delete the file if no compaction runs",
                util::quote_name(m_path.string()));
  }
  ~CompactLock() {
    std::error_code ec;
    std::filesystem::remove(m_path, ec);
  }
  CompactLock(const CompactLock&) = delete;
  CompactLock& operator=(const CompactLock&) = delete;

private:
  std::filesystem::path m_path;
};

} // namespace

std::filesystem::path remote_base(const std::filesystem::path& remote) { return remote / "base.seg"; }
std::filesystem::path remote_segments(const std::filesystem::path& remote) { return remote / "segments"; }

PullSummary pull_remote(const std::filesystem::path& remote, const std::filesystem::path& cache,
                        std::vector<std::string>& warnings) {
  PullSummary out;
  RemoteView view = read_remote(remote, warnings);
  out.base = view.base.has_value();
  out.segments = view.segments.size();
  std::vector<const Segment*> files = files_of(view);
  if (files.empty()) return out;

  Durations local = load_durations(cache, warnings);
  for (const auto& [test, d] : newest_durations(files)) {
    auto it = local.find(std::string(test));
    if (it != local.end() && it->second.at >= d.at) continue; // the local record is as new or newer
    local[std::string(test)] = DurationRecord{d.seconds, std::string(d.at)};
    ++out.durations;
  }
  util::ensure_cache_dir(cache);
  if (out.durations > 0) save_durations(cache, local);
  std::vector<FactsEntry> facts = facts_of(files, warnings);
  out.facts = add_cache_facts(cache, facts);
  std::vector<std::string_view> indexes;
  for (const Segment* file : files) {
    if (!file->coverage.empty()) indexes.push_back(file->coverage);
  }
  if (!indexes.empty()) {
    std::string merged = union_coverage(indexes, cache, true, warnings);
    if (!merged.empty()) save_coverage(cache, merged);
    out.indexes = indexes.size();
  }
  SharedFlakes record = load_shared_flakes(cache, warnings);
  SharedFlakes before = record;
  Flakes added = pull_flakes(record, flakes_of(view));
  out.flakes = added.size();
  // The record first: a pull cut short between the two writes loses its passes rather than counting
  // them twice.
  if (record != before) save_shared_flakes(cache, record);
  if (!added.empty()) {
    Flakes local_flakes = load_flakes(cache, warnings);
    add_flakes(local_flakes, added);
    save_flakes(cache, local_flakes);
  }
  return out;
}

PushSummary push_segment(const std::filesystem::path& remote, const std::filesystem::path& cache, const std::string& since,
                         const Flakes& flakes_before, std::vector<std::string>& warnings) {
  Segment segment;
  Durations local = load_durations(cache, warnings); // merges the run's files, and their flaky passes
  segment.flakes = flakes_added(flakes_before, load_flakes(cache, warnings));
  for (const auto& [test, record] : local) {
    if (record.at >= since) segment.durations.push_back({test, record.seconds, record.at});
  }
  // Only what the remote lacks: a run after a pull pushes the facts of the files it parsed.
  FactsEntries local_facts = read_cache_facts(cache);
  std::vector<std::string> ignored; // the remote's own problems are the pull's to report
  RemoteView view = read_remote(remote, ignored);
  std::string format = facts_exchange_format();
  std::unordered_set<std::string_view> held;
  for (const Segment* file : files_of(view)) {
    if (file->facts_format != format) continue;
    for (const auto& entry : file->facts) held.insert(entry.first);
  }
  for (const auto& entry : local_facts.entries) {
    if (!held.contains(entry.first)) segment.facts.push_back(entry);
  }
  std::string coverage = coverage_to_push(cache, since);
  segment.coverage = coverage;
  PushSummary out;
  out.durations = segment.durations.size();
  out.facts = segment.facts.size();
  out.coverage = !coverage.empty();
  out.flakes = segment.flakes.size();
  if (segment.durations.empty() && segment.facts.empty() && coverage.empty() && segment.flakes.empty()) return out;
  segment.id = new_segment_id();
  segment.facts_format = format;
  out.id = segment.id;
  util::write_file_atomic(remote_segments(remote) / (segment.id + std::string(k_suffix)), encode_segment(segment));
  if (!segment.flakes.empty()) {
    // Its events are in flakes.json already: a pull of this segment, or of a base that absorbs it, must
    // not add them again.
    SharedFlakes record = load_shared_flakes(cache, warnings);
    record.segments[segment.id] = segment.flakes;
    save_shared_flakes(cache, record);
  }
  return out;
}

CompactSummary compact_remote(const std::filesystem::path& remote, std::vector<std::string>& warnings) {
  CompactLock lock(remote);
  size_t before = warnings.size();
  RemoteView view = read_remote(remote, warnings);
  CompactSummary out;
  out.skipped = warnings.size() - before;
  std::vector<const Segment*> files = files_of(view);

  Segment base;
  base.base = true;
  base.id = new_segment_id();
  base.facts_format = facts_exchange_format();
  std::set<std::string> absorbed;
  for (const auto& s : view.segments) absorbed.insert(s.id);
  // The old base's ids whose files are still listed (a prune that failed, a sync that restored them),
  // and those pushed in the last k_absorbed_keep_days (a job that synced a segment down before a
  // compaction may sync it back up after the next one): kept, so that no pull reads them twice, and no
  // compaction folds them twice (a segment's flaky passes would then be summed twice). Older ids whose
  // files are gone are dropped, and the list stays short.
  std::string keep_from = segment_id_stamp(std::chrono::system_clock::now() - std::chrono::days(k_absorbed_keep_days));
  if (view.base) {
    for (const auto& id : view.base->absorbed) {
      if (view.listed.contains(id) || id >= keep_from) absorbed.insert(id);
    }
  }
  base.absorbed.assign(absorbed.begin(), absorbed.end());
  std::error_code ec;
  auto durations = newest_durations(files);
  base.durations.reserve(durations.size());
  for (const auto& [test, d] : durations) base.durations.push_back(d);
  std::sort(base.durations.begin(), base.durations.end(),
            [](const SegmentDuration& a, const SegmentDuration& b) { return a.test < b.test; });
  size_t bytes = 0;
  for (const auto& entry : facts_of(files, warnings)) {
    if (bytes + entry.second.size() > k_base_facts_bytes) break; // the oldest go first
    bytes += entry.second.size();
    base.facts.push_back(entry);
  }
  std::vector<std::string_view> indexes;
  for (const Segment* file : files) {
    if (!file->coverage.empty()) indexes.push_back(file->coverage);
  }
  std::string coverage;
  if (!indexes.empty()) { // unioned in a folder of this machine: a synced remote must not see the work files
    std::filesystem::path work = std::filesystem::temp_directory_path() / fmt::format("impact-compact-{}", ::getpid());
    coverage = union_coverage(indexes, work, false, warnings);
    std::filesystem::remove_all(work, ec);
  }
  base.coverage = coverage;
  for (const Segment* file : files) add_flakes(base.flakes, file->flakes); // summed: each segment's once
  out.durations = base.durations.size();
  out.facts = base.facts.size();
  out.flakes = base.flakes.size();
  util::write_file_atomic(remote_base(remote), encode_segment(base));
  // Only now: a pull that listed a segment and finds it gone reads it from the new base.
  for (const auto& id : base.absorbed) {
    if (!view.listed.contains(id)) continue; // kept for a while, but its file is long gone
    std::filesystem::remove(remote_segments(remote) / (id + std::string(k_suffix)), ec);
    out.pruned.push_back("segments/" + id + std::string(k_suffix));
  }
  out.absorbed = view.segments.size();
  return out;
}

} // namespace impact::app
