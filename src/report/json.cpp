#include "impact/report.hpp"
#include "impact/report/json_parts.hpp"
#include "report/shards_json.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <string>

namespace impact {

namespace {

using nlohmann::json;

json nullable(std::string_view s) { return report::nullable<json>(s); }

// nlohmann's output for a C stream, in chunks: the serializer writes a character at a time.
class FileOutput : public nlohmann::detail::output_adapter_protocol<char> {
public:
  explicit FileOutput(std::FILE* out) : m_out(out) { m_chunk.reserve(k_chunk); }
  void write_character(char c) override {
    m_chunk.push_back(c);
    if (m_chunk.size() >= k_chunk) flush();
  }
  void write_characters(const char* s, std::size_t length) override {
    m_chunk.append(s, length);
    if (m_chunk.size() >= k_chunk) flush();
  }
  void flush() {
    std::fwrite(m_chunk.data(), 1, m_chunk.size(), m_out);
    m_chunk.clear();
  }

private:
  static constexpr std::size_t k_chunk = 64 * 1024;
  std::FILE* m_out;
  std::string m_chunk;
};

json selected_entry(const SelectedTest& t) {
  json entry = json::object();
  entry["node_id"] = t.node_id;
  entry["chain"] = report::chain_json<json>(t.chain);
  entry["note"] = nullable(t.note);
  return entry;
}

// The decision document; `selected` empty when the caller writes that array itself (print_json).
json document(const Report& report, bool with_selected) {
  const Decision& d = *report.decision;
  json doc;
  doc["schema"] = "impact.decision";
  doc["version"] = k_decision_version;
  doc["impact_version"] = IMPACT_VERSION;
  doc["decision"] = std::string(to_string(d.outcome));
  doc["reason"] = d.outcome == Outcome::selected ? json(nullptr) : nullable(to_string(d.reason));
  doc["detail"] = nullable(d.detail);
  doc["mode"] = report::mode_json<json>(d, report.strict);
  doc["base"] = report.changes != nullptr          ? report::base_json<json>(report.changes->base)
                : report.replayed_base != nullptr ? report::base_json<json>(*report.replayed_base)
                                                  : json(nullptr);
  doc["index"] = report.index_path.empty()
                     ? json(nullptr)
                     : json({{"path", report.index_path}, {"built_at", report.index_built_at}, {"commit", report.index_commit}});
  json files = json::array();
  for (const auto& f : d.files) {
    json entry = {{"path", f.path.str},
                  {"old_path", nullable(f.old_path.str)},
                  {"status", std::string(to_string(f.status))},
                  {"kind", std::string(to_string(f.kind))},
                  {"effect", f.effect},
                  {"tests", f.tests < 0 ? json(nullptr) : json(f.tests)},
                  {"change", nullable(f.change)},
                  {"source", nullable(to_string(f.source))},
                  {"fallback", nullable(to_string(f.fallback))}};
    entry["symbols"] = report::symbols_json<json>(f.symbols);
    if (report.changes != nullptr) {
      for (const auto& change : report.changes->files) {
        if (change.path() != f.path) continue;
        entry["hunks"] = report::hunks_json<json>(change.hunks);
        entry["binary"] = change.binary;
        entry["untracked"] = change.untracked;
      }
    }
    files.push_back(std::move(entry));
  }
  doc["changed_files"] = std::move(files);
  json selected = json::array();
  // Moved, not copied: a walk's worst case selects tens of thousands of tests, each with its chain.
  if (with_selected) {
    for (const auto& t : d.selected) selected.push_back(selected_entry(t));
  }
  doc["selected"] = std::move(selected);
  json file_level = json::array();
  for (const auto& t : d.file_level) file_level.push_back(t.node_id);
  doc["file_level"] = std::move(file_level);
  doc["uncertainties"] = report::uncertainties_json<json>(d.uncertainties);
  doc["warnings"] = d.warnings;
  if (report.plan.command) {
    doc["command"] = {{"argv", report.plan.command->argv},
                      {"source", report.plan.command->source},
                      {"fallback", report.plan.fallback}};
  } else {
    doc["command"] = nullptr;
  }
  doc["argv"] = report.plan.argv;
  doc["problem"] = nullable(report.plan.problem);
  doc["durations"] = report::shard_plan_json(report.shards);
  doc["project"] = {{"rootdir", report.project.rootdir},
                    {"inifile", nullable(report.project.inifile)},
                    {"python_files", report.project.python_files},
                    {"test_files", report.project.test_files},
                    {"parsed", report.project.parsed},
                    {"linked", report.project.linked}};
  json timings = json::object();
  for (const auto& t : report.timings) timings[t.stage] = t.ms;
  timings["total"] = report.total_ms;
  doc["timings_ms"] = timings;
  return doc;
}

} // namespace

std::string render_json(const Report& report) {
  // Paths are bytes; a name that is not UTF-8 is printed with U+FFFD rather than failing the run.
  return document(report, true).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void print_json(const Report& report, std::FILE* out) {
  // The document as dump(2) lays it out (keys in order, two spaces a level), with the `selected`
  // entries made and written one at a time instead of held in the document: a walk's worst case
  // selects tens of thousands of tests, each with its chain.
  json doc = document(report, false);
  auto output = std::make_shared<FileOutput>(out);
  nlohmann::detail::serializer<json> writer(output, ' ', json::error_handler_t::replace);
  const auto& selected = report.decision->selected;
  output->write_characters("{\n", 2);
  size_t left = doc.size();
  for (const auto& [key, value] : doc.items()) {
    output->write_characters("  ", 2);
    writer.dump(json(key), false, false, 0);
    output->write_characters(": ", 2);
    if (key != "selected" || selected.empty()) {
      writer.dump(value, true, false, 2, 2);
    } else {
      output->write_characters("[\n", 2);
      for (size_t i = 0; i < selected.size(); ++i) {
        output->write_characters("    ", 4);
        writer.dump(selected_entry(selected[i]), true, false, 2, 4);
        if (i + 1 < selected.size()) output->write_character(',');
        output->write_character('\n');
      }
      output->write_characters("  ]", 3);
    }
    if (--left > 0) output->write_character(',');
    output->write_character('\n');
  }
  output->write_characters("}\n", 2);
  output->flush();
}

} // namespace impact
