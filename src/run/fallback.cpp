// The fallback command's side of a run_all: where its program is, the payload it reads on standard
// input, and the unlinked temporary file that payload is delivered from.
#include "impact/error.hpp"
#include "impact/run.hpp"
#include "report/json_parts.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace impact {

namespace {

using json = nlohmann::ordered_json;

json nullable(const std::string& s) { return report::nullable<json>(s); }

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
          {"kind", verdict != nullptr ? nullable(verdict->kind) : json(nullptr)},
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

std::optional<std::string> resolve_program(const std::string& program, const std::filesystem::path& root,
                                           const EnvLookup& env) {
  if (program.find('/') == std::string::npos) return find_on_path(program, env);
  std::filesystem::path path(program);
  if (path.is_relative()) path = root / path;
  return find_on_path(path.lexically_normal().string(), env); // a path: checked, not searched
}

std::string fallback_payload(const Decision& decision, const ChangeSet* changes, bool strict,
                             const std::vector<std::string>& argv, const std::filesystem::path& root) {
  json doc = {{"schema", "impact.fallback"},
              {"version", k_fallback_payload_version},
              {"impact_version", IMPACT_VERSION},
              {"reason", decision.reason},
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

int unlinked_temp_fd(const std::string& content) {
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string pattern = (dir / "impact-fallback-XXXXXX").string();
  int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0) {
    throw Error("cannot create a temporary file in {} for the fallback's payload: {}; set TMPDIR to a writable folder",
                dir.string(), std::strerror(errno));
  }
  // Unlinked before anything else can fail: whatever happens next, nothing is left behind.
  ::unlink(pattern.c_str());
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      throw Error("cannot write the fallback's payload to a temporary file in {}: {}; free some space or set TMPDIR",
                  dir.string(), std::strerror(saved));
    }
    done += static_cast<size_t>(n);
  }
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    int saved = errno;
    ::close(fd);
    throw Error("cannot rewind the fallback's payload file: {}", std::strerror(saved));
  }
  return fd;
}

} // namespace impact
