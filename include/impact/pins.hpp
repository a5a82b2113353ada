#pragma once
#ifdef IMPACT_FORBID_CONFIG // defined for the stages that may not use config (src/CMakeLists.txt)
#error "this stage may not use config (docs/architecture.md)"
#endif
// Dependency pins: which distributions a change to a requirements file, a lockfile or the dependency
// arrays of pyproject.toml moves (docs/selection.md, `dependency-pins`). Only the files' text is read
// here; what the distributions are called when imported is the installed environment's to say.
#include "impact/vocabulary.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

enum class PinFile {
  none,
  requirements, // requirements*.txt/.in, constraints*.txt, requirements/*.txt: one requirement per line
  uv_lock,      // uv.lock: [[package]] with dependencies = [{ name = ... }]
  poetry_lock,  // poetry.lock: [[package]] with [package.dependencies]
  pdm_lock,     // pdm.lock: [[package]] with dependencies = ["name>=1"]
  pipfile_lock, // Pipfile.lock: JSON, "default" and "develop" by name, no dependency graph
};

PinFile pin_file_kind(const RepoPath& path);

// A distribution name as PEP 503 compares them: lower case, runs of '-', '_' and '.' as one '-'.
std::string normalize_distribution(std::string_view name);

// The name of a PEP 508 requirement ("Foo.Bar[x]>=1; python_version<'3.9'" -> "foo-bar"), or "" when
// the text names no distribution (a URL, a path, an option).
std::string requirement_name(std::string_view requirement);

struct PinDiff {
  // Normalized names whose pin, markers, hashes or presence differ between the sides. Sorted, unique.
  std::vector<std::string> distributions;
  // For a lockfile with a dependency graph: each moved distribution's locked dependents, transitively
  // (what the project itself may import when it does not import the moved one). Sorted.
  std::map<std::string, std::vector<std::string>> dependents;
  bool has_graph = false; // `dependents` came from the lockfile's own graph
};

// The distributions a change of `path` from `before` to `after` (absent sides empty) moves; nullopt
// when a side cannot be read or a changed line is not a requirement of a named distribution (an
// include, an index URL, an editable path): then nothing can be said by distribution.
std::optional<PinDiff> pin_diff(PinFile kind, std::string_view before, std::string_view after);

// One changed file that pins dependencies (a requirements file, a lockfile, or pyproject.toml's
// dependency lists), read by distribution (nullopt: it could not be).
struct PinChange {
  RepoPath path;
  std::optional<PinDiff> diff;
};

// The same for two lists of requirement strings ([project] dependencies, an optional-dependencies
// group, a [dependency-groups] group); nullopt when a changed entry names no distribution.
std::optional<PinDiff> requirement_list_diff(const std::vector<std::string>& before,
                                             const std::vector<std::string>& after);

} // namespace impact
