// pytest's lastfailed record (last_failed.hpp).
#include "app/last_failed.hpp"

#include "util/files.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace impact {

std::vector<std::string> last_failed(const std::filesystem::path& repo_root, const PytestConfig& pytest,
                                     std::vector<std::string>& warnings) {
  std::filesystem::path rootdir = pytest.rootdir.empty() ? repo_root : repo_root / pytest.rootdir;
  std::filesystem::path file = rootdir / ".pytest_cache" / "v" / "cache" / "lastfailed";
  auto text = util::read_file(file);
  if (!text) return {};
  std::vector<std::string> out;
  try {
    auto record = nlohmann::json::parse(*text);
    if (!record.is_object()) throw nlohmann::json::type_error::create(302, "not an object", nullptr);
    // pytest writes ids relative to the rootdir.
    std::string prefix = pytest.rootdir.empty() ? std::string() : pytest.rootdir + "/";
    for (const auto& [id, failed] : record.items()) {
      if (!id.empty() && failed.is_boolean() && failed.get<bool>()) out.push_back(prefix + id);
    }
  } catch (const nlohmann::json::exception&) {
    warnings.push_back(fmt::format("{}: not pytest's lastfailed record (JSON object of node ids); "
                                   "--include-failed adds nothing from it (delete it, or run pytest again)",
                                   util::quote_name(std::filesystem::relative(file, repo_root).string())));
    return {};
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace impact
