// The pure part of `impact doctor`: test node ids compared, grouped and capped for people.
#include "app/doctor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace impact::app {

std::string_view to_string(CheckStatus status) {
  switch (status) {
  case CheckStatus::ok: return "ok";
  case CheckStatus::warn: return "warn";
  case CheckStatus::fail: return "fail";
  }
  return "fail";
}

std::string without_parameters(std::string_view id) {
  // The parameters follow the last name: "t.py::test_a[x::y]" keeps "t.py::test_a" (an id may hold
  // "::" inside its brackets, never a "[" in the names before them).
  size_t last = id.rfind("::", id.find('['));
  size_t bracket = id.find('[', last == std::string_view::npos ? 0 : last);
  if (bracket == std::string_view::npos || !id.ends_with(']')) return std::string(id);
  return std::string(id.substr(0, bracket));
}

namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

} // namespace

IdDifference compare_test_ids(const std::vector<std::string>& impact, const std::vector<std::string>& pytest) {
  std::vector<std::string> ours = sorted_unique(impact);
  std::vector<std::string> theirs;
  theirs.reserve(pytest.size());
  for (const auto& id : pytest) theirs.push_back(without_parameters(id));
  theirs = sorted_unique(std::move(theirs));
  IdDifference out;
  std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(), std::back_inserter(out.only_impact));
  std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(), std::back_inserter(out.only_pytest));
  return out;
}

std::vector<std::string> counts_by_file(const std::vector<std::string>& ids) {
  std::map<std::string, size_t> files;
  for (const auto& id : ids) ++files[id.substr(0, id.find("::"))];
  std::vector<std::string> out;
  for (const auto& [file, n] : files) out.push_back(fmt::format("{} ({})", file, n));
  return out;
}

std::vector<std::string> capped(const std::vector<std::string>& items, size_t cap) {
  if (items.size() <= cap) return items;
  std::vector<std::string> out(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(cap));
  out.push_back(fmt::format("and {} more", items.size() - cap));
  return out;
}

} // namespace impact::app
