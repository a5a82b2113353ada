#include "app/replay.hpp"

#include "impact/error.hpp"
#include "impact/node_id.hpp"
#include "util/quote.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace impact::app {

namespace {

using util::quote_name;

// The reader refused absolute paths and ".." already; what is left to check is where a path inside
// the work tree leads once symbolic links are followed, as pytest follows them. Each folder is resolved
// once, so that half a million node ids cost one lstat each.
class WorkTreeCheck {
public:
  explicit WorkTreeCheck(const std::filesystem::path& root) {
    std::error_code ec;
    m_root = std::filesystem::weakly_canonical(root, ec);
    if (ec) m_root = root;
  }

  // The place `path` (repository-relative) leads to, when that is outside the work tree.
  std::optional<std::filesystem::path> escapes(const std::string& path) {
    if (!m_seen_files.insert(path).second) return std::nullopt;
    std::filesystem::path full = m_root / path;
    std::error_code missing; // a file that is not there (yet) is fine: pytest reports it
    std::error_code ec;
    std::filesystem::path resolved;
    if (std::filesystem::symlink_status(full, missing).type() == std::filesystem::file_type::symlink) {
      resolved = std::filesystem::weakly_canonical(full, ec);
    } else {
      resolved = folder(full.parent_path()) / full.filename();
    }
    if (ec || !inside(resolved)) return resolved;
    return std::nullopt;
  }

private:
  std::filesystem::path folder(const std::filesystem::path& dir) {
    auto [it, fresh] = m_folders.try_emplace(dir.string());
    if (fresh) {
      std::error_code ec;
      it->second = std::filesystem::weakly_canonical(dir, ec);
      if (ec) it->second = std::filesystem::path("/") / "unresolved";
    }
    return it->second;
  }

  bool inside(const std::filesystem::path& p) const {
    auto rel = p.lexically_relative(m_root);
    return !rel.empty() && *rel.begin() != "..";
  }

  std::filesystem::path m_root;
  std::unordered_map<std::string, std::filesystem::path> m_folders;
  std::unordered_set<std::string> m_seen_files;
};

void check_inside_work_tree(const SavedReport& saved, const std::string& name, const std::filesystem::path& root) {
  WorkTreeCheck check(root);
  auto each = [&](const std::vector<SelectedTest>& tests) {
    for (const auto& t : tests) {
      std::string path(NodeId::of(t.node_id).file);
      if (auto outside = check.escapes(path)) {
        throw Error("{}: node id {} leads outside the work tree (to {}) through a symbolic link; refusing to run "
                    "it: regenerate the file with impact select --format json in this repository",
                    name, quote_name(t.node_id), quote_name(outside->string()));
      }
    }
  };
  each(saved.decision.selected);
  each(saved.decision.file_level);
  if (saved.shards) { // a run_all's units are the suite's files or node ids: pytest is given them too
    std::vector<SelectedTest> units;
    for (const auto& u : saved.shards->units) units.push_back(SelectedTest{u.id, {}, {}});
    each(units);
  }
}

// The saved decision compared its base with the state it saw; replayed where that base is not in
// HEAD's history (another repository, another branch), it answers a question nobody asked here.
void check_base(const SavedReport& saved, const std::string& name, Repository& repo, bool force) {
  std::string problem;
  std::string fix = "make a new decision here (impact select --format json), or pass --force to replay it anyway";
  if (!saved.base) {
    problem = "it names no base commit ($.base is null), so it cannot be checked against HEAD";
  } else {
    std::string commit = quote_name(saved.base->commit);
    switch (repo.ancestry(saved.base->commit)) {
    case Ancestry::head_or_ancestor: return;
    case Ancestry::missing:
      if (repo.is_shallow()) {
        problem = fmt::format("its base commit {} is not in this shallow clone's history", commit);
        fix = "fetch more history (git fetch --deepen=N, or git fetch --unshallow) and replay again, or pass --force "
              "to replay it anyway";
      } else {
        problem = fmt::format("its base commit {} is not in this repository: the decision was made in another "
                              "repository, or on a commit that was never fetched",
                              commit);
      }
      break;
    case Ancestry::not_ancestor:
      problem = fmt::format("its base commit {} is neither HEAD nor an ancestor of HEAD: the decision was made on "
                            "another line of history",
                            commit);
      if (repo.is_shallow()) problem += " (or beyond this shallow clone's history: git fetch --unshallow)";
      break;
    }
  }
  if (!force) throw Error("{}: {}; {}", name, problem, fix);
  fmt::print(stderr, "impact: warning: {}: {}; replaying it anyway (--force)\n", name, util::one_line(problem));
}

} // namespace

std::optional<SavedReport> read_saved_decision(const cli::Options& options, Repository& repo) {
  if (options.impact_file.empty()) return std::nullopt;
  std::filesystem::path path(options.impact_file);
  if (path.is_relative()) path = options.directory / path;
  std::string name = quote_name(options.impact_file);
  SavedReport saved = read_report(path, name);
  check_inside_work_tree(saved, name, repo.root());
  check_base(saved, name, repo, options.force);
  return saved;
}

Analysis replayed_analysis(const SavedReport& saved) {
  Analysis analysis;
  analysis.decision = saved.decision;
  return analysis;
}

} // namespace impact::app
