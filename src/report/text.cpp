#include "impact/report.hpp"
#include "impact/node_id.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace impact {

namespace {

using util::one_line;
using util::quote_name;

struct Style {
  bool on;
  std::string bold(std::string_view s) const { return on ? fmt::format("\033[1m{}\033[0m", s) : std::string(s); }
  std::string green(std::string_view s) const { return on ? fmt::format("\033[32m{}\033[0m", s) : std::string(s); }
  std::string yellow(std::string_view s) const { return on ? fmt::format("\033[33m{}\033[0m", s) : std::string(s); }
  std::string dim(std::string_view s) const { return on ? fmt::format("\033[2m{}\033[0m", s) : std::string(s); }
};

size_t distinct_files(const Decision& d) {
  std::set<std::string> files;
  for (const auto& t : d.selected) files.insert(std::string(NodeId::of(t.node_id).file));
  return files.size();
}

} // namespace

std::string describe_base(const DiffBase& base) {
  std::string commit = base.commit.substr(0, 12);
  if (base.mode == DiffMode::staged) return fmt::format("the index against HEAD ({})", one_line(commit));
  if (base.merge_base) {
    return fmt::format("the working tree against the merge-base of {} and HEAD ({}, from {})", one_line(base.rev),
                       one_line(commit), one_line(base.source));
  }
  return fmt::format("the working tree against HEAD ({})", one_line(commit));
}

std::string summary_line(const Report& report) {
  const Decision& d = *report.decision;
  size_t changed = report.changes != nullptr ? report.changes->files.size() : 0;
  switch (d.outcome) {
  case Outcome::selected: {
    size_t files = distinct_files(d);
    bool whole = std::all_of(d.selected.begin(), d.selected.end(),
                             [](const SelectedTest& t) { return NodeId::of(t.node_id).whole_file; });
    std::string what = whole ? fmt::format("{} test file(s)", files)
                             : fmt::format("{} node id(s) in {} file(s)", d.selected.size(), files);
    if (report.changes == nullptr) return fmt::format("selected {} from a saved report in {:.0f} ms", what, report.total_ms);
    return fmt::format("selected {} from {} changed file(s) in {:.0f} ms", what, changed, report.total_ms);
  }
  case Outcome::run_all:
    return fmt::format("full suite: {} ({}) in {:.0f} ms", one_line(to_string(d.reason)), one_line(d.detail), report.total_ms);
  case Outcome::nothing:
    return fmt::format("no tests impacted, nothing to run: {} ({}) in {:.0f} ms", one_line(to_string(d.reason)), one_line(d.detail),
                       report.total_ms);
  }
  return {};
}

std::string render_chain(const std::vector<Hop>& chain) {
  std::string out;
  for (size_t i = 0; i < chain.size(); ++i) {
    const Hop& hop = chain[i];
    out += quote_name(hop.path);
    if (!hop.symbol.empty()) out += fmt::format(":{}", one_line(hop.symbol));
    else if (hop.line > 0 && i + 1 < chain.size()) out += fmt::format(":{}", hop.line);
    if (i + 1 == chain.size()) {
      if (hop.symbol.empty() && hop.line > 0) out += fmt::format(":{}", hop.line);
      out += fmt::format(" [{}]", one_line(to_string(hop.relation)));
      break;
    }
    if (!hop.symbol.empty() && hop.line > 0) out += fmt::format(" ({}, line {}) → ", one_line(to_string(hop.relation)), hop.line);
    else out += fmt::format(" ({}) → ", one_line(to_string(hop.relation)));
  }
  return out;
}

std::string render_dry_run(const Report& report, bool colour) {
  Style style{colour};
  const Decision& d = *report.decision;
  std::string out;
  std::string outcome(to_string(d.outcome));
  out += fmt::format("decision: {}\n", d.outcome == Outcome::selected  ? style.green(outcome)
                                       : d.outcome == Outcome::run_all ? style.yellow(outcome)
                                                                       : style.dim(outcome));
  out += fmt::format("impact: {}\n", summary_line(report));
  if (report.changes != nullptr) out += fmt::format("compared: {}\n", describe_base(report.changes->base));
  else if (report.replayed_base != nullptr) {
    out += fmt::format("compared (when it was saved): {}\n", describe_base(*report.replayed_base));
  }
  out += fmt::format("mode: {}{}\n", to_string(d.mode_effective), report.strict ? " (strict)" : "");
  if (!report.project.inifile.empty()) out += fmt::format("pytest config: {}\n", quote_name(report.project.inifile));
  if (!report.index_path.empty()) {
    out += fmt::format("coverage index: built {} at {}\n", report.index_built_at, report.index_commit.substr(0, 12));
  }

  if (!d.files.empty()) {
    out += fmt::format("\n{}\n", style.bold("changed files"));
    std::vector<std::string> names;
    size_t width = 0;
    for (const auto& f : d.files) {
      names.push_back(quote_name(f.path.str));
      if (!f.old_path.empty()) names.back() = quote_name(f.old_path.str) + " → " + names.back();
      width = std::max(width, names.back().size());
    }
    for (size_t i = 0; i < d.files.size(); ++i) {
      out += fmt::format("  {:<12} {:<{}}  {}\n", to_string(d.files[i].status), names[i], width, one_line(d.files[i].effect));
    }
  }
  if (!d.selected.empty()) {
    if (!d.file_level.empty()) {
      out += fmt::format("\nfile level bound: {} test file(s) load the changed files\n", d.file_level.size());
    }
    out += fmt::format("\n{}\n", style.bold("selected"));
    for (const auto& t : d.selected) {
      out += fmt::format("  {}\n", quote_name(t.node_id));
      if (!t.chain.empty()) out += fmt::format("    {}\n", style.dim(render_chain(t.chain)));
      if (!t.note.empty()) out += fmt::format("    note: {}\n", one_line(t.note));
    }
  }
  if (!d.uncertainties.empty()) {
    out += fmt::format("\n{}\n", style.bold("uncertain"));
    for (const auto& u : d.uncertainties) {
      out += fmt::format("  {}:{}: {}\n", quote_name(u.path), u.line, one_line(u.what));
    }
  }
  for (const auto& w : d.warnings) out += fmt::format("\nwarning: {}\n", one_line(w));

  out += "\n";
  if (d.outcome == Outcome::nothing) {
    out += "nothing would run (exit code 0)\n";
  } else if (!report.plan.command) {
    out += fmt::format("cannot run: {}\n", one_line(report.plan.problem));
  } else {
    if (report.plan.fallback) {
      out += fmt::format("would exec the fallback (reason: {}), from {}\n", one_line(to_string(d.reason)),
                         one_line(report.plan.command->source));
    } else {
      out += fmt::format("pytest: from {}\n", one_line(report.plan.command->source));
    }
    // Each element as git quotes a name: what is exec'd is the raw element, one per line here.
    out += style.bold("argv") + "\n";
    for (const auto& arg : report.plan.argv) out += fmt::format("  {}\n", quote_name(arg));
  }
  return out;
}

} // namespace impact
