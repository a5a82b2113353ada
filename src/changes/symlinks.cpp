// Symbolic links of the state under test. git stores a link's target path, not what it points to;
// Python and pytest follow the link. So a link's changes are its target path, while its facts are those
// of the file it reaches, keyed (in the facts cache) by that file's content, never by the link text:
// otherwise an edit of the target would leave the link's cached facts stale.
#include "changes/git_repository.hpp"
#include "changes/worktree_file.hpp"

#include <algorithm>

namespace impact {

namespace {

const SourceFile* find_file(const std::vector<SourceFile>& files, const RepoPath& path) {
  auto it = std::lower_bound(files.begin(), files.end(), path,
                             [](const SourceFile& f, const RepoPath& p) { return f.path < p; });
  return it != files.end() && it->path == path ? &*it : nullptr;
}

} // namespace

// A link to a folder of the repository (`tests/ext -> ../ext_tests`, or `tests -> qa`) holds, for
// Python and pytest, every file of that folder under its own path: pytest collects
// tests/ext/test_e.py, and imports through the link are modules of their own. Each such file becomes
// an entry of its own, a link to the file it reaches, so that its facts, its test ids and the
// `symlink` edge to the target exist as for a link to one file. A link to a folder above itself (a
// cycle pytest would not finish either) is left as it is. `files` sorted by path; it stays so.
void GitRepository::expand_folder_links(std::vector<SourceFile>& files) {
  std::vector<SourceFile> added;
  for (const auto& link : files) {
    if (!link.symlink || link.link_target.empty() || find_file(files, link.link_target) != nullptr) continue;
    std::string folder = link.link_target.str + "/";
    if ((link.path.str + "/").starts_with(folder)) continue;
    auto it = std::lower_bound(files.begin(), files.end(), RepoPath(folder),
                               [](const SourceFile& f, const RepoPath& p) { return f.path < p; });
    for (; it != files.end() && it->path.str.starts_with(folder); ++it) {
      SourceFile entry;
      entry.path = RepoPath(link.path.str + "/" + it->path.str.substr(folder.size()));
      entry.oid = it->oid;
      entry.symlink = true;
      entry.link_target = it->path;
      entry.staged = it->staged;
      added.push_back(std::move(entry));
    }
  }
  if (added.empty()) return;
  files.insert(files.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
  std::sort(files.begin(), files.end(), [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  files.erase(std::unique(files.begin(), files.end(), [](const SourceFile& a, const SourceFile& b) { return a.path == b.path; }),
              files.end());
}

// `files` sorted by path. A link to a file of the repository takes its target's blob id (through a
// chain of links, up to a bound that stops a cycle); a link that leaves the repository takes the id
// of what reading through it gives, when that is a regular file.
void GitRepository::key_links_by_content(std::vector<SourceFile>& files) {
  for (auto& link : files) {
    if (!link.symlink) continue;
    const SourceFile* target = link.link_target.empty() ? nullptr : find_file(files, link.link_target);
    for (int hops = 0; target != nullptr && target->symlink && hops < 40; ++hops) {
      target = target->link_target.empty() ? nullptr : find_file(files, target->link_target);
    }
    if (target != nullptr && !target->symlink) {
      link.oid = target->oid;
      continue;
    }
    if (!link.link_target.empty()) continue; // dangling inside the repository, or a cycle
    std::filesystem::path path = m_root / link.path.str;
    auto read = util::read_regular_file(path);
    if (read.status == util::ReadStatus::ok || read.status == util::ReadStatus::too_large) {
      link.oid = worktree_blob_oid(WorktreeFile{read.status, false, std::move(read.content)}, path);
    }
  }
}

// What Python reads when it imports the link: the regular file at its end, never a FIFO or a device.
// A link that leads nowhere readable is not there: Python cannot import it either.
FileRead GitRepository::read_through_link(const SourceFile& link) {
  bool inside = !link.link_target.empty();
  if (!link.staged || !inside) {
    auto read = util::read_regular_file(m_root / link.path.str);
    if (read.status == util::ReadStatus::ok) return FileRead::found(std::move(read.content));
  }
  if (!inside) return FileRead::absent();
  if (auto blob = read_blob(link.oid)) return FileRead::found(std::move(*blob));
  return FileRead::absent();
}

} // namespace impact
