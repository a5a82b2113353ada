// Reading a saved decision document back, strictly. A report that half-parses becomes a confident
// selection of the wrong tests, so every field of the document render_json writes must be there with
// its type, nothing else may be, and the decision must agree with itself. docs/json.md lists the rules.
#include "impact/error.hpp"
#include "impact/report.hpp"
#include "impact/node_id.hpp"
#include "report/shards_json.hpp"
#include "report/strict_json.hpp"
#include "util/files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>

namespace impact {

namespace {

using report::ShapeError;
using report::StrictObject;
using report::StrictValue;

constexpr const char* k_fix = "regenerate it with impact select --format json";

template <typename Values>
std::vector<std::string> names(const Values& values) {
  std::vector<std::string> out;
  for (auto v : values) out.emplace_back(to_string(v));
  return out;
}

// The value of `values` whose word `v` holds; any other word fails the read, naming the expected ones.
template <typename E>
E pick(const StrictValue& v, std::initializer_list<E> values) {
  return *(values.begin() + v.one_of(names(values)));
}

template <typename E>
E pick(const StrictValue& v, const std::vector<E>& values) {
  return values[v.one_of(names(values))];
}

// The values of enum E from `first` to `last`, in declaration order.
template <typename E>
std::vector<E> values_between(E first, E last) {
  std::vector<E> out;
  for (auto k = static_cast<int>(first); k <= static_cast<int>(last); ++k) out.push_back(static_cast<E>(k));
  return out;
}

std::vector<ChangeKind> change_kinds() { return values_between(ChangeKind::comment_only, ChangeKind::syntax_error); }

// A field that is null for the enum's `none` and one of its other words otherwise.
template <typename E>
E pick_or_none(const StrictValue& v, const std::vector<E>& values) {
  return v.is_null() ? E::none : pick(v, values);
}

uint32_t line_of(const StrictValue& v) {
  auto line = v.integer_or_null(0);
  if (line && *line > UINT32_MAX) v.fail("the line number is too large");
  return line ? static_cast<uint32_t>(*line) : 0;
}

LineSpan span_of(const StrictValue& v) {
  if (v.is_null()) return {};
  auto items = v.array();
  if (items.size() != 2) v.fail(fmt::format("expected [first, last] or null, found an array of {}", items.size()));
  return LineSpan{line_of(items[0]), line_of(items[1])};
}

Relation relation_of(const StrictValue& v) {
  if (auto known = relation_named(v.string())) return *known;
  return pick(v, all_relations()); // fails, naming the relations
}

Hop hop_of(const StrictValue& v) {
  StrictObject o = v.object({"path", "symbol", "relation", "line"});
  return Hop{o["path"].string(), relation_of(o["relation"]), line_of(o["line"]),
             o["symbol"].string_or_null().value_or("")};
}

SymbolChange symbol_of(const StrictValue& v) {
  StrictObject o = v.object({"qualname", "kind", "change", "runs_at_import", "old_lines", "new_lines"});
  SymbolChange s;
  s.qualname = o["qualname"].string();
  s.kind = pick(o["kind"], {SymbolKind::function, SymbolKind::method, SymbolKind::class_});
  auto kinds = change_kinds();
  std::vector<std::string> kind_names;
  for (ChangeKind k : kinds) kind_names.emplace_back(to_string(k));
  s.change = kinds[o["change"].one_of(kind_names)];
  s.runs_at_import = o["runs_at_import"].boolean();
  s.old_lines = span_of(o["old_lines"]);
  s.new_lines = span_of(o["new_lines"]);
  return s;
}

FileVerdict file_of(const StrictValue& v) {
  // hunks, binary and untracked describe the diff, so a document that was itself replayed (no diff)
  // has none of them; when one is there, all three are.
  StrictObject o = v.object({"path", "old_path", "status", "kind", "effect", "tests", "change", "source", "fallback",
                             "symbols"},
                            {"hunks", "binary", "untracked"});
  FileVerdict f;
  f.path = RepoPath(o["path"].string());
  f.old_path = RepoPath(o["old_path"].string_or_null().value_or(""));
  f.status = pick(o["status"], {FileStatus::added, FileStatus::modified, FileStatus::deleted, FileStatus::renamed,
                                FileStatus::type_changed});
  f.kind = pick(o["kind"], values_between(FileKind::python, FileKind::pins));
  f.effect = o["effect"].string();
  f.tests = o["tests"].integer_or_null(0).value_or(-1);
  f.change = o["change"].string_or_null().value_or("");
  f.source = pick_or_none(o["source"], std::vector<TestSource>{TestSource::coverage, TestSource::static_});
  // CoverageFallback::safe_mode is its last value (coverage.hpp).
  f.fallback = pick_or_none(o["fallback"], values_between(CoverageFallback::untracked, CoverageFallback::safe_mode));
  for (const auto& s : o["symbols"].array()) f.symbols.push_back(symbol_of(s));
  auto hunks = o.get("hunks");
  auto binary = o.get("binary");
  auto untracked = o.get("untracked");
  if (hunks || binary || untracked) {
    StrictValue present = hunks ? *hunks : binary ? *binary : *untracked;
    for (const char* key : {"hunks", "binary", "untracked"}) {
      if (!o.get(key)) present.fail(fmt::format("given without '{}': hunks, binary and untracked come together", key));
    }
    for (const auto& hunk : hunks->array()) {
      auto numbers = hunk.array();
      if (numbers.size() != 4) hunk.fail("expected [old_start, old_count, new_start, new_count]");
      for (const auto& n : numbers) n.integer(0);
    }
    binary->boolean();
    untracked->boolean();
  }
  return f;
}

// A node id goes into pytest's argv as it is: it must name a test, never look like an option, and its
// path part (up to the first "::", where pytest splits it) must stay inside the work tree, since pytest
// collects whatever file it names. What follows "::" is a test's name and parameter id, which may hold
// anything ("test_x[a/../b]"). replay.cpp checks symbolic links against the work tree itself.
std::string node_id_of(const StrictValue& v) {
  std::string id = v.string();
  if (id.empty()) v.fail("a node id is empty");
  for (char c : id) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) v.fail("a node id holds a control character");
  }
  std::string shown = id.size() > 200 ? id.substr(0, 200) + "..." : id;
  if (id.front() == '-') v.fail(fmt::format("node id '{}' would be read by pytest as an option", shown));
  std::string_view path = NodeId::of(id).file;
  if (path.starts_with('/')) {
    v.fail(fmt::format("node id '{}' names an absolute path; a node id is relative to the repository", shown));
  }
  for (size_t at = 0; at <= path.size();) {
    size_t end = std::min(path.find('/', at), path.size());
    if (path.substr(at, end - at) == "..") {
      v.fail(fmt::format("node id '{}' leaves the repository (a '..' in its path)", shown));
    }
    at = end + 1;
  }
  return id;
}

SelectedTest selected_of(const StrictValue& v) {
  StrictObject o = v.object({"node_id", "chain", "note"});
  SelectedTest t;
  t.node_id = node_id_of(o["node_id"]);
  for (const auto& hop : o["chain"].array()) t.chain.push_back(hop_of(hop));
  t.note = o["note"].string_or_null().value_or("");
  return t;
}

DiffBase base_of(const StrictValue& v) {
  StrictObject o = v.object({"mode", "rev", "commit", "merge_base", "source"});
  DiffBase b;
  b.mode = o["mode"].one_of({"working_tree", "staged"}) == 1 ? DiffMode::staged : DiffMode::working_tree;
  b.rev = o["rev"].string();
  b.commit = o["commit"].string();
  b.merge_base = o["merge_base"].boolean();
  b.source = o["source"].string();
  return b;
}

// Fields that describe how the decision was made or would be run. They are checked, so that the file is
// known to be what impact wrote, but a replay resolves pytest anew and never execs a saved argv.
void check_context(const StrictObject& doc) {
  if (!doc["index"].is_null()) {
    StrictObject index = doc["index"].object({"path", "built_at", "commit"});
    for (const char* key : {"path", "built_at", "commit"}) index[key].string();
  }
  if (!doc["command"].is_null()) {
    StrictObject command = doc["command"].object({"argv", "source", "fallback"});
    command["argv"].strings();
    command["source"].string();
    command["fallback"].boolean();
  }
  doc["argv"].strings();
  doc["problem"].string_or_null();
  StrictObject project = doc["project"].object({"rootdir", "inifile", "python_files", "test_files", "parsed", "linked"});
  project["rootdir"].string();
  project["inifile"].string_or_null();
  for (const char* key : {"python_files", "test_files", "parsed", "linked"}) project[key].integer(0);
  for (const auto& [stage, ms] : doc["timings_ms"].map()) ms.number();
  doc["impact_version"].string();
}

// The decision must agree with itself: `selected` names node ids and only it does; the other two
// outcomes always carry a reason.
void check_consistent(const StrictObject& doc, const Decision& d) {
  std::string outcome(to_string(d.outcome));
  if (d.outcome == Outcome::selected) {
    if (d.selected.empty()) {
      doc["selected"].fail("empty, but $.decision is \"selected\": a selection names at least one node id "
                           "(an empty one would run the whole suite)");
    }
    if (!doc["reason"].is_null()) doc["reason"].fail("must be null when $.decision is \"selected\"");
  } else {
    if (!d.selected.empty()) {
      doc["selected"].fail(fmt::format("{} node id(s), but $.decision is \"{}\", which runs {}", d.selected.size(),
                                       outcome, d.outcome == Outcome::run_all ? "the whole suite" : "nothing"));
    }
    if (doc["reason"].is_null()) {
      doc["reason"].fail(fmt::format("null, but $.decision \"{}\" always has a reason", outcome));
    }
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < d.selected.size(); ++i) {
    if (!seen.insert(d.selected[i].node_id).second) {
      StrictValue(doc["selected"].raw()[i], fmt::format("{}[{}].node_id", doc["selected"].path(), i))
          .fail(fmt::format("node id '{}' is listed twice", d.selected[i].node_id));
    }
  }
}

SavedReport read_document(const nlohmann::json& json, const std::string& name) {
  StrictValue root(json, "$");
  if (!json.is_object()) root.fail(fmt::format("expected the decision object, found {}", json.type_name()));
  // The kind and version come first: a newer document is named as such, not reported key by key.
  if (auto schema = json.find("schema"); schema != json.end() && schema->is_string() && *schema != "impact.decision") {
    StrictValue(*schema, "$.schema")
        .fail(fmt::format("{} is not a decision document (\"impact.decision\")",
                          schema->dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)));
  }
  if (auto version = json.find("version"); version != json.end() && version->is_number_integer()) {
    // A version too large for int64 is still a newer one.
    bool huge = version->is_number_unsigned() && version->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX);
    int64_t v = huge ? INT64_MAX : version->get<int64_t>();
    if (v > k_decision_version) {
      throw Error("{}: $.version: version {} is newer than this impact reads ({}); upgrade impact, or regenerate the "
                  "file with this one (impact select --format json)",
                  name, version->dump(), k_decision_version);
    }
    if (v < k_decision_version) StrictValue(*version, "$.version").fail(fmt::format("unknown version {}", v));
  }
  StrictObject doc = root.object({"schema", "version", "impact_version", "decision", "reason", "detail", "mode", "base",
                                  "index", "changed_files", "selected", "file_level", "uncertainties", "warnings",
                                  "command", "argv", "problem", "project", "timings_ms"},
                                 {"durations"}); // absent in a document written before durations were carried
  if (doc["schema"].string() != "impact.decision") doc["schema"].fail("expected \"impact.decision\"");
  doc["version"].integer(k_decision_version);

  SavedReport out;
  Decision& d = out.decision;
  d.outcome = pick(doc["decision"], {Outcome::selected, Outcome::run_all, Outcome::nothing});
  d.reason = pick_or_none(doc["reason"], all_reasons());
  d.detail = doc["detail"].string_or_null().value_or("");
  StrictObject mode = doc["mode"].object({"requested", "effective", "strict"});
  d.mode_requested = pick(mode["requested"], {Mode::fast, Mode::balanced, Mode::safe});
  d.mode_effective = pick(mode["effective"], {Mode::fast, Mode::balanced, Mode::safe});
  out.strict = mode["strict"].boolean();
  if (!doc["base"].is_null()) out.base = base_of(doc["base"]);
  for (const auto& f : doc["changed_files"].array()) d.files.push_back(file_of(f));
  for (const auto& t : doc["selected"].array()) d.selected.push_back(selected_of(t));
  for (const auto& t : doc["file_level"].array()) d.file_level.push_back(SelectedTest{node_id_of(t), {}, {}});
  for (const auto& u : doc["uncertainties"].array()) {
    StrictObject o = u.object({"path", "line", "what"});
    d.uncertainties.push_back(Uncertainty{o["path"].string(), line_of(o["line"]), o["what"].string()});
  }
  d.warnings = doc["warnings"].strings();
  check_context(doc);
  check_consistent(doc, d);
  if (auto durations = doc.get("durations")) out.shards = report::shard_plan_of(*durations, d);
  return out;
}

} // namespace

SavedReport parse_report(std::string_view text, const std::string& name) {
  try {
    return read_document(report::parse_strict(text), name);
  } catch (const ShapeError& e) {
    if (e.path.empty()) throw Error("{}: {}; {}", name, e.problem, k_fix);
    throw Error("{}: {}: {}; {}", name, e.path, e.problem, k_fix);
  }
}

SavedReport read_report(const std::filesystem::path& path, const std::string& name) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error("{}: is a folder, not a saved decision; pass the file impact select --format json wrote", name);
  }
  if (!std::filesystem::exists(path, ec)) {
    throw Error("{}: no such file; pass the file impact select --format json wrote", name);
  }
  auto text = util::read_file(path);
  if (!text) throw Error("{}: cannot read it; check that it is a readable file", name);
  return parse_report(*text, name);
}

} // namespace impact
