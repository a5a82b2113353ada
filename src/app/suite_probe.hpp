#pragma once
// The whole-suite probe of `impact index` (docs/coverage.md, "The whole suite"): a pytest plugin,
// loaded with -p, that reports whether the session ran every test of the suite. It changes nothing
// in the run; a report that is missing (the plugin did not load, pytest crashed) means "not whole".
#include "app/plugin_folder.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace impact {

class SuiteProbe {
public:
  // Writes the plugin module into a folder of its own in the system's temporary folder ($TMPDIR),
  // outside the repository. Throws impact::Error when it cannot be written.
  SuiteProbe();

  // The arguments that load it ("-p", its module).
  std::vector<std::string> pytest_args() const;
  // The environment the run needs: the plugin's folder in front of `pythonpath` (the current one),
  // and where to write the report.
  std::vector<std::pair<std::string, std::string>> env(const std::string& pythonpath) const;
  // Whether the plugin wrote its report (it loaded, and the session ended).
  bool reported() const;
  // After the run: whether it saw the whole suite, and if not, why ("-k was given; 2 collection
  // error(s)").
  std::pair<bool, std::string> verdict() const;
  // After the run: the absolute paths of the module files the session's processes (the main one and
  // every xdist worker) loaded, as imported and as resolved; nullopt when a process did not report.
  std::optional<std::vector<std::string>> loaded() const;
  // The node ids of the tests that skipped themselves in their call phase (`pytest.skip()` in the body).
  std::vector<std::string> skipped() const;

private:
  std::filesystem::path report() const { return m_folder.path() / "report"; }

  PluginFolder m_folder;
};

} // namespace impact
