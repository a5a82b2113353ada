// Flake events in the shared cache (cache_flakes.hpp, docs/cache.md "Flakes in the shared cache").
#include "app/cache_flakes.hpp"

#include "impact/error.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace impact::app {

namespace {

using nlohmann::json;

constexpr const char* k_schema = "impact.flakes.shared";
constexpr int k_version = 1;

// {"<node id>": {"passes_on_rerun": n, "last": "<UTC>"}}, as flakes.json's "tests".
json tests_json(const Flakes& flakes) {
  json out = json::object();
  for (const auto& [id, r] : flakes) out[id] = {{"passes_on_rerun", r.passes}, {"last", r.last}};
  return out;
}

Flakes tests_of(const json& tests, const std::string& name, const std::string& where) {
  if (!tests.is_object()) throw Error("{}: {} is not an object; delete it with flakes.json", name, where);
  Flakes out;
  for (const auto& [id, r] : tests.items()) {
    if (!r.is_object() || !r.contains("passes_on_rerun") || !r["passes_on_rerun"].is_number_integer() ||
        r["passes_on_rerun"].get<long long>() < 1 || !r.contains("last") || !r["last"].is_string()) {
      throw Error("{}: {}[{}] is not {{\"passes_on_rerun\": n >= 1, \"last\"}}; delete it with flakes.json", name,
                  where, id);
    }
    out[id] = FlakeRecord{r["passes_on_rerun"].get<long long>(), r["last"].get<std::string>()};
  }
  return out;
}

} // namespace

std::filesystem::path shared_flakes_file(const std::filesystem::path& cache) { return cache / "flakes-shared.json"; }

std::string render_shared_flakes(const SharedFlakes& record) {
  json segments = json::object();
  for (const auto& [id, flakes] : record.segments) segments[id] = tests_json(flakes);
  json doc = {{"schema", k_schema}, {"version", k_version}, {"base", tests_json(record.base)}, {"segments", segments}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

SharedFlakes parse_shared_flakes(std::string_view text, const std::string& name) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("schema", "") != k_schema ||
      doc.value("version", 0) != k_version || !doc.contains("base") || !doc.contains("segments") ||
      !doc["segments"].is_object()) {
    throw Error("{}: not {} version {}; delete it with flakes.json", name, k_schema, k_version);
  }
  SharedFlakes out;
  out.base = tests_of(doc["base"], name, "$.base");
  for (const auto& [id, tests] : doc["segments"].items()) {
    out.segments[id] = tests_of(tests, name, fmt::format("$.segments[{}]", id));
  }
  return out;
}

SharedFlakes load_shared_flakes(const std::filesystem::path& cache, std::vector<std::string>& warnings) {
  auto file = shared_flakes_file(cache);
  auto text = util::read_file(file);
  if (!text) return {};
  try {
    return parse_shared_flakes(*text, file.string());
  } catch (const Error& e) {
    warnings.push_back(fmt::format("{}; a pull now adds the shared cache's flaky passes again", e.what()));
    return {};
  }
}

void save_shared_flakes(const std::filesystem::path& cache, const SharedFlakes& record) {
  util::write_file_atomic(shared_flakes_file(cache), render_shared_flakes(record));
}

Flakes flakes_added(const Flakes& before, const Flakes& after) {
  Flakes out;
  for (const auto& [id, record] : after) {
    auto it = before.find(id);
    long long passes = record.passes - (it == before.end() ? 0 : it->second.passes);
    if (passes > 0) out[id] = FlakeRecord{passes, record.last};
  }
  return out;
}

Flakes pull_flakes(SharedFlakes& record, const RemoteFlakes& remote) {
  Flakes added;
  if (remote.base) {
    // The base grew by the segments compacted since it was last read. Those this cache counted one by
    // one (their files are gone from the folder, or the base lists them as absorbed) are already in
    // flakes.json: only the rest of the growth is new.
    Flakes held = record.base;
    for (auto it = record.segments.begin(); it != record.segments.end();) {
      if (remote.live.contains(it->first)) {
        ++it;
        continue;
      }
      add_flakes(held, it->second);
      it = record.segments.erase(it);
    }
    add_flakes(added, flakes_added(held, *remote.base));
    record.base = *remote.base;
  } else if (remote.no_base) {
    std::erase_if(record.segments, [&](const auto& counted) { return !remote.live.contains(counted.first); });
  }
  for (const auto& [id, events] : remote.segments) {
    if (events->empty() || record.segments.contains(id)) continue;
    add_flakes(added, *events);
    record.segments.emplace(id, *events);
  }
  return added;
}

} // namespace impact::app
