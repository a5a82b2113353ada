#include "report/shards_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace impact::report {

namespace {

using nlohmann::json;

double seconds_of(const StrictValue& v) {
  double s = v.number();
  if (!std::isfinite(s) || s < 0) v.fail("expected a number of seconds, 0 or more");
  return s;
}

std::string id_of(const StrictValue& v) {
  std::string id = v.string();
  if (id.empty()) v.fail("an id is empty");
  if (id.front() == '-') v.fail(fmt::format("id '{}' would be read by pytest as an option", id));
  if (id.front() == '/') v.fail(fmt::format("id '{}' names an absolute path; ids are relative to the repository", id));
  for (char c : id) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) v.fail("an id holds a control character");
  }
  std::string_view path = std::string_view(id).substr(0, id.find("::"));
  for (size_t at = 0; at <= path.size();) {
    size_t slash = path.find('/', at);
    if (path.substr(at, slash == std::string_view::npos ? std::string_view::npos : slash - at) == "..") {
      v.fail(fmt::format("id '{}' leads out of the repository (..)", id));
    }
    if (slash == std::string_view::npos) break;
    at = slash + 1;
  }
  return id;
}

} // namespace

json shard_plan_json(const std::optional<ShardPlan>& plan) {
  if (!plan) return nullptr;
  json units = json::array();
  for (const auto& u : plan->units) units.push_back({{"id", u.id}, {"seconds", u.seconds}, {"estimated", u.estimated}});
  json shard = nullptr;
  if (plan->choice) {
    json parts = json::array();
    for (const auto& s : plan->shards) parts.push_back({{"ids", s.ids}, {"seconds", s.seconds}});
    shard = {{"index", plan->choice->index},
             {"total", plan->choice->total},
             {"source", plan->choice->source},
             {"shards", parts}};
  }
  return {{"suite", plan->suite},
          {"median", plan->median},
          {"fingerprint", plan->fingerprint},
          {"units", units},
          {"shard", shard}};
}

std::optional<ShardPlan> shard_plan_of(const StrictValue& v, const Decision& decision) {
  if (v.is_null()) return std::nullopt;
  StrictObject o = v.object({"suite", "median", "fingerprint", "units", "shard"});
  ShardPlan plan;
  size_t suite = o["suite"].one_of({"selection", "static", "collect-only"});
  plan.suite = suite == 0 ? "selection" : suite == 1 ? "static" : "collect-only";
  std::set<std::string> seen;
  for (const auto& u : o["units"].array()) {
    StrictObject unit = u.object({"id", "seconds", "estimated"});
    ShardUnit parsed{id_of(unit["id"]), seconds_of(unit["seconds"]), unit["estimated"].boolean()};
    if (!seen.insert(parsed.id).second) unit["id"].fail(fmt::format("id '{}' is listed twice", parsed.id));
    plan.units.push_back(std::move(parsed));
  }
  plan.median = seconds_of(o["median"]);
  plan.fingerprint = o["fingerprint"].string();
  if (plan.fingerprint != plan_fingerprint(plan.units)) {
    o["fingerprint"].fail(fmt::format("'{}' is not the fingerprint of $.durations.units ({}): the units were edited",
                                      plan.fingerprint, plan_fingerprint(plan.units)));
  }
  if (decision.outcome == Outcome::nothing) v.fail("must be null when $.decision is \"nothing\"");
  // A selection's units may differ from $.selected (a test taken out by hand): the replay weighs each
  // selected id by its unit, or by the median when it has none.
  if (decision.outcome == Outcome::selected) {
    if (plan.suite != "selection") o["suite"].fail("must be \"selection\" when $.decision is \"selected\"");
  } else if (plan.suite == "selection") {
    o["suite"].fail("\"selection\" names the selected node ids, but $.decision is \"run_all\"");
  }
  if (!o["shard"].is_null()) { // what the run that wrote it showed: checked for its shape, not used
    StrictObject shard = o["shard"].object({"index", "total", "source", "shards"});
    int64_t total = shard["total"].integer(1);
    shard["index"].integer(1);
    shard["source"].string();
    auto parts = shard["shards"].array();
    if (static_cast<int64_t>(parts.size()) != total) shard["shards"].fail("expected one entry per shard");
    for (const auto& part : parts) {
      StrictObject p = part.object({"ids", "seconds"});
      p["ids"].strings();
      seconds_of(p["seconds"]);
    }
  }
  return plan;
}

} // namespace impact::report
