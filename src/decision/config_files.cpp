// docs/selection.md `config-files`: the files that configure the interpreter, the dependencies or
// pytest itself; a change to one widens the decision to a full run.
#include "impact/decision.hpp"
#include "impact/pins.hpp"

#include <array>

namespace impact {

bool is_config_file(const RepoPath& path) {
  static constexpr std::array<std::string_view, 15> k_names = {
      "pytest.ini",  ".pytest.ini",  "pyproject.toml", "setup.cfg",  "tox.ini",
      "setup.py",    "Pipfile",      "Pipfile.lock",   "poetry.lock", "pdm.lock",
      "uv.lock",     "environment.yml", "environment.yaml", "conda-lock.yml", ".python-version"};
  std::string_view name = path.filename();
  for (auto n : k_names) {
    if (name == n) return true;
  }
  // requirements.txt, requirements-dev.in, constraints.txt, requirements/test.txt
  return pin_file_kind(path) == PinFile::requirements;
}

} // namespace impact
