// The durations store of the cache folder (docs/cache.md): durations.json, merged from the files
// the plugin leaves in the inbox, newest value per test.
#include "impact/error.hpp"
#include "impact/run/durations.hpp"
#include "impact/run/flakes.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <system_error>

namespace impact {

namespace {

using nlohmann::json;

constexpr int k_version = 1;

double seconds_of(const json& value, const std::string& name, const std::string& id) {
  if (!value.is_number()) throw Error("{}: the duration of {} is not a number; {}", name, id, "delete the file");
  double s = value.get<double>();
  if (!std::isfinite(s) || s < 0) throw Error("{}: the duration of {} is not a number of seconds >= 0; delete the file", name, id);
  return s;
}

std::string utc_string(std::chrono::system_clock::time_point point) {
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(point.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(micros / 1000000);
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, micros % 1000000);
}

} // namespace

std::filesystem::path durations_file(const std::filesystem::path& cache) { return cache / "durations.json"; }
std::filesystem::path durations_inbox(const std::filesystem::path& cache) { return cache / "durations.d"; }
std::filesystem::path durations_plugin_dir(const std::filesystem::path& cache) { return cache / "plugin"; }

void merge_durations(Durations& into, const Durations& incoming) {
  for (const auto& [id, record] : incoming) {
    auto [it, fresh] = into.try_emplace(id, record);
    if (!fresh && record.at >= it->second.at) it->second = record;
  }
}

std::string render_durations(const Durations& durations) {
  json tests = json::object();
  for (const auto& [id, r] : durations) tests[id] = {{"seconds", r.seconds}, {"at", r.at}};
  json doc = {{"schema", "impact.durations"}, {"version", k_version}, {"tests", tests}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

Durations parse_durations(std::string_view text, const std::string& name) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw Error("{}: not a JSON object; delete it, the next run rebuilds it", name);
  if (doc.value("schema", "") != "impact.durations" || doc.value("version", 0) != k_version) {
    throw Error("{}: not impact.durations version {}; delete it, the next run rebuilds it", name, k_version);
  }
  Durations out;
  const json& tests = doc["tests"];
  if (!tests.is_object()) throw Error("{}: $.tests is not an object; delete it, the next run rebuilds it", name);
  for (const auto& [id, r] : tests.items()) {
    if (!r.is_object() || !r.contains("at") || !r["at"].is_string() || !r.contains("seconds")) {
      throw Error("{}: $.tests[{}] is not {{\"seconds\", \"at\"}}; delete it, the next run rebuilds it", name, id);
    }
    out[id] = DurationRecord{seconds_of(r["seconds"], name, id), r["at"].get<std::string>()};
  }
  return out;
}

Durations parse_run_file(std::string_view text, const std::string& name) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("schema", "") != "impact.durations.run" ||
      !doc.contains("at") || !doc["at"].is_string() || !doc.contains("tests") || !doc["tests"].is_object()) {
    throw Error("{}: not a run file of impact's durations plugin", name);
  }
  Durations out;
  std::string at = doc["at"].get<std::string>();
  for (const auto& [id, s] : doc["tests"].items()) out[id] = DurationRecord{seconds_of(s, name, id), at};
  return out;
}

Durations load_durations(const std::filesystem::path& cache, std::vector<std::string>& warnings) {
  Durations out;
  auto merged = durations_file(cache);
  bool broken = false; // rewritten below, so that the warning is said once
  if (auto text = util::read_file(merged)) {
    try {
      out = parse_durations(*text, merged.string());
    } catch (const Error& e) {
      warnings.push_back(fmt::format("{}; starting the durations afresh", e.what()));
      broken = true;
    }
  }
  std::error_code ec;
  std::vector<std::filesystem::path> read;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(durations_inbox(cache), ec)) {
    auto name = entry.path().filename().string();
    if (name.starts_with("run-") && name.ends_with(".json")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end()); // the same ties whatever order the folder lists them in
  Flakes flaky; // the runs' flaky passes (flakes.hpp), added to flakes.json once, as their files go
  for (const auto& file : files) {
    auto text = util::read_file(file);
    if (!text) continue; // another impact merged and removed it meanwhile
    try {
      Durations run = parse_run_file(*text, file.string());
      add_flakes(flaky, parse_run_flakes(*text, file.string()));
      merge_durations(out, run);
    } catch (const Error& e) {
      warnings.push_back(fmt::format("{}; removing it", e.what()));
    }
    read.push_back(file);
  }
  if (read.empty() && !broken) return out;
  if (!flaky.empty()) {
    Flakes all = load_flakes(cache, warnings);
    add_flakes(all, flaky);
    save_flakes(cache, all);
  }
  save_durations(cache, out);
  for (const auto& file : read) std::filesystem::remove(file, ec);
  return out;
}

void save_durations(const std::filesystem::path& cache, const Durations& durations) {
  util::write_file_atomic(durations_file(cache), render_durations(durations));
}

std::string utc_now() { return utc_string(std::chrono::system_clock::now()); }

std::string utc_of(const std::filesystem::file_time_type& time) {
  return utc_string(std::chrono::file_clock::to_sys(time));
}

} // namespace impact
