#pragma once
// Flake events in the shared cache (docs/cache.md, "Flakes in the shared cache"). flakes.json sums
// counts, so a pull must add each segment's events exactly once, whether it reads the segment itself
// or, after a compaction, the base that absorbed it. A segment carries its run's events; the base
// carries the sum of every segment it absorbed. The local cache keeps, in flakes-shared.json, the
// base's sum as it last added it and the events of each segment it counted one by one (pushed or
// pulled) that no base it read holds yet. A counted segment whose file a pull no longer lists (or the
// base lists as absorbed) is in the base now: the pull adds the base's growth minus those segments'
// events, and forgets them. So the record holds only the segments still in the remote's folder.
#include "impact/run/flakes.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace impact::app {

// What the local flakes.json holds of the shared cache's flake events.
struct SharedFlakes {
  Flakes base;                            // the base's sum when a pull last read a base
  std::map<std::string, Flakes> segments; // by segment id: counted one by one, in no base read since

  bool operator==(const SharedFlakes&) const = default;
};

std::filesystem::path shared_flakes_file(const std::filesystem::path& cache);

// flakes-shared.json's text, and back. parse_shared_flakes throws impact::Error naming `name`.
std::string render_shared_flakes(const SharedFlakes& record);
SharedFlakes parse_shared_flakes(std::string_view text, const std::string& name);

// The cache's record; empty when there is none. One that cannot be read adds a line to `warnings`
// and reads as empty (the next pull then adds the remote's events again). Never throws.
SharedFlakes load_shared_flakes(const std::filesystem::path& cache, std::vector<std::string>& warnings);

// Writes the record (temp file and rename). Throws impact::Error.
void save_shared_flakes(const std::filesystem::path& cache, const SharedFlakes& record);

// The events `after` holds beyond `before`: per test, the passes it adds, with its `last`. Tests whose
// count did not grow are left out.
Flakes flakes_added(const Flakes& before, const Flakes& after);

// The remote's flake events as one pull read them.
struct RemoteFlakes {
  const Flakes* base = nullptr; // the base's sum, when a base was read
  bool no_base = false;         // there is no base file at all (never compacted, or deleted)
  std::vector<std::pair<std::string, const Flakes*>> segments; // the readable segments the base did not absorb
  std::set<std::string> live; // ids of the segment files listed and not absorbed by the base, readable or not
};

// The events of `remote` that `record` shows the local flakes.json does not hold yet, to be added to
// it; updates `record` to match. Without a base, a counted segment no longer listed was
// deleted (no compaction holds it): forgotten, its events kept. With an unreadable base, the counted
// segments are kept until a base reads.
Flakes pull_flakes(SharedFlakes& record, const RemoteFlakes& remote);

} // namespace impact::app
