// The flakes record of the cache folder (flakes.hpp, docs/cache.md "Flakes").
#include "impact/run/flakes.hpp"

#include "impact/error.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace impact {

namespace {

using nlohmann::json;

constexpr int k_version = 1;

long long passes_of(const json& value, const std::string& name, const std::string& id) {
  if (!value.is_number_integer() || value.get<long long>() < 1) {
    throw Error("{}: the flaky passes of {} are not a whole number >= 1; delete the file", name, id);
  }
  return value.get<long long>();
}

} // namespace

std::filesystem::path flakes_file(const std::filesystem::path& cache) { return cache / "flakes.json"; }

void add_flakes(Flakes& into, const Flakes& incoming) {
  for (const auto& [id, record] : incoming) {
    auto [it, fresh] = into.try_emplace(id, record);
    if (fresh) continue;
    it->second.passes += record.passes;
    if (record.last > it->second.last) it->second.last = record.last;
  }
}

std::string render_flakes(const Flakes& flakes) {
  json tests = json::object();
  for (const auto& [id, r] : flakes) tests[id] = {{"passes_on_rerun", r.passes}, {"last", r.last}};
  json doc = {{"schema", "impact.flakes"}, {"version", k_version}, {"tests", tests}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

Flakes parse_flakes(std::string_view text, const std::string& name) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("schema", "") != "impact.flakes" ||
      doc.value("version", 0) != k_version || !doc.contains("tests") || !doc["tests"].is_object()) {
    throw Error("{}: not impact.flakes version {}; delete it, the next flaky pass starts it again", name, k_version);
  }
  Flakes out;
  for (const auto& [id, r] : doc["tests"].items()) {
    if (!r.is_object() || !r.contains("passes_on_rerun") || !r.contains("last") || !r["last"].is_string()) {
      throw Error("{}: $.tests[{}] is not {{\"passes_on_rerun\", \"last\"}}; delete the file", name, id);
    }
    out[id] = FlakeRecord{passes_of(r["passes_on_rerun"], name, id), r["last"].get<std::string>()};
  }
  return out;
}

Flakes parse_run_flakes(std::string_view text, const std::string& name) {
  // The plugin writes the key only for a run with flaky passes: most run files, whose durations were
  // just parsed, need no second parse.
  if (text.find("\"flaky\"") == std::string_view::npos) return {};
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("flaky")) return {};
  const json& flaky = doc["flaky"];
  if (!flaky.is_object() || !doc.contains("at") || !doc["at"].is_string()) {
    throw Error("{}: $.flaky is not a map of node ids to flaky passes", name);
  }
  Flakes out;
  std::string at = doc["at"].get<std::string>();
  for (const auto& [id, passes] : flaky.items()) out[id] = FlakeRecord{passes_of(passes, name, id), at};
  return out;
}

Flakes load_flakes(const std::filesystem::path& cache, std::vector<std::string>& warnings) {
  auto file = flakes_file(cache);
  auto text = util::read_file(file);
  if (!text) return {};
  try {
    return parse_flakes(*text, file.string());
  } catch (const Error& e) {
    warnings.push_back(fmt::format("{}; starting the flakes record afresh", e.what()));
    return {};
  }
}

void save_flakes(const std::filesystem::path& cache, const Flakes& flakes) {
  util::write_file_atomic(flakes_file(cache), render_flakes(flakes));
}

} // namespace impact
