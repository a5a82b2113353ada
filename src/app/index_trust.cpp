#include "app/index_trust.hpp"

#include "impact/changes/history.hpp"
#include "util/files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <unordered_set>

namespace impact::app {

namespace {

constexpr size_t k_examples = 5;

// A file's modification time, or nullopt when it cannot be read (gone: nothing vouches for it).
std::optional<std::filesystem::file_time_type> mtime(const std::filesystem::path& path) {
  std::error_code ec;
  auto t = std::filesystem::last_write_time(path, ec);
  if (ec) return std::nullopt;
  return t;
}

int64_t epoch_seconds(std::filesystem::file_time_type t) {
  auto system = std::chrono::file_clock::to_sys(t);
  return std::chrono::duration_cast<std::chrono::seconds>(system.time_since_epoch()).count();
}

// Paths that differ between HEAD and the working tree (staged, unstaged or untracked).
std::unordered_set<std::string> dirty_paths(Repository& repo) {
  std::unordered_set<std::string> out;
  for (const auto& change : repo.changes(ChangeRequest{}).files) {
    if (!change.old_path.empty()) out.insert(change.old_path.str);
    if (!change.new_path.empty()) out.insert(change.new_path.str);
  }
  return out;
}

// The test a file must pass to be trusted under `rule`.
std::function<bool(const MeasuredFile&)> vouch(Repository& repo, const TrustRule& rule) {
  const std::filesystem::path root = repo.root();
  switch (rule.kind) {
  case TrustRule::Kind::run:
    // The suite measured the working tree as it was: what is hashed now is what ran, unless the file
    // was written after the suite started.
    return [root, since = rule.since](const MeasuredFile& f) {
      auto t = mtime(root / f.path.str);
      return t && *t < since;
    };
  case TrustRule::Kind::measured_at: {
    auto blobs = std::make_shared<std::unordered_map<std::string, std::string>>(blob_ids_at(root, rule.rev));
    return [blobs](const MeasuredFile& f) {
      auto it = blobs->find(f.path.str);
      return it != blobs->end() && it->second == f.oid;
    };
  }
  case TrustRule::Kind::data_file: {
    // Unchanged since before the data file was written: clean in the working tree, no commit at or
    // after the data file's second changed it, and not written since (a checkout of another branch
    // changes files without a commit). The data file's mtime is all there is: it is no proof when the
    // file was copied or downloaded, hence --measured-at.
    auto dirty = std::make_shared<std::unordered_set<std::string>>(dirty_paths(repo));
    auto later = std::make_shared<std::unordered_set<std::string>>(
        paths_committed_after(root, epoch_seconds(rule.since) - 1));
    return [root, dirty, later, since = rule.since](const MeasuredFile& f) {
      if (dirty->contains(f.path.str) || later->contains(f.path.str)) return false;
      auto t = mtime(root / f.path.str);
      return t && *t < since;
    };
  }
  }
  return [](const MeasuredFile&) { return false; };
}

// True when `f`'s data cannot be of the content at `root`: a recorded line beyond the file's end. Such a
// check can only reject data (data that fits proves nothing), so it runs after the rule vouched.
bool beyond_the_end(const std::filesystem::path& root, const MeasuredFile& f) {
  if (f.lines.empty()) return false;
  auto content = util::read_file(root / f.path.str);
  if (!content) return true;
  // Python's lines end at \n, \r\n or a lone \r.
  uint32_t lines = 0;
  for (size_t i = 0; i < content->size(); ++i) {
    char c = (*content)[i];
    if (c == '\n' || (c == '\r' && (i + 1 == content->size() || (*content)[i + 1] != '\n'))) ++lines;
  }
  if (!content->empty() && content->back() != '\n' && content->back() != '\r') ++lines;
  return f.lines.rbegin()->first > lines;
}

} // namespace

TrustReport mark_untrusted(CoverageIndex& index, Repository& repo, const TrustRule& rule) {
  auto trusted = vouch(repo, rule);
  TrustReport report;
  for (auto& f : index.files) {
    if (trusted(f)) {
      if (!beyond_the_end(repo.root(), f)) continue;
      ++report.beyond_the_end;
    }
    f.trusted = false;
    // The lines are kept out of the store: nothing may read them as this content's.
    f.lines.clear();
    ++report.untrusted;
    if (report.examples.size() < k_examples) report.examples.push_back(f.path.str);
  }
  index.meta.untrusted = report.untrusted;
  return report;
}

std::string describe_untrusted(const TrustReport& report, const TrustRule& rule, const std::string& data_file) {
  if (report.untrusted == 0) return {};
  std::string which = fmt::format("{}{}", fmt::join(report.examples, ", "),
                                  report.untrusted > report.examples.size() ? ", ..." : "");
  if (report.beyond_the_end > 0) {
    which += fmt::format("; {} of them with recorded lines beyond their end", report.beyond_the_end);
  }
  switch (rule.kind) {
  case TrustRule::Kind::run:
    return fmt::format("impact: warning: {} file(s) changed while the suite ran ({}): their coverage is not used (the "
                       "static analysis answers for them and the tests that load them); rebuild the index with "
                       "impact index",
                       report.untrusted, which);
  case TrustRule::Kind::measured_at:
    return fmt::format("impact: warning: {} file(s) differ from {} ({}): their coverage is not used (the static "
                       "analysis answers for them and the tests that load them); build the index in a checkout of "
                       "the commit the data was measured at",
                       report.untrusted, rule.rev, which);
  case TrustRule::Kind::data_file: break;
  }
  return fmt::format("impact: warning: {} file(s) changed, or are not committed, since {} was written ({}): nothing "
                     "proves the data measured them as they are, so their coverage is not used (the static analysis "
                     "answers for them and the tests that load them); name the commit the data was measured at with "
                     "impact index --from FILE --measured-at REV",
                     report.untrusted, data_file, which);
}

} // namespace impact::app
