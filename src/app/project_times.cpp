// The projects' last wall times (project_times.hpp): a small versioned JSON file in the cache folder.
#include "app/project_times.hpp"

#include "util/files.hpp"

#include <nlohmann/json.hpp>

namespace impact::app {

namespace {
constexpr const char* k_schema = "impact.project-times";
}

std::filesystem::path project_times_file(const std::filesystem::path& cache_dir) {
  return cache_dir / "project-times.json";
}

std::map<std::string, double> read_project_times(const std::filesystem::path& file) {
  std::map<std::string, double> out;
  auto text = util::read_file(file);
  if (!text) return out;
  auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || doc.value("schema", "") != k_schema || !doc.contains("seconds") || !doc["seconds"].is_object()) {
    return out;
  }
  for (const auto& [project, seconds] : doc["seconds"].items()) {
    if (seconds.is_number()) out[project] = seconds.get<double>();
  }
  return out;
}

void write_project_times(const std::filesystem::path& file, const std::map<std::string, double>& times) {
  nlohmann::ordered_json doc = {{"schema", k_schema}, {"version", 1}, {"seconds", times}};
  util::write_file_atomic(file, doc.dump(2) + "\n");
}

} // namespace impact::app
