// The audit for people (a table, then each miss with its evidence) and for machines (docs/json.md,
// "The audit document").
#include "app/audit.hpp"
#include "impact/report.hpp"
#include "impact/report/json_parts.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace impact::app {

namespace {

using nlohmann::json;
using util::one_line;
using util::quote_name;

json nullable(std::string_view s) { return report::nullable<json>(s); }

std::string describe_selection(const Decision& d) {
  switch (d.outcome) {
  case Outcome::selected: return fmt::format("selected, {} node id(s)", d.selected.size());
  case Outcome::run_all: return fmt::format("run_all: {} ({}): nothing can be missed", one_line(to_string(d.reason)), one_line(d.detail));
  case Outcome::nothing: return fmt::format("nothing: {} ({})", one_line(to_string(d.reason)), one_line(d.detail));
  }
  return {};
}

// ", known flake: passed on rerun 3 times, last 2026-…Z", or "".
std::string describe_flake(const std::optional<FlakeRecord>& flake) {
  if (!flake) return {};
  return fmt::format(", known flake: passed on rerun {} time{}, last {}", flake->passes, flake->passes == 1 ? "" : "s",
                     one_line(flake->last));
}

json flake_json(const std::optional<FlakeRecord>& flake) {
  if (!flake) return nullptr;
  return {{"passes_on_rerun", flake->passes}, {"last", flake->last}};
}

json base_json(const std::optional<DiffBase>& base) {
  return base ? report::base_json<json>(*base) : json(nullptr);
}

} // namespace

std::string render_audit_text(const AuditedSelection& selection, const AuditResult& r) {
  const Decision& d = *selection.decision;
  std::string out;
  std::string compared = selection.base ? describe_base(*selection.base) : "a change not recorded in the file";
  if (selection.file.empty()) out += fmt::format("audited: the selection for {}\n", compared);
  else out += fmt::format("audited: the saved decision {} ({})\n", quote_name(selection.file), compared);
  out += fmt::format("selection: {}\n", describe_selection(d));
  std::vector<std::string> argv;
  for (const auto& arg : r.suite.argv) argv.push_back(quote_name(arg));
  out += fmt::format("full suite: {} (pytest from {}), exit {}\n\n", fmt::join(argv, " "), one_line(r.suite.source),
                     r.suite.exit_code);

  out += fmt::format("  {:<24} {:>7} {:>7}\n", "", "tests", "failed");
  size_t failed = r.selected_failed + r.skipped_failed;
  out += fmt::format("  {:<24} {:>7} {:>7}\n", "ran (whole suite)", r.tests.size(), failed);
  out += fmt::format("  {:<24} {:>7} {:>7}\n", "selected", r.selected, r.selected_failed);
  out += fmt::format("  {:<24} {:>7} {:>7}\n", "skipped by selection", r.skipped, r.skipped_failed);

  if (!r.misses.empty()) {
    out += "\nmissed: failed, but the selection skips them\n";
    for (const auto& m : r.misses) {
      out += fmt::format("  MISS {} ({}{}{})\n", quote_name(m.test.node_id), one_line(m.test.outcome),
                         m.test.collection_error ? ", could not be collected" : "", describe_flake(m.flake));
      for (const auto& line : m.evidence.lines) out += fmt::format("    {}\n", one_line(line));
    }
  }
  if (!r.unmatched.empty()) {
    out += "\nselected, but no test of the full run falls under them:\n";
    for (const auto& id : r.unmatched) out += fmt::format("  {}\n", quote_name(id));
  }
  if (r.selected_failed > 0) {
    out += fmt::format("\n{} selected test(s) failed: the selection runs them, so they are caught, not missed\n",
                       r.selected_failed);
  }
  if (r.misses.empty()) {
    out += fmt::format("\nresult: no misses: none of the {} skipped test(s) failed\n", r.skipped);
  } else {
    out += fmt::format("\nresult: {} miss(es): the selection would have let a failing test through\n", r.misses.size());
  }
  return out;
}

std::string render_audit_json(const AuditedSelection& selection, const AuditResult& r,
                              const std::vector<std::string>& changed_files) {
  const Decision& d = *selection.decision;
  json doc;
  doc["schema"] = "impact.audit";
  doc["version"] = 1;
  doc["impact_version"] = IMPACT_VERSION;
  json node_ids = json::array();
  for (const auto& t : d.selected) node_ids.push_back(t.node_id);
  doc["selection"] = {{"file", nullable(selection.file)},
                      {"decision", std::string(to_string(d.outcome))},
                      {"reason", d.outcome == Outcome::selected ? json(nullptr) : nullable(to_string(d.reason))},
                      {"detail", nullable(d.detail)},
                      {"node_ids", node_ids}};
  doc["base"] = base_json(selection.base);
  doc["changed_files"] = changed_files;
  doc["pytest"] = {{"argv", r.suite.argv}, {"source", r.suite.source}, {"exit_code", r.suite.exit_code}};
  doc["counts"] = {{"ran", r.tests.size()},
                   {"failed", r.selected_failed + r.skipped_failed},
                   {"selected", r.selected},
                   {"selected_failed", r.selected_failed},
                   {"skipped", r.skipped},
                   {"skipped_failed", r.skipped_failed},
                   {"misses", r.misses.size()}};
  json tests = json::array();
  for (const auto& t : r.tests) {
    tests.push_back({{"node_id", t.test.node_id},
                     {"outcome", t.test.outcome},
                     {"collection_error", t.test.collection_error},
                     {"selected", t.selected}});
  }
  doc["tests"] = tests;
  json misses = json::array();
  for (const auto& m : r.misses) {
    misses.push_back({{"node_id", m.test.node_id},
                      {"outcome", m.test.outcome},
                      {"collection_error", m.test.collection_error},
                      {"known_flake", flake_json(m.flake)},
                      {"evidence",
                       {{"kind", m.evidence.kind}, {"chain", report::chain_json<json>(m.evidence.chain)}, {"detail", m.evidence.lines}}}});
  }
  doc["misses"] = misses;
  doc["unmatched"] = r.unmatched;
  doc["result"] = r.misses.empty() ? "no_misses" : "misses";
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace impact::app
