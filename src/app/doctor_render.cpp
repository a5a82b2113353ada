// `impact doctor`'s report: a line per check for people, or the impact.doctor JSON document
// (docs/json.md).
#include "app/doctor.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace impact::app {

namespace {

constexpr size_t k_items_shown = 10;

size_t count(const std::vector<Check>& checks, CheckStatus status) {
  return static_cast<size_t>(
      std::count_if(checks.begin(), checks.end(), [&](const Check& c) { return c.status == status; }));
}

} // namespace

std::string render_doctor_text(const std::vector<Check>& checks) {
  std::string out;
  for (const auto& c : checks) {
    out += fmt::format("{:<4}  {:<15}  {}\n", to_string(c.status), c.id, c.what);
    for (const auto& item : capped(c.items, k_items_shown)) out += fmt::format("      {:<15}  - {}\n", "", item);
    if (!c.fix.empty()) out += fmt::format("      {:<15}  fix: {}\n", "", c.fix);
  }
  size_t fails = count(checks, CheckStatus::fail), warns = count(checks, CheckStatus::warn);
  if (fails + warns == 0) out += fmt::format("all {} checks passed\n", checks.size());
  else out += fmt::format("{} to fix: {} fail, {} warn (of {} checks)\n", fails + warns, fails, warns, checks.size());
  return out;
}

std::string render_doctor_json(const std::vector<Check>& checks) {
  using json = nlohmann::ordered_json;
  json list = json::array();
  for (const auto& c : checks) {
    json entry = {{"id", c.id},
                  {"status", std::string(to_string(c.status))},
                  {"what", c.what},
                  {"fix", c.fix.empty() ? json(nullptr) : json(c.fix)},
                  {"items", c.items}};
    for (const auto& [name, values] : c.lists) entry[name] = values;
    list.push_back(std::move(entry));
  }
  bool healthy = count(checks, CheckStatus::fail) + count(checks, CheckStatus::warn) == 0;
  json doc = {{"schema", "impact.doctor"}, {"version", 1}, {"healthy", healthy}, {"checks", list}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace impact::app
