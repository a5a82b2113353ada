#pragma once
// Rule `dependency-pins` (docs/selection.md): from the distributions a pin change moves to the
// top-level modules the repository may import from them, or the reason everything must run.
#include "impact/pins.hpp"
#include "impact/environment.hpp"
#include "impact/vocabulary.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace impact::decision {

struct PinAnswer {
  // A reason to run everything, for people ("uv.lock: pytest-cov is a pytest plugin"); empty when the
  // modules below bound the change.
  std::string run_all;
  // One group per moved distribution: the top-level modules it and the installed distributions that
  // depend on it provide. A group none of whose modules the repository imports is uncertain: the
  // caller runs everything for it outside fast mode.
  struct Group {
    RepoPath path;            // the pin file
    std::string distribution; // normalized
    std::map<std::string, std::string> modules; // top-level module -> the distribution installing it
  };
  std::vector<Group> groups;
  // What fast mode let pass without selecting (a distribution not installed).
  std::vector<std::string> warnings;
};

// `env` is the installed environment, or nullptr when it could not be read. `fast`: fast mode (an
// unknown distribution selects nothing, with a warning, instead of running everything).
PinAnswer pinned_modules(const std::vector<PinChange>& changes, const Environment* env, bool fast);

} // namespace impact::decision
