// What an index records of the environment it ran in, what moved since, and a cache of the installed
// environment keyed by the state of its folders (docs/coverage.md, "The installed environment").
#include "impact/environment.hpp"

#include "util/files.hpp"

#include <nlohmann/json.hpp>

#include <set>

namespace impact {

namespace fs = std::filesystem;

namespace {

constexpr int k_cache_format = 1;

// A folder's or file's modification time in nanoseconds, or -1 when it cannot be read. pip, apt and
// uv add and remove *.dist-info folders on every install, upgrade and removal, which changes the
// modification time of the folder that holds them.
int64_t mtime_of(const fs::path& p) {
  std::error_code ec;
  auto t = fs::last_write_time(p, ec);
  if (ec) return -1;
  return static_cast<int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

nlohmann::json to_json(const Distribution& d) {
  return {{"name", d.name}, {"version", d.version}, {"import_names", d.import_names},
          {"requirements", d.requirements}, {"extra_requirements", d.extra_requirements}, {"pytest_plugin", d.pytest_plugin}};
}

Distribution from_json(const nlohmann::json& j) {
  Distribution d;
  d.name = j.at("name").get<std::string>();
  d.version = j.at("version").get<std::string>();
  d.import_names = j.at("import_names").get<std::vector<std::string>>();
  d.requirements = j.at("requirements").get<std::vector<std::string>>();
  d.extra_requirements = j.at("extra_requirements").get<std::vector<std::string>>();
  d.pytest_plugin = j.at("pytest_plugin").get<bool>();
  return d;
}

// The cached environment, when the interpreter, PYTHONPATH and every folder it was read from are as
// they were.
std::optional<Environment> cached(const fs::path& cache_file, const std::string& interpreter, const std::string& pythonpath) {
  auto read = util::read_regular_file(cache_file);
  if (read.content.empty()) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(read.content);
    if (j.at("format").get<int>() != k_cache_format || j.at("interpreter").get<std::string>() != interpreter ||
        j.at("pythonpath").get<std::string>() != pythonpath || j.at("interpreter_mtime").get<int64_t>() != mtime_of(interpreter)) {
      return std::nullopt;
    }
    Environment env;
    for (const auto& dir : j.at("site_dirs")) {
      fs::path p = dir.at("path").get<std::string>();
      if (mtime_of(p) != dir.at("mtime").get<int64_t>()) return std::nullopt;
      env.site_dirs.push_back(p);
    }
    for (const auto& d : j.at("distributions")) {
      Distribution dist = from_json(d);
      env.distributions.emplace(dist.name, std::move(dist));
    }
    return env;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt; // damaged or of another version: read the environment again
  }
}

} // namespace

std::optional<Environment> read_environment_cached(const std::string& interpreter, const fs::path& cwd,
                                                   const fs::path& cache_file, const std::string& pythonpath) {
  if (auto env = cached(cache_file, interpreter, pythonpath)) return env;
  auto dirs = site_dirs_of(interpreter, cwd);
  if (!dirs) return std::nullopt;
  Environment env = read_environment(*dirs);
  nlohmann::json j{{"format", k_cache_format}, {"interpreter", interpreter}, {"pythonpath", pythonpath},
                   {"interpreter_mtime", mtime_of(interpreter)}};
  j["site_dirs"] = nlohmann::json::array();
  for (const auto& dir : env.site_dirs) j["site_dirs"].push_back({{"path", dir.string()}, {"mtime", mtime_of(dir)}});
  j["distributions"] = nlohmann::json::array();
  for (const auto& [name, d] : env.distributions) j["distributions"].push_back(to_json(d));
  try {
    util::write_file_atomic(cache_file, j.dump());
  } catch (const std::exception&) {
    // A cache that cannot be written is read again next time: nothing is lost.
  }
  return env;
}

std::map<std::string, std::string> versions_of(const Environment& env) {
  std::map<std::string, std::string> out;
  for (const auto& [name, d] : env.distributions) out.emplace(name, d.version);
  return out;
}

std::vector<MovedDistribution> environment_drift(const std::map<std::string, std::string>& recorded,
                                                 const std::map<std::string, std::string>& now) {
  std::set<std::string> names;
  for (const auto* side : {&recorded, &now}) {
    for (const auto& [name, version] : *side) names.insert(name);
  }
  std::vector<MovedDistribution> out;
  for (const auto& name : names) {
    auto a = recorded.find(name);
    auto b = now.find(name);
    std::string before = a == recorded.end() ? "" : a->second;
    std::string after = b == now.end() ? "" : b->second;
    bool same = (a == recorded.end()) == (b == now.end()) && before == after;
    if (!same) out.push_back(MovedDistribution{name, before, after});
  }
  return out;
}

} // namespace impact
