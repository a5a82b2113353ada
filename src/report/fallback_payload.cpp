// The JSON document the fallback command reads on its standard input (docs/configuration.md, "The
// fallback payload"): a rendering of the decision, like the decision document, so it lives in report/.
#include "impact/report.hpp"
#include "impact/report/json_parts.hpp"

#include <nlohmann/json.hpp>

namespace impact {

namespace {

using json = nlohmann::ordered_json;

json nullable(std::string_view s) { return report::nullable<json>(s); }

const FileVerdict* verdict_of(const Decision& decision, const RepoPath& path) {
  for (const auto& f : decision.files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

// A changed file as the payload describes it: what git says, and what the decision made of it (null
// when the decision was taken before looking at files, as for no_ci_base).
json file_json(const RepoPath& path, const RepoPath& old_path, FileStatus status, const FileVerdict* verdict) {
  return {{"path", path.str},
          {"old_path", old_path.empty() || old_path == path ? json(nullptr) : json(old_path.str)},
          {"status", std::string(to_string(status))},
          {"kind", verdict != nullptr ? nullable(to_string(verdict->kind)) : json(nullptr)},
          {"effect", verdict != nullptr ? nullable(verdict->effect) : json(nullptr)},
          {"binary", nullptr},
          {"untracked", nullptr},
          {"hunks", nullptr}};
}

json changed_files(const Decision& decision, const ChangeSet* changes) {
  json files = json::array();
  if (changes == nullptr) {
    for (const auto& f : decision.files) files.push_back(file_json(f.path, f.old_path, f.status, &f));
    return files;
  }
  for (const auto& change : changes->files) {
    json entry = file_json(change.path(), change.old_path, change.status, verdict_of(decision, change.path()));
    entry["hunks"] = report::hunks_json<json>(change.hunks);
    entry["binary"] = change.binary;
    entry["untracked"] = change.untracked;
    files.push_back(std::move(entry));
  }
  return files;
}

} // namespace

std::string fallback_payload(const Decision& decision, const ChangeSet* changes, bool strict,
                             const std::vector<std::string>& argv, const std::filesystem::path& root) {
  json doc = {{"schema", "impact.fallback"},
              {"version", k_fallback_payload_version},
              {"impact_version", IMPACT_VERSION},
              {"reason", std::string(to_string(decision.reason))},
              {"detail", nullable(decision.detail)},
              {"root", root.string()},
              {"argv", argv},
              {"mode", report::mode_json<json>(decision, strict)},
              {"base", changes != nullptr ? report::base_json<json>(changes->base) : json(nullptr)},
              {"changed_files", changed_files(decision, changes)},
              {"uncertainties", report::uncertainties_json<json>(decision.uncertainties)},
              {"warnings", decision.warnings}};
  // Paths are bytes; a name that is not UTF-8 is written with U+FFFD rather than failing the run.
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace impact
