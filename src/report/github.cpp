// --output github: the decision as GitHub Actions workflow commands (::notice / ::warning / ::error), so
// that the outcome, its reason and what impact could not vouch for show on the pull request and in the
// run's summary. One line per annotation; file annotations point at the changed file or the uncertain
// line so they land on the diff.
#include "impact/report.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace impact {

namespace {

// Workflow command escaping: the message may not contain a line break; a property value may not
// contain ':' or ',' either (they separate properties).
std::string escape_data(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '%': out += "%25"; break;
    case '\r': out += "%0D"; break;
    case '\n': out += "%0A"; break;
    default: out += c;
    }
  }
  return out;
}

std::string escape_property(std::string_view text) {
  std::string out;
  for (char c : escape_data(text)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

// "::<level> file=<f>,line=<n>,title=<t>::<message>"; file and line only when given. The file stays raw
// (escaped as a property) so that the annotation lands on it; a line break in the message is data
// (%0A), never the start of another workflow command.
std::string annotation(std::string_view level, std::string_view title, std::string_view message,
                       std::string_view file = {}, uint32_t line = 0) {
  std::string properties;
  if (!file.empty()) properties += "file=" + escape_property(file) + ",";
  if (!file.empty() && line > 0) properties += fmt::format("line={},", line);
  properties += "title=" + escape_property(title);
  return fmt::format("::{} {}::{}\n", level, properties, escape_data(message));
}

std::string decision_title(const Decision& d) {
  switch (d.outcome) {
  case Outcome::selected: return "impact: selected tests";
  case Outcome::run_all: return "impact: full suite";
  case Outcome::nothing: return "impact: nothing to run";
  }
  return "impact";
}

// In monorepo mode a title names the project ("impact (libs/a): full suite").
std::string titled(const Report& report, std::string_view title) {
  if (report.project_dir.empty()) return std::string(title);
  return fmt::format("impact ({}):{}", report.project_dir, title.substr(title.find(':') + 1));
}

std::string rooted(const Report& report, std::string_view path) {
  if (report.project_dir.empty() || path.empty()) return std::string(path);
  return fmt::format("{}/{}", report.project_dir, path);
}

// The one-line decision, with what will run.
std::string decision_message(const Report& report) {
  const Decision& d = *report.decision;
  std::string message = summary_line(report);
  message += fmt::format("; mode {}{}", to_string(d.mode_effective), report.strict ? " (strict)" : "");
  if (!d.uncertainties.empty()) message += fmt::format("; {} uncertainty(ies)", d.uncertainties.size());
  if (report.plan.command && report.plan.fallback) {
    std::vector<std::string> argv;
    for (const auto& arg : report.plan.argv) argv.push_back(util::quote_name(arg));
    message += fmt::format("; delegating to the fallback {} (from {})", fmt::join(argv, " "),
                           util::one_line(report.plan.command->source));
  } else if (d.outcome == Outcome::selected && !d.selected.empty()) {
    constexpr size_t k_listed = 10; // an annotation is a summary, not the dry run
    std::vector<std::string> ids;
    for (size_t i = 0; i < d.selected.size() && i < k_listed; ++i) ids.push_back(util::quote_name(d.selected[i].node_id));
    message += fmt::format("; running {}{}", fmt::join(ids, " "),
                           d.selected.size() > k_listed ? fmt::format(" and {} more", d.selected.size() - k_listed) : "");
  }
  return message;
}

} // namespace

std::string render_github(const Report& report) {
  const Decision& d = *report.decision;
  std::string out = annotation("notice", titled(report, decision_title(d)), decision_message(report));
  // The files that forced the full suite, on the file itself.
  for (const auto& f : d.files) {
    if (f.effect.starts_with("run_all")) {
      out += annotation("notice", titled(report, "impact: full suite"), f.effect, rooted(report, f.path.str));
    }
  }
  for (const auto& u : d.uncertainties) {
    out += annotation("warning", titled(report, "impact: uncertain"), u.what, rooted(report, u.path), u.line);
  }
  for (const auto& w : d.warnings) out += annotation("warning", titled(report, "impact: warning"), w);
  if (d.outcome != Outcome::nothing && !report.plan.command && !report.plan.problem.empty()) {
    out += annotation("error", titled(report, "impact: cannot run"), report.plan.problem);
  }
  return out;
}

} // namespace impact
