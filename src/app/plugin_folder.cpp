// PluginFolder: a pytest plugin written for one run, on PYTHONPATH.
#include "app/plugin_folder.hpp"

#include "impact/error.hpp"
#include "util/files.hpp"

#include <stdlib.h>

#include <system_error>

namespace impact {

PluginFolder::PluginFolder(const std::string& prefix, std::string module, const char* source)
    : m_module(std::move(module)) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error("cannot create a temporary folder under {}; set TMPDIR to a writable folder",
                std::filesystem::temp_directory_path().string());
  }
  m_path = pattern;
  util::write_file_atomic(m_path / (m_module + ".py"), source);
}

PluginFolder::~PluginFolder() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

std::string PluginFolder::pythonpath(const std::string& current) const {
  return current.empty() ? m_path.string() : m_path.string() + ":" + current;
}

} // namespace impact
