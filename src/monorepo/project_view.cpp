// One project of a monorepo seen as a repository of its own (monorepo.hpp, ProjectView): the seam
// through which the whole selection pipeline analyses a project unchanged, as if started in its folder.
#include "impact/monorepo.hpp"

#include <algorithm>

namespace impact::monorepo {

namespace {

bool within(std::string_view path, std::string_view dir) {
  return dir.empty() || path == dir || (path.starts_with(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

} // namespace

ProjectView::ProjectView(Repository& parent, std::string prefix, std::shared_ptr<RootSnapshot> snapshot,
                         std::vector<std::string> excluded)
    : m_parent(parent), m_prefix(std::move(prefix)), m_excluded(std::move(excluded)), m_snapshot(std::move(snapshot)),
      m_root(m_prefix.empty() ? parent.root() : parent.root() / m_prefix) {}

std::optional<std::string> ProjectView::inside(std::string_view path) const {
  if (!within(path, m_prefix) || path == m_prefix) return std::nullopt;
  for (const auto& dir : m_excluded) {
    if (within(path, dir)) return std::nullopt;
  }
  return std::string(m_prefix.empty() ? path : path.substr(m_prefix.size() + 1));
}

std::string ProjectView::outside(std::string_view path) const {
  if (m_prefix.empty()) return std::string(path);
  return path.empty() ? m_prefix : m_prefix + "/" + std::string(path);
}

ChangeSet ProjectView::changes(const ChangeRequest&) {
  ChangeSet out;
  out.base = m_snapshot->changes.base;
  for (const auto& f : m_snapshot->changes.files) {
    std::optional<std::string> old_path = f.old_path.empty() ? std::nullopt : inside(f.old_path.str);
    std::optional<std::string> new_path = f.new_path.empty() ? std::nullopt : inside(f.new_path.str);
    if (!old_path && !new_path) continue;
    ChangedFile mine = f;
    mine.old_path = RepoPath(old_path.value_or(""));
    mine.new_path = RepoPath(new_path.value_or(""));
    // A rename across the view's edge: here, one side of it is all there is.
    if (f.status == FileStatus::renamed && !old_path) mine.status = FileStatus::added;
    if (f.status == FileStatus::renamed && !new_path) mine.status = FileStatus::deleted;
    out.files.push_back(std::move(mine));
  }
  std::sort(out.files.begin(), out.files.end(),
            [](const ChangedFile& a, const ChangedFile& b) { return a.path() < b.path(); });
  return out;
}

std::vector<SourceFile> ProjectView::inventory(const ChangeSet&) {
  if (!m_snapshot->inventory) m_snapshot->inventory = m_parent.inventory(m_snapshot->changes);
  std::vector<SourceFile> out;
  for (const auto& f : *m_snapshot->inventory) {
    std::optional<std::string> path = inside(f.path.str);
    if (!path) continue;
    SourceFile mine = f;
    mine.path = RepoPath(std::move(*path));
    // A link to a file outside the view has no target the view can name: it is read as a file.
    mine.link_target = RepoPath(f.link_target.empty() ? std::string() : inside(f.link_target.str).value_or(""));
    out.push_back(std::move(mine));
  }
  return out;
}

FileRead ProjectView::read_current(const SourceFile& file) {
  SourceFile theirs = file;
  theirs.path = RepoPath(outside(file.path.str));
  if (!file.link_target.empty()) theirs.link_target = RepoPath(outside(file.link_target.str));
  return m_parent.read_current(theirs);
}

FileRead ProjectView::read_base(const ChangeSet& changes, const RepoPath& path) {
  return m_parent.read_base(changes, RepoPath(outside(path.str)));
}

} // namespace impact::monorepo
