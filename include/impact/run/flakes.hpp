#pragma once
#ifdef IMPACT_FORBID_RUN // defined for the stages that may not use run (src/CMakeLists.txt)
#error "this stage may not use run (docs/architecture.md, allowed edges)"
#endif
// Flaky passes (docs/cache.md, "Flakes"): tests that passed only on rerun (pytest-rerunfailures'
// --reruns, @pytest.mark.flaky), as impact's pytest plugin saw them, counted in the cache's sparse
// flakes.json: a test is in it once it has passed on rerun, never for passing or failing alone.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

// How often a test passed only on rerun, over the runs merged into the cache, and the UTC time of
// the last run it did (ISO 8601 with microseconds and a Z, as DurationRecord::at).
struct FlakeRecord {
  long long passes = 0;
  std::string last;

  bool operator==(const FlakeRecord&) const = default;
};

// Flaky passes by repository-relative node id.
using Flakes = std::map<std::string, FlakeRecord>;

std::filesystem::path flakes_file(const std::filesystem::path& cache);

// Adds `incoming` to `into`: per test, the passes summed and the later `last` kept. Each run's
// events are added once: the inbox file that carried them is removed when it is merged.
void add_flakes(Flakes& into, const Flakes& incoming);

// flakes.json's text, and back. parse_flakes throws impact::Error naming `name`.
std::string render_flakes(const Flakes& flakes);
Flakes parse_flakes(std::string_view text, const std::string& name);

// The flaky passes of one run file of the plugin (its optional "flaky": {id: passes}), each last seen
// at the run's "at". Empty when it has none. Throws impact::Error naming `name` when the member is
// there but is not such a map (the caller has checked the rest of the file).
Flakes parse_run_flakes(std::string_view text, const std::string& name);

// The cache's flakes.json; empty when there is none. A file that cannot be read adds a line to
// `warnings` and reads as empty (the next merge rewrites it). Never throws.
Flakes load_flakes(const std::filesystem::path& cache, std::vector<std::string>& warnings);

// Writes `flakes` as the cache's flakes.json (temp file and rename). Throws impact::Error.
void save_flakes(const std::filesystem::path& cache, const Flakes& flakes);

} // namespace impact
