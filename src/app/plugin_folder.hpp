#pragma once
// A pytest plugin that impact writes for one run (the audit's outcomes, the index's whole-suite
// probe): its module in a fresh folder of the system's temporary folder ($TMPDIR), outside the
// repository (coverage.py measures every file under it), put on PYTHONPATH and loaded with -p.
#include <filesystem>
#include <string>
#include <vector>

namespace impact {

class PluginFolder {
public:
  // Creates the folder (named `prefix` and a unique tail) and writes `module`.py holding `source`.
  // Throws impact::Error when it cannot.
  PluginFolder(const std::string& prefix, std::string module, const char* source);
  ~PluginFolder(); // removes the folder and what the run wrote in it
  PluginFolder(const PluginFolder&) = delete;
  PluginFolder& operator=(const PluginFolder&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  const std::string& module() const { return m_module; }
  // The arguments that load the plugin: -p <module>.
  std::vector<std::string> pytest_args() const { return {"-p", m_module}; }
  // PYTHONPATH for the run: the folder in front of `current` (the environment's, may be empty).
  std::string pythonpath(const std::string& current) const;

private:
  std::filesystem::path m_path;
  std::string m_module;
};

} // namespace impact
