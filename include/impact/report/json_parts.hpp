#pragma once
#ifdef IMPACT_FORBID_REPORT // defined for the stages that may not use report (src/CMakeLists.txt)
#error "this stage may not use report (docs/architecture.md, allowed edges)"
#endif
// JSON pieces shared by every document impact writes (the decision, the fallback's payload, the audit),
// so that a chain or a diff base reads the same everywhere. Templates over the JSON type: the payload
// keeps its keys in order (nlohmann::ordered_json), the others sort them (nlohmann::json).
#include "impact/changes.hpp"
#include "impact/decision.hpp"
#include "impact/semantic.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace impact::report {

// An empty string is written as null.
template <typename Json> Json nullable(std::string_view s) { return s.empty() ? Json(nullptr) : Json(std::string(s)); }

template <typename Json> Json chain_json(const std::vector<Hop>& chain) {
  Json out = Json::array();
  for (const auto& hop : chain) {
    Json entry = Json::object(); // filled in place: an initializer list would copy every value
    entry["path"] = hop.path;
    entry["symbol"] = nullable<Json>(hop.symbol);
    entry["relation"] = std::string(to_string(hop.relation));
    entry["line"] = hop.line == 0 ? Json(nullptr) : Json(hop.line);
    out.push_back(std::move(entry));
  }
  return out;
}

template <typename Json> Json base_json(const DiffBase& base) {
  return {{"mode", base.mode == DiffMode::staged ? "staged" : "working_tree"},
          {"rev", base.rev},
          {"commit", base.commit},
          {"merge_base", base.merge_base},
          {"source", base.source}};
}

// [first, last], or null for a side the symbol does not exist on.
template <typename Json> Json span_json(LineSpan lines) {
  return lines.first == 0 ? Json(nullptr) : Json({lines.first, lines.last});
}

template <typename Json> Json hunks_json(const std::vector<Hunk>& hunks) {
  Json out = Json::array();
  for (const auto& h : hunks) out.push_back({h.old_start, h.old_count, h.new_start, h.new_count});
  return out;
}

template <typename Json> Json symbols_json(const std::vector<SymbolChange>& symbols) {
  Json out = Json::array();
  for (const auto& s : symbols) {
    out.push_back({{"qualname", s.qualname},
                   {"kind", std::string(to_string(s.kind))},
                   {"change", std::string(to_string(s.change))},
                   {"runs_at_import", s.runs_at_import},
                   {"old_lines", span_json<Json>(s.old_lines)},
                   {"new_lines", span_json<Json>(s.new_lines)}});
  }
  return out;
}

template <typename Json> Json uncertainties_json(const std::vector<Uncertainty>& uncertainties) {
  Json out = Json::array();
  for (const auto& u : uncertainties) out.push_back({{"path", u.path}, {"line", u.line}, {"what", u.what}});
  return out;
}

template <typename Json> Json mode_json(const Decision& d, bool strict) {
  return {{"requested", std::string(to_string(d.mode_requested))},
          {"effective", std::string(to_string(d.mode_effective))},
          {"strict", strict}};
}

} // namespace impact::report
