// libFuzzer target: the configuration files impact reads, over arbitrary bytes: pyproject.toml
// ([tool.pytest.ini_options], [tool.impact], entry points), pytest.ini, .pytest.ini, tox.ini and
// setup.cfg (the INI reader), PYTEST_ADDOPTS and PYTEST_PLUGINS (the shell splitter).
// Input: one byte choosing the file, then its text; after a NUL, PYTEST_ADDOPTS; after another,
// PYTEST_PLUGINS. A malformed file must be refused with impact::Error (one line, exit 2); any other
// exception or a crash is a bug.
#include "impact/config.hpp"
#include "impact/error.hpp"
#include "impact/project.hpp"
#include "util/ini.hpp"

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace {

constexpr std::array<const char*, 5> k_files = {"pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg"};

// A folder of this process's own, holding the one file of the current input.
const std::filesystem::path& root() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("impact-config-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

std::string_view take_until_nul(std::string_view& rest) {
  size_t nul = rest.find('\0');
  std::string_view out = rest.substr(0, nul);
  rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const char* file = k_files[data[0] % k_files.size()];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string_view text = take_until_nul(rest);
  std::string addopts(take_until_nul(rest));
  std::string plugins(rest);

  std::string error;
  impact::util::parse_ini(text, error);
  impact::util::shell_split(text);

  for (const char* name : k_files) std::filesystem::remove(root() / name);
  {
    std::ofstream out(root() / file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  try {
    impact::read_pytest_config(root(), addopts, plugins);
  } catch (const impact::Error&) {
  }
  try {
    impact::load_impact_config(root(), [](const char*) { return std::optional<std::string>(); });
  } catch (const impact::Error&) {
  }
  try {
    impact::parse_argv_json(std::string(text), "IMPACT_FALLBACK_COMMAND");
  } catch (const impact::Error&) {
  }
  return 0;
}
